import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './helpers.js';

/**
 * The reading states added for issue #11, each opened in the gallery's state page (the React
 * widget fed by a deterministic local stream): axe finds nothing in them, light or dark, at
 * desktop or phone width, and each is photographed for a person to look at.
 */
interface Case {
  name: string;
  state: string;
  extra?: string;
  /** What a reader does to reach the state once the scenario has played. */
  reach(page: Page): Promise<void>;
}

const root = (page: Page) => page.locator('.da-dialog');
const ready = (page: Page) => page.locator('.da-dialog[data-status="ready"]').waitFor();

const CASES: Case[] = [
  {
    name: 'citation-preview',
    state: 'answer',
    async reach(page) {
      await ready(page);
      await root(page).locator('a.da-cite').first().focus();
      const preview = root(page).getByRole('tooltip');
      await expect(preview).toBeVisible();
      // Drawn on top and whole, not clipped by the text around it: the preview is what a pointer
      // finds at its centre and at its corners.
      const hits = await preview.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return [
          [r.left + r.width / 2, r.top + r.height / 2],
          // Inside the rounded corners (10 px radius).
          [r.left + 12, r.top + 12],
          [r.right - 12, r.bottom - 12],
        ].map(([x, y]) => el.contains(document.elementFromPoint(x!, y!)));
      });
      expect(hits).toEqual([true, true, true]);
    },
  },
  {
    name: 'also-searched-and-how-i-found-this',
    state: 'answer',
    async reach(page) {
      await ready(page);
      await root(page)
        .getByText(/^Also searched/)
        .click();
      await root(page).getByText('How I found this').click();
      await expect(root(page).locator('details[open]')).toHaveCount(2);
    },
  },
  {
    name: 'follow-ups',
    state: 'answer',
    async reach(page) {
      await ready(page);
      await expect(root(page).getByRole('group', { name: 'Ask next' })).toBeVisible();
    },
  },
  {
    name: 'stopped',
    state: 'stopped',
    async reach(page) {
      await expect(root(page).getByText('Stopped', { exact: true })).toBeVisible();
    },
  },
  {
    name: 'failed-with-retry',
    state: 'failed',
    async reach(page) {
      await expect(root(page).locator('.da-message[data-state="failed"]')).toBeVisible();
      await expect(root(page).getByRole('button', { name: 'Retry' })).toBeVisible();
    },
  },
  {
    name: 'queued',
    state: 'queued',
    async reach(page) {
      await expect(root(page).locator('[data-state="queued"]')).toBeVisible();
    },
  },
  {
    name: 'feedback-reasons',
    state: 'feedback',
    async reach(page) {
      const form = root(page).getByRole('group', { name: 'What was wrong?' });
      await expect(form).toBeVisible();
      await form.getByRole('checkbox').first().check();
      await root(page)
        .getByRole('textbox', { name: 'Anything else? (optional)' })
        .fill('The second step is missing.');
    },
  },
  {
    name: 'context-chips-expanded',
    state: 'context',
    async reach(page) {
      await root(page).getByRole('textbox', { name: 'Your question' }).fill('What does this do?');
      await root(page).getByRole('textbox', { name: 'Your question' }).press('Enter');
      await ready(page);
      await root(page).locator('details.da-sent-chip summary').first().click();
      await expect(root(page).locator('details.da-sent-chip[open]')).toHaveCount(1);
    },
  },
  {
    name: 'developer-details',
    state: 'every-part',
    extra: 'dev=1',
    async reach(page) {
      await ready(page);
      await expect(root(page).getByText('Reasoning')).toBeVisible();
    },
  },
  {
    name: 'push-panel',
    state: 'answer',
    extra: 'push=1',
    async reach(page) {
      await ready(page);
    },
  },
];

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });
    for (const { name, state, extra, reach } of CASES)
      test(`${name}: no axe violations, light and dark`, async ({ page }) => {
        for (const theme of ['light', 'dark']) {
          await page.goto(
            `/gallery/state.html?state=${state}&theme=${theme}${extra ? `&${extra}` : ''}`,
          );
          await reach(page);
          // Past the dialog's entrance, so axe and the picture see its resting colours.
          await page.waitForTimeout(300);
          // Nothing in the conversation is wider than it (it would scroll sideways).
          expect(
            await page.locator('.da-scroll').evaluate((el) => el.scrollWidth - el.clientWidth),
            theme,
          ).toBe(0);
          expect(await axeViolations(page, '.da-root'), theme).toEqual([]);
          await page.screenshot({
            path: `e2e/screenshots/states/${name}-${theme}-${viewport.width}.png`,
          });
        }
      });
  });
