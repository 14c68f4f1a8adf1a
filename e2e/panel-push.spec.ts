import { expect, test, type Page } from '@playwright/test';
import type {} from '../src/embed/loader.js';
import { dialog, initDemo, launcher } from './helpers.js';

const PAGE = '/docs/guides/theming';

/** What the page looks like to a reader: the article's box, and what is left on `<html>`. */
const pageState = (page: Page) =>
  page.evaluate(() => {
    const r = document.querySelector('main')!.getBoundingClientRect();
    return {
      article: { left: r.left, right: r.right, width: r.width },
      htmlStyle: document.documentElement.getAttribute('style'),
      margin: getComputedStyle(document.documentElement).marginRight,
    };
  });

const initPanel = (page: Page, options: Record<string, unknown>) =>
  initDemo(page, { mode: 'panel', ...options });

test('a push panel moves the article aside while open and gives the page back exactly on close', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(PAGE);
  await initPanel(page, { push: true });
  const before = await pageState(page);
  expect(before.article.right).toBeGreaterThan(1440 - 460);

  await launcher(page).click();
  await expect(dialog(page)).toBeVisible();
  const panel = page.locator('.da-dialog');
  await expect
    .poll(async () => (await pageState(page)).article.right)
    .toBeLessThanOrEqual((await panel.boundingBox())!.x);
  // The margin transitions with the panel (0.16 s): read the page once it has settled.
  await expect.poll(async () => (await pageState(page)).margin).toBe('460px');
  const open = await pageState(page);
  expect(
    await page.evaluate(() => document.documentElement.style.getPropertyValue('--da-push')),
  ).toBe('460px');
  // The article reflowed (narrower), it was not merely covered or shifted off screen.
  expect(open.article.left).toBeGreaterThanOrEqual(0);
  expect(open.article.width).toBeLessThan(before.article.width);
  await page.screenshot({ path: 'test-results/push-open.png' });

  await dialog(page).getByRole('button', { name: 'Close' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect.poll(() => pageState(page)).toEqual(before);
  expect(before.htmlStyle).toBeNull();
});

test('without push, and at narrow widths, the panel covers the page and leaves <html> alone', async ({
  page,
}) => {
  for (const [width, push] of [
    [1440, false],
    [900, true],
    [390, true],
  ] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(PAGE);
    await initPanel(page, { push });
    const before = await pageState(page);
    await launcher(page).click();
    await expect(dialog(page)).toBeVisible();
    // Past the frame in which a push would begin and its transition would end.
    await page.waitForTimeout(400);
    expect(await pageState(page), `${width} px, push ${push}`).toEqual(before);
    if (width === 390)
      // A phone gets the full-screen sheet.
      expect(await page.locator('.da-dialog').boundingBox()).toEqual({
        x: 0,
        y: 0,
        width: 390,
        height: 844,
      });
    // A panel left open reopens on the next page: close it, as a reader would.
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toHaveCount(0);
  }
});

test('the push follows the window across the breakpoint, and a host style on <html> survives', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(PAGE);
  await page.evaluate(() =>
    document.documentElement.style.setProperty('scroll-padding-top', '4rem'),
  );
  await initPanel(page, { push: true });
  await launcher(page).click();
  await expect.poll(async () => (await pageState(page)).margin).toBe('460px');
  await page.setViewportSize({ width: 900, height: 900 });
  await expect.poll(async () => (await pageState(page)).margin).toBe('0px');
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect.poll(async () => (await pageState(page)).margin).toBe('460px');
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  await expect
    .poll(async () => (await pageState(page)).htmlStyle)
    .toBe('scroll-padding-top: 4rem;');
});

test('the script tag refuses a push value it cannot read', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(PAGE);
  await initPanel(page, { push: 'yes' });
  expect(errors).toContain('docs-assistant: push must be one of true, false.');
});
