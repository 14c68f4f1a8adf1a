import { expect, test, type Page } from '@playwright/test';
import { askQuestion, dialog, launcher, recordAsks } from './helpers.js';

const PAGE = '/docs/guides/page-context';
const codeButton = (page: Page) => page.getByRole('button', { name: 'Ask AI: code block' });
const chips = (page: Page) => page.getByRole('list', { name: 'Attached context' }).locator('li');

/** Adds a block shaped like VitePress': a copy button absolutely placed at its top-right, and a long line. */
async function addFrameworkBlock(page: Page) {
  await page.evaluate(() => {
    const frame = document.createElement('div');
    frame.id = 'framed';
    frame.style.cssText = 'position:relative;margin:1rem 0';
    frame.innerHTML =
      '<button class="copy" title="Copy Code" style="position:absolute;top:12px;right:12px;z-index:3;width:40px;height:40px;opacity:.01"></button>' +
      '<pre style="overflow-x:auto;margin:0"><code><span class="line">const answer = ask("a question that is long enough to make this line scroll sideways in the block, ' +
      'far past the right edge of the column");</span>\n<span class="line">console.log(answer);</span></code></pre>';
    document.querySelector('main')!.prepend(frame);
  });
  return page.locator('#framed pre');
}

test('the code-block button sits under the pointer, clear of the copy button, and a real click attaches exact code', async ({
  page,
}) => {
  const asks = recordAsks(page);
  await page.goto(PAGE);
  const block = await addFrameworkBlock(page);
  const copy = page.locator('#framed button.copy');
  await block.hover({ position: { x: 40, y: 20 } });
  await expect(codeButton(page)).toBeVisible();
  const ours = (await codeButton(page).boundingBox())!;
  const theirs = (await copy.boundingBox())!;
  const blockBox = (await block.boundingBox())!;
  // Inside the block's top-right, left of the copy button, not overlapping it.
  expect(ours.x + ours.width).toBeLessThanOrEqual(theirs.x);
  expect(ours.y).toBeGreaterThanOrEqual(blockBox.y);
  expect(ours.x).toBeGreaterThan(blockBox.x);
  // What a real pointer at the button's centre hits is our button, nothing else.
  await page.mouse.click(ours.x + ours.width / 2, ours.y + ours.height / 2);
  await expect(dialog(page)).toBeVisible();
  await expect(chips(page)).toHaveCount(1);
  await page.screenshot({ path: 'e2e/screenshots/code-button-attached.png' });
  await askQuestion(page, 'What does this print?');
  expect(asks[0]!.body.context).toEqual([
    {
      type: 'code',
      value:
        'const answer = ask("a question that is long enough to make this line scroll sideways in the block, far past the right edge of the column");\nconsole.log(answer);',
      path: PAGE,
      elementId: 'da-code-1',
    },
  ]);
});

test('the code-block button stays put while the code scrolls sideways', async ({ page }) => {
  await page.goto(PAGE);
  const block = await addFrameworkBlock(page);
  await block.hover({ position: { x: 40, y: 20 } });
  await expect(codeButton(page)).toBeVisible();
  const before = (await codeButton(page).boundingBox())!;
  await page.screenshot({ path: 'e2e/screenshots/code-button.png' });
  await block.evaluate((el) => (el.scrollLeft = 300));
  expect(await block.evaluate((el) => el.scrollLeft)).toBeGreaterThan(100);
  await page.waitForTimeout(100);
  expect(await codeButton(page).boundingBox()).toEqual(before);
  // And it follows the block when the page scrolls.
  await page.mouse.wheel(0, 40);
  await expect
    .poll(async () => (await codeButton(page).boundingBox())?.y)
    .toBeLessThan(before.y - 20);
});

