import { expect, test, type Page } from '@playwright/test';
import { askQuestion, dialog, launcher } from './helpers.js';
import type {} from '../src/embed/loader.js';

/**
 * Visible buttons and links a finger has to hit. Links inside a sentence (citations `[n]`, prose
 * links) are exempt, as WCAG 2.5.8 exempts inline targets: 44 px there would break the text.
 */
function targets(page: Page) {
  return dialog(page)
    .locator('button, a[href], summary')
    .evaluateAll((els) =>
      els
        .filter((el) => !el.closest('.da-markdown :is(p, li, td)'))
        .map((el) => {
          const r = el.getBoundingClientRect();
          const name = `${el.localName}.${el.className} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
          return {
            name,
            width: Math.round(r.width),
            height: Math.round(r.height),
            shown: r.width > 0 && getComputedStyle(el).visibility !== 'hidden',
          };
        })
        .filter((t) => t.shown),
    );
}

test('at phone width every button and link of an answered dialog is at least 44×44 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/docs/guides/theming');
  await launcher(page).click();
  await askQuestion(page, 'How do I change the accent colour of the widget?');
  await dialog(page)
    .getByText(/Also searched/)
    .click(); // its links count too
  const found = await targets(page);
  // The answer has a header, code with its copy button, sources, feedback and the composer.
  for (const name of ['Close', 'Copy code', 'Helpful', 'Not helpful', 'Send'])
    expect(found.map((t) => t.name).join('\n')).toContain(name);
  expect(found.filter((t) => t.width < 44 || t.height < 44)).toEqual([]);
  await page.screenshot({ path: 'test-results/polish-phone.png' });
});

test('the same dialog at desktop width keeps its compact controls', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/docs/guides/theming');
  await launcher(page).click();
  await askQuestion(page, 'How do I change the accent colour of the widget?');
  const close = await dialog(page).getByRole('button', { name: 'Close' }).boundingBox();
  expect(close!.height).toBeLessThan(44);
  await page.screenshot({ path: 'test-results/polish-desktop.png' });
});

test('a quoted table keeps its words and code whole at phone width, and scrolls when it is wider', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/docs/api/errors');
  await launcher(page).click();
  // An error code is one word (`thread_not_found`); a flag may have hyphens and a space
  // (`--open-to-agents`, `--out FILE`): each of its words is shown on one line, never cut into
  // pieces (a long command may wrap at its spaces).
  for (const [n, [question, shown]] of [
    ['Which status does the thread_not_found error code come with?', 'thread_not_found'],
    ['What options does the export command have?', '--values FILE'],
  ].entries()) {
    await askQuestion(page, question!, n + 1);
    const table = dialog(page).locator('.da-table').last();
    await expect(table).toBeVisible();
    await expect(table).toContainText(shown!);
    const words = await table
      .locator('code > span')
      .evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent, lines: el.getClientRects().length })),
      );
    expect(words.length, question).toBeGreaterThan(5);
    expect(words.filter((word) => word.lines > 1)).toEqual([]);
    // Whatever the table's width, the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  }
  // The error table is wider than the answer at this width: it scrolls, inside the answer.
  const widths = await dialog(page)
    .locator('.da-table')
    .first()
    .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(widths.scroll).toBeGreaterThan(widths.client);
  await page.screenshot({ path: 'test-results/polish-table-phone.png' });
});

/** The launcher's hint: its ::after content, or 'none' while not shown. */
const hintShown = (page: Page) =>
  launcher(page).evaluate((el) => getComputedStyle(el, '::after').content);

for (const [kind, path] of [
  ['script tag', '/docs/guides/theming'],
  ['React component', '/react/guides/theming'],
] as const) {
  test(`the ${kind} launcher shows its shortcut on hover and keyboard focus, and names it to assistive tech`, async ({
    page,
  }) => {
    await page.goto(path);
    // Chromium on Linux: Ctrl, not ⌘.
    await expect(launcher(page)).toHaveAttribute('aria-keyshortcuts', 'Control+I');
    expect(await hintShown(page)).toBe('none');
    await launcher(page).hover();
    await expect.poll(() => hintShown(page)).toBe('"Ctrl+I" / ""');
    await expect(launcher(page)).toHaveAttribute('data-kbd', 'Ctrl+I');
    await page.screenshot({
      path: `test-results/polish-launcher-${kind.replace(' ', '-')}.png`,
      clip: { x: 1000, y: 600, width: 280, height: 120 },
    });
    await page.mouse.move(0, 0);
    await expect.poll(() => hintShown(page)).toBe('none');
    // Focus after a key press is keyboard focus (:focus-visible), as when the reader tabs there.
    await page.keyboard.press('Shift');
    await launcher(page).focus();
    await expect.poll(() => hintShown(page)).toBe('"Ctrl+I" / ""');
    // The hint is not part of the button's name.
    await expect(page.getByRole('button', { name: 'Ask AI', exact: true })).toHaveCount(1);
  });
}

test('with the shortcut turned off the script tag launcher shows no hint', async ({ page }) => {
  // An unreadable data-open-shortcut is no shortcut at all: nothing to show, nothing to announce.
  await page.route('**/docs/guides/theming', async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      body: (await response.text()).replace('<script src=', '<script data-open-shortcut="+" src='),
    });
  });
  await page.goto('/docs/guides/theming');
  await launcher(page).hover();
  await expect(launcher(page)).toBeVisible();
  expect(await hintShown(page)).toBe('none');
  await expect(launcher(page)).not.toHaveAttribute('data-kbd');
  await expect(launcher(page)).not.toHaveAttribute('aria-keyshortcuts');
});

/** Every CSS animation that starts in the widget, with the properties its keyframes move. */
async function recordAnimations(page: Page) {
  await page.evaluate(() => {
    const seen: { name: string; on: string; moves: string[] }[] = [];
    (window as unknown as { __animations: typeof seen }).__animations = seen;
    // animationstart does not leave the shadow tree: listen on its root.
    document
      .querySelector('docs-assistant-root')!
      .shadowRoot!.addEventListener('animationstart', (event) => {
        const { animationName, target } = event as AnimationEvent;
        const element = target as Element;
        const animation = element
          .getAnimations()
          .find((a) => (a as CSSAnimation).animationName === animationName);
        const moves = (animation?.effect as KeyframeEffect | undefined)
          ?.getKeyframes()
          .flatMap((frame) => Object.keys(frame))
          .filter((key) => !['offset', 'easing', 'composite', 'computedOffset'].includes(key));
        seen.push({ name: animationName, on: element.className, moves: [...new Set(moves)] });
      });
  });
  return () =>
    page.evaluate(() =>
      (
        window as unknown as { __animations: { name: string; on: string; moves: string[] }[] }
      ).__animations.splice(0),
    );
}

/** The animations recorded so far, left in place. */
const peek = (page: Page) =>
  page.evaluate(() => [
    ...(window as unknown as { __animations: { name: string }[] }).__animations,
  ]);

for (const mode of ['popover', 'modal', 'panel'] as const)
  test(`the ${mode} moves in and out, and not at all under prefers-reduced-motion`, async ({
    browser,
  }) => {
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const page = await browser.newPage({
        reducedMotion,
        baseURL: test.info().project.use.baseURL,
        viewport: { width: 1440, height: 900 },
      });
      await page.goto('/docs/guides/theming');
      await page.evaluate(
        (m) =>
          window.DocsAssistant.init({
            domain: 'demo',
            baseUrl: location.origin,
            apiKey: 'svc_dsc_demo',
            mode: m,
            push: true,
          }),
        mode,
      );
      const taken = await recordAnimations(page);
      // Slowed down (Chromium's DevTools protocol) so that on a loaded machine each animation is
      // still running, its element still in the tree, when its animationstart is dispatched.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Animation.enable');
      await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.2 });
      await launcher(page).click();
      await expect(dialog(page)).toBeVisible();
      const style = await page.locator('.da-dialog').evaluate((el) => {
        const s = getComputedStyle(el);
        return { animation: s.animationName, transition: s.transitionDuration };
      });
      // The panel's push slides the page with it, unless the reader asked for less motion.
      const pageTransition = () =>
        page.evaluate(() => document.documentElement.style.getPropertyValue('transition'));
      if (mode === 'panel')
        await expect
          .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).marginRight))
          .toBe('460px');
      if (reducedMotion === 'no-preference')
        await expect.poll(async () => (await peek(page)).length).toBeGreaterThan(0);
      const opened = await taken();
      const openedPage = mode === 'panel' ? await pageTransition() : '';
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toHaveCount(0);
      await expect(launcher(page)).toBeFocused();
      const closed = await taken();

      if (reducedMotion === 'reduce') {
        expect(style).toEqual({ animation: 'none', transition: '0s' });
        expect([...opened, ...closed]).toEqual([]);
        expect(openedPage).toBe('');
      } else {
        expect(style).toEqual({ animation: 'da-dialog-in', transition: '0s' });
        // The dialog itself moves (translate) and fades in, and out again on close.
        expect(opened).toContainEqual({
          name: 'da-dialog-in',
          on: 'da-dialog',
          moves: expect.arrayContaining(['translate', 'opacity']),
        });
        expect(closed).toContainEqual({
          name: 'da-dialog-out',
          on: 'da-dialog',
          moves: expect.arrayContaining(['translate', 'opacity']),
        });
        if (mode === 'panel') expect(openedPage).toBe('margin-right 0.16s ease-out');
      }
      await page.close();
    }
  });
