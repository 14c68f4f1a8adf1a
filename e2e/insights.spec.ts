import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type {} from '../src/embed/loader.js';
import { answers, askQuestion, axeViolations, dialog, input, launcher } from './helpers.js';

/**
 * Real questions through the widget in Chromium, then the owner's view of them: the CLI and the
 * /insights page. The paced server (see playwright.config.ts) writes answers slowly enough to stop one.
 */
const PACED = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4455) + 100}`;
const ADMIN_KEY = 'svc_demo_admin';
const ROOT = resolve(import.meta.dirname, '..');

// The page forbids inline scripts (CSP); axe is injected as one.
test.use({ bypassCSP: true });
test.describe.configure({ mode: 'serial' });

const REFUSED = 'Does it work with Svelte and SvelteKit?';

async function cli(...args: string[]) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['bin/docs-assistant.js', 'insights', '--domain', 'demo', '--base-url', PACED, ...args],
    { cwd: ROOT, env: { ...process.env, DOCS_ASSISTANT_ADMIN_KEY: ADMIN_KEY } },
  );
  return stdout;
}

async function signIn(page: Page) {
  await page.goto(`${PACED}/insights`);
  await page.getByLabel('Admin key', { exact: true }).fill(ADMIN_KEY);
  await page.getByRole('button', { name: 'Show insights' }).click();
  await expect(page.getByRole('heading', { name: 'Unanswered questions' })).toBeVisible();
}

test('questions asked through the widget reach the owner: answered, not covered, stopped, thumbs-down with a reason', async ({
  page,
}) => {
  // Other specs ask the same server too: the report from this test's start holds only its questions.
  const since = new Date().toISOString();
  await page.goto(`${PACED}/docs/guides/theming`);
  await launcher(page).click();

  await askQuestion(page, 'How do I change the accent colour of the widget?');
  await answers(page).first().getByRole('button', { name: 'Not helpful' }).click();
  const form = answers(page).first().getByRole('form', { name: 'What was wrong?' });
  await form.getByRole('checkbox', { name: 'Incorrect or outdated' }).check();
  await form
    .getByRole('textbox', { name: 'Anything else? (optional)' })
    .fill('Show the CSS variable');
  const sent = page.waitForResponse(
    (r) => r.url().endsWith('/demo/feedback') && r.status() === 204,
  );
  await form.getByRole('button', { name: 'Send feedback' }).click();
  await sent;

  await input(page).fill(REFUSED);
  await input(page).press('Enter');
  await expect(answers(page).nth(1)).toContainText("The docs don't cover this");
  await page.locator('.da-dialog[data-status="ready"]').waitFor();

  // A long answer, stopped while it is being written.
  await input(page).fill('Tell me everything about the script tag options and the theme');
  await input(page).press('Enter');
  await expect(answers(page).nth(2)).toContainText(/\w{4,}/);
  await dialog(page).getByRole('button', { name: 'Stop' }).click();
  await expect(answers(page).nth(2)).toHaveAttribute('data-state', 'stopped');

  // The CLI: JSON for a program, tables for a person (top unanswered first).
  await expect
    .poll(async () => JSON.parse(await cli('--json', '--since', since)).totals, {
      timeout: 20_000,
    })
    .toMatchObject({ questions: 3, answered: 1, refused: 1, stopped: 1 });
  const report = JSON.parse(await cli('--json', '--since', since));
  expect(report.unanswered[0]).toMatchObject({ example: REFUSED, count: 1, outcomes: ['refused'] });
  expect(report.unanswered[0].pages).toEqual([{ path: '/guides/theming', count: 1 }]);
  expect(report.feedback.items).toEqual([
    expect.objectContaining({
      rating: 'down',
      reasons: ['incorrect'],
      comment: 'Show the CSS variable',
      question: 'How do I change the accent colour of the widget?',
    }),
  ]);
  const table = await cli('--since', since);
  expect(table).toContain('Unanswered questions');
  expect(table.indexOf(REFUSED)).toBeLessThan(table.indexOf('Docs gaps by page'));
  expect(await cli('--csv', '--since', since)).toContain(
    `unanswered,1,${REFUSED},/guides/theming,refused,`,
  );
});

test('the insights page shows them, opens a conversation, and keeps the key out of URL and storage', async ({
  page,
}) => {
  await signIn(page);
  const unanswered = page.locator('#unanswered');
  await expect(unanswered.getByRole('button', { name: REFUSED })).toBeVisible();
  await expect(page.locator('#feedback')).toContainText('Incorrect or outdated');
  await expect(page.locator('#feedback')).toContainText('Show the CSS variable');
  await expect(page.getByRole('img', { name: 'Questions per day by outcome' })).toBeVisible();

  // Sorting: the header says the order, the rows follow it.
  const asked = page.locator('#gaps').getByRole('button', { name: 'Page' });
  await asked.click();
  await expect(page.locator('#gaps th').nth(1)).toHaveAttribute('aria-sort', 'descending');

  await unanswered.getByRole('button', { name: REFUSED }).click();
  const conversation = page.getByRole('dialog', { name: 'Conversation' });
  await expect(conversation).toContainText(REFUSED);
  await expect(conversation).toContainText("The docs don't cover this");
  // The whole thread, scrolled to the turn the owner clicked.
  await expect(conversation.locator('[data-current]')).toContainText(REFUSED);
  await expect(conversation.locator('[data-current]')).toBeInViewport();
  await page.screenshot({ path: 'e2e/screenshots/insights-conversation.png' });
  expect(await axeViolations(page, 'dialog')).toEqual([]);
  await conversation.getByRole('button', { name: 'Close' }).click();
  await expect(unanswered.getByRole('button', { name: REFUSED })).toBeFocused();

  expect(page.url()).not.toContain(ADMIN_KEY);
  const stored = await page.evaluate(() =>
    JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]),
  );
  expect(stored).not.toContain(ADMIN_KEY);
  expect(JSON.stringify(await page.context().cookies())).not.toContain(ADMIN_KEY);
  // A reload forgets it: the key lived in the page's memory only.
  await page.reload();
  await expect(page.getByLabel('Admin key', { exact: true })).toHaveValue('');
});

test('a wrong key is told plainly and shows nothing', async ({ page }) => {
  await page.goto(`${PACED}/insights`);
  await page.getByLabel('Admin key', { exact: true }).fill('svc_dsc_demo');
  await page.getByRole('button', { name: 'Show insights' }).click();
  await expect(page.getByRole('alert')).toContainText('admin');
  await expect(page.getByRole('heading', { name: 'Unanswered questions' })).toHaveCount(0);
});

for (const [name, viewport, colorScheme] of [
  ['light', { width: 1280, height: 900 }, 'light'],
  ['dark', { width: 1280, height: 900 }, 'dark'],
  ['390', { width: 390, height: 844 }, 'light'],
] as const) {
  test(`the insights page is axe clean and fits (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    await page.goto(`${PACED}/insights`);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await signIn(page);
    expect(await axeViolations(page, 'main')).toEqual([]);
    // Nothing wider than the screen but the tables' own scrollers.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    await page.screenshot({ path: `e2e/screenshots/insights-${name}.png`, fullPage: true });
  });
}