test('a hidden button cannot be clicked, and the open chat is never under one', async ({
  page,
}) => {
  await page.goto(PAGE);
  const block = page.locator('main pre').first();
  await block.hover();
  await expect(codeButton(page)).toBeVisible();
  const box = (await codeButton(page).boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(5, 5);
  await expect(codeButton(page)).toBeHidden();
  // Where the hidden button was, a pointer hits the page, not our button. (A real pointer moving
  // there would be over the block again and show it, so this asks the hit test directly.)
  const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.localName, centre);
  expect(hit).not.toBe('docs-assistant-action');

  // Open chat over code blocks (phone size: the chat covers everything): clicks reach the chat.
  await page.setViewportSize({ width: 375, height: 700 });
  await page.evaluate(() =>
    window.DocsAssistant.init({
      domain: 'demo',
      baseUrl: location.origin,
      apiKey: 'svc_dsc_demo',
      starterQuestions: ['How do I install it?'],
    }),
  );
  await page.locator('main pre').first().scrollIntoViewIfNeeded();
  await launcher(page).click();
  await expect(dialog(page)).toBeVisible();
  const pre = (await page.locator('main pre').first().boundingBox())!;
  await page.mouse.move(pre.x + pre.width / 2, pre.y + 10);
  expect(
    await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.localName, {
      x: pre.x + pre.width / 2,
      y: pre.y + 10,
    }),
  ).toBe('docs-assistant-root');
  await expect(codeButton(page)).toBeHidden();
  await page.mouse.click(pre.x + pre.width / 2, pre.y + 10);
  await expect(chips(page)).toHaveCount(0);
});

test('keyboard: Tab from a focused code block reaches its button, Enter attaches the code, Tab goes on past the block', async ({
  page,
}) => {
  await page.goto(PAGE);
  await page.evaluate(() => {
    const frame = document.createElement('div');
    frame.innerHTML =
      '<pre id="kb" tabindex="0"><code><span class="line">npm install docs-assistant</span>\n<span class="line">npx docs-assistant serve</span></code></pre>' +
      '<a id="after" href="#after">Next link</a>';
    document.querySelector('main')!.prepend(frame);
  });
  // What has keyboard focus, looking into our shadow roots.
  const focused = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return active?.shadowRoot?.activeElement?.getAttribute('aria-label') ?? active?.id ?? '';
    });
  await page.locator('#kb').focus();
  await expect(codeButton(page)).toBeVisible();
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Ask AI: code block');
  await page.keyboard.press('Shift+Tab');
  expect(await focused()).toBe('kb');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('after');
  await expect(codeButton(page)).toBeHidden();
  await page.keyboard.press('Shift+Tab');
  expect(await focused()).toBe('kb');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(dialog(page)).toBeVisible();
  await expect(chips(page)).toHaveCount(1);
});

test('a one-line code block on a plain page gets its button, on the line, and it attaches the command', async ({
  page,
}) => {
  const asks = recordAsks(page);
  await page.goto(PAGE);
  await page.evaluate(() => {
    const pre = document.createElement('pre');
    pre.id = 'one-line';
    pre.style.cssText = 'margin:1rem 0;padding:0;background:none';
    pre.innerHTML = '<code>npm i docs-assistant</code>';
    document.querySelector('main')!.prepend(pre);
  });
  const block = page.locator('#one-line');
  const blockBox = (await block.boundingBox())!;
  await block.hover({ position: { x: 20, y: blockBox.height / 2 } });
  await expect(codeButton(page)).toBeVisible();
  const ours = (await codeButton(page).boundingBox())!;
  // On the block's line, at its right: its middle within the line's height.
  const middle = ours.y + ours.height / 2;
  expect(middle).toBeGreaterThanOrEqual(blockBox.y);
  expect(middle).toBeLessThanOrEqual(blockBox.y + blockBox.height);
  expect(ours.x + ours.width).toBeLessThanOrEqual(blockBox.x + blockBox.width);
  await page.screenshot({
    path: 'e2e/screenshots/one-line-code-button.png',
    clip: { x: blockBox.x - 10, y: blockBox.y - 30, width: blockBox.width + 20, height: 80 },
  });
  await page.mouse.click(ours.x + ours.width / 2, middle);
  await expect(dialog(page)).toBeVisible();
  await expect(chips(page)).toHaveCount(1);
  await expect(chips(page).first()).toContainText('npm i docs-assistant');
  expect(asks).toEqual([]);
});
