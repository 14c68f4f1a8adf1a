import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { transform } from 'lightningcss';
import { dialog, initDemo } from './helpers.js';

/**
 * The page's "Ask AI" code-block buttons against the open assistant: wherever the dialog is drawn
 * it is on top and gets the clicks, in every display mode; a block's button moves out of its way.
 */

const codeButton = (page: Page) => page.getByRole('button', { name: 'Ask AI: code block' });
const chips = (page: Page) => page.getByRole('list', { name: 'Attached context' }).locator('li');
const centre = (box: { x: number; y: number; width: number; height: number }) => ({
  x: box.x + box.width / 2,
  y: box.y + box.height / 2,
});
const hitAt = (page: Page, at: { x: number; y: number }) =>
  page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.localName, at);

/** Hovers `block` until its button shows (page context starts when the browser is idle). */
async function hoverUntilShown(page: Page, block: Locator) {
  await expect(async () => {
    await page.mouse.move(1, 1);
    await block.hover({ position: { x: 30, y: 16 } });
    await expect(codeButton(page)).toBeVisible({ timeout: 1000 });
  }).toPass();
}

/**
 * The walkthrough's steps: hover the page's first code block until its button shows, then, the
 * pointer still there, open the assistant with Ctrl+I and let its animation end. Returns where the
 * button was.
 */
async function openOverFirstBlock(page: Page) {
  await hoverUntilShown(page, page.locator('main pre').first());
  const before = centre((await codeButton(page).boundingBox())!);
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeVisible();
  await page
    .locator('.da-dialog')
    .evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
  return before;
}

/** The dialog's box: the shadow root's, since the script tag's dialog lives in one. */
const dialogBox = (page: Page) => page.locator('.da-dialog').boundingBox();

/**
 * Whether a page button is drawn (data-state, whatever the accessibility tree says: a modal hides
 * the page from it) over any of the open assistant's surfaces (its dialog, a modal's overlay).
 */
const buttonOverAssistant = (page: Page) =>
  page.evaluate(() => {
    const assistant = document.querySelector('docs-assistant-root')?.shadowRoot ?? document;
    const surfaces = [...assistant.querySelectorAll('.da-dialog, .da-overlay')].map((el) =>
      el.getBoundingClientRect(),
    );
    return [...document.querySelectorAll('docs-assistant-action')].some((host) => {
      const shown = host.shadowRoot?.querySelector('.da-action[data-state=shown]');
      if (!shown) return false;
      const r = shown.getBoundingClientRect();
      return surfaces.some(
        (s) => r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top,
      );
    });
  });

const MODES = [
  { name: 'popover', init: undefined, viewport: { width: 1280, height: 800 } },
  { name: 'modal', init: { mode: 'modal' }, viewport: { width: 1280, height: 800 } },
  {
    name: 'push panel',
    init: { mode: 'panel', push: true },
    viewport: { width: 1280, height: 800 },
  },
  { name: 'phone sheet', init: undefined, viewport: { width: 375, height: 700 } },
] as const;

for (const { name, init, viewport } of MODES) {
  test(`script tag, ${name}: a code block's button under the opened dialog neither shows through nor takes the click`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/docs/guides/react');
    if (init) await initDemo(page, init);
    const before = await openOverFirstBlock(page);
    await page.screenshot({
      path: `e2e/screenshots/dialog-over-page-${name.replace(' ', '-')}.png`,
    });

    const box = (await dialogBox(page))!;
    const covered =
      before.x >= box.x &&
      before.x <= box.x + box.width &&
      before.y >= box.y &&
      before.y <= box.y + box.height;
    // Where the dialog now is, what a pointer hits is the assistant, not a page button.
    if (covered) expect(await hitAt(page, before)).toBe('docs-assistant-root');
    // A button still shown is clear of the dialog (modal: of the whole page, which is inert).
    await expect.poll(() => buttonOverAssistant(page)).toBe(false);

    // A real click there goes to the chat: nothing is attached, the dialog stays open.
    await page.mouse.click(before.x, before.y);
    await expect(dialog(page)).toBeVisible();
    await expect(chips(page)).toHaveCount(0);
  });
}

test('script tag, popover: the button of a block under the open chat moves beside it and still attaches the code', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/docs/guides/react');
  const block = page.locator('main pre').first();
  await hoverUntilShown(page, block);
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeVisible();
  // Hovering the block again with the chat open: the button is on the block's visible part, left of the chat.
  await page.mouse.move(1, 1);
  await hoverUntilShown(page, block);
  const button = (await codeButton(page).boundingBox())!;
  const box = (await dialogBox(page))!;
  const blockBox = (await block.boundingBox())!;
  expect(button.x + button.width).toBeLessThanOrEqual(box.x);
  expect(button.x).toBeGreaterThan(blockBox.x);
  await page.screenshot({ path: 'e2e/screenshots/dialog-over-page-beside.png' });
  await page.mouse.click(centre(button).x, centre(button).y);
  await expect(chips(page)).toHaveCount(1);

  // Closed again: the button goes back to the block's top-right corner.
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  await page.mouse.move(1, 1);
  await hoverUntilShown(page, block);
  expect((await codeButton(page).boundingBox())!.x).toBeGreaterThan(box.x);
});

/** styles.css as a Vite 8 site ships it: minified by lightningcss, which rounds `--da-z`. */
function minifiedStyles(): string {
  const css = readFileSync(resolve(import.meta.dirname, '../dist/styles.css'));
  return transform({ code: css, filename: 'styles.css', minify: true }).code.toString();
}

for (const [name, extraCss] of [
  ['its styles.css minified by lightningcss', ''],
  ['its layer lowered with --da-z', '.da-root{--da-z:10}'],
] as const) {
  test(`React usePageContext, ${name}: the open dialog is on top of the code button and gets the click`, async ({
    page,
  }) => {
    await page.route('**/styles.css', (route) =>
      route.fulfill({ contentType: 'text/css', body: minifiedStyles() + extraCss }),
    );
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/react/guides/react');
    const before = await openOverFirstBlock(page);
    const hit = await page.evaluate(
      ({ x, y }) =>
        document.elementFromPoint(x, y)?.closest('.da-root, docs-assistant-action')?.localName,
      before,
    );
    expect(hit).toBe('div'); // the widget's .da-root, not a page button
    await expect.poll(() => buttonOverAssistant(page)).toBe(false);
    await page.mouse.click(before.x, before.y);
    await expect(chips(page)).toHaveCount(0);
  });
}
