import { expect, test, type Page } from '@playwright/test';
import { askQuestion, axeViolations, dialog, launcher } from './helpers.js';

/**
 * The header menu's copy actions in real Chromium, with the real clipboard: the script tag offers
 * "Copy page as Markdown" where the page's .md exists, and the conversation copies with its sources.
 */

test.beforeEach(async ({ context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
});

const more = (page: Page) => dialog(page).getByRole('button', { name: 'More actions' });
const menu = (page: Page) => dialog(page).getByRole('menu', { name: 'More actions' });
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('copies the page as Markdown and the conversation with its sources', async ({ page }) => {
  await page.goto('/docs/guides/theming');
  await launcher(page).click();
  await more(page).click();
  await expect(menu(page).getByRole('menuitem')).toHaveText([
    'Copy page as Markdown',
    'Copy conversation as Markdown',
  ]);
  await page.screenshot({ path: 'e2e/screenshots/copy-menu-light.png' });
  await menu(page).getByRole('menuitem', { name: 'Copy page as Markdown' }).click();
  await expect(dialog(page).locator('.da-menu-status', { hasText: 'Page copied' })).toBeVisible();
  const served = await page.evaluate(async () => (await fetch('/docs/guides/theming.md')).text());
  await expect.poll(() => clipboard(page)).toBe(served);
  expect(served).toMatch(/^# Theming/);

  await askQuestion(page, 'How do I change the accent colour of the widget?');
  const sources = await dialog(page)
    .locator('li.da-message[data-role="assistant"] .da-sources')
    .first()
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href.split('#')[0]));
  await more(page).click();
  await menu(page).getByRole('menuitem', { name: 'Copy conversation as Markdown' }).click();
  const conversation = await clipboard(page);
  expect(conversation).toMatch(/^## You\n\nHow do I change the accent colour of the widget\?\n/);
  expect(conversation).toContain('## Assistant');
  expect(conversation).toContain('**Sources**');
  for (const source of sources) expect(conversation).toContain(`](${source})`);
  await expect(more(page)).toBeFocused();
});

test('leaves Copy page out where the page has no Markdown', async ({ page }) => {
  const checked: string[] = [];
  await page.route('**/docs/guides/theming.md', (route) => {
    checked.push(route.request().method());
    return route.fulfill({ status: 404, body: 'not here' });
  });
  await page.goto('/docs/guides/theming');
  await launcher(page).click();
  await expect.poll(() => checked).toEqual(['HEAD']);
  await more(page).click();
  await expect(menu(page).getByRole('menuitem')).toHaveText(['Copy conversation as Markdown']);
});

test('the menu in dark and at phone width', async ({ page }) => {
  await page.goto('/docs/guides/theming');
  // The script tag's theme is `auto`: it follows the site's own switch (VitePress's class="dark").
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await launcher(page).click();
  await expect(page.locator('.da-root').first()).toHaveAttribute('data-theme', 'dark');
  await askQuestion(page, 'How do I change the accent colour of the widget?');
  await more(page).click();
  await expect(menu(page)).toBeVisible();
  expect(await axeViolations(page, 'docs-assistant-root')).toEqual([]);
  await page.screenshot({ path: 'e2e/screenshots/copy-menu-dark.png' });

  await page.keyboard.press('Escape');
  await expect(menu(page)).toBeHidden();
  await expect(dialog(page)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await more(page).click();
  const box = await menu(page).boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  for (const item of await menu(page).getByRole('menuitem').all())
    expect((await item.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await page.screenshot({ path: 'e2e/screenshots/copy-menu-phone.png' });
});
