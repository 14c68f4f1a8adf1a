import { expect, test, type Page } from '@playwright/test';
import type {} from '../src/embed/loader.js';
import {
  answers,
  askQuestion,
  dialog,
  input,
  launcher,
  recordAsks,
  waitForAnswer,
} from './helpers.js';

/** The reference server pacing its answers like a model (see playwright.config.ts). */
const PACED = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4455) + 100}`;
const scroller = (page: Page) => page.locator('.da-scroll');
const distanceToEnd = (page: Page) =>
  scroller(page).evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
const ready = (page: Page) => page.locator('.da-dialog[data-status="ready"]').waitFor();

/** Where the last element matching `selector` is, relative to the scroller's visible area (px). */
async function placeInView(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const root = document.querySelector('docs-assistant-root')?.shadowRoot ?? document;
    const scroll = root.querySelector('.da-scroll')!.getBoundingClientRect();
    const all = root.querySelectorAll(sel);
    const target = all[all.length - 1]!.getBoundingClientRect();
    return {
      top: Math.round(target.top - scroll.top),
      bottom: Math.round(target.bottom - scroll.top),
      height: Math.round(scroll.height),
    };
  }, selector);
}
const lastQuestion = '.da-message[data-role="user"]';
const lastAnswerStart = '.da-message[data-role="assistant"] .da-markdown > :first-child';

test.describe('a long answer is read from its start', () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    test(`a long paced answer keeps its question at the top and its first line in view, not its end (${width}×${height})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await page.goto(`${PACED}/docs/guides/theming`);
      await launcher(page).click();
      // A short answer first (nothing matches: one sentence), then a long one after it.
      await input(page).fill('zzqx qqvv');
      await input(page).press('Enter');
      await expect(answers(page).first()).toContainText("The docs don't cover this");
      await ready(page);
      await askQuestion(page, 'How do I change the accent colour of the widget?', 2);
      // The answer is longer than the area: the reader could have been taken to its end.
      expect(await scroller(page).evaluate((el) => el.scrollHeight > el.clientHeight * 1.2)).toBe(
        true,
      );
      // The question sits at the top, the answer's first line below it; its end is below the fold.
      const question = await placeInView(page, lastQuestion);
      expect(question.top).toBeGreaterThanOrEqual(0);
      expect(question.top).toBeLessThanOrEqual(24);
      const start = await placeInView(page, lastAnswerStart);
      expect(start.top).toBeGreaterThan(question.bottom - 1);
      expect(start.top).toBeLessThan(start.height / 2);
      expect(await distanceToEnd(page)).toBeGreaterThan(100);
      expect((await placeInView(page, '.da-follow-ups')).top).toBeGreaterThan(start.height);
      await page.screenshot({ path: `e2e/screenshots/chat-scroll-${width}.png` });
    });
  }

  test('in a short window, the first answer is read from its start too (the welcome was taller than the area)', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1024, height: 500 });
    await page.goto(`${PACED}/docs/guides/theming`);
    await launcher(page).click();
    await ready(page);
    // The welcome and its starter questions overflow: they are shown from their top.
    expect(await scroller(page).evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await scroller(page).evaluate((el) => el.scrollTop)).toBe(0);
    await askQuestion(page, 'How do I change the accent colour of the widget?');
    const question = await placeInView(page, lastQuestion);
    expect(question.top).toBeGreaterThanOrEqual(0);
    expect(question.top).toBeLessThanOrEqual(24);
    const start = await placeInView(page, lastAnswerStart);
    expect(start.top).toBeLessThan(start.height);
    expect(await distanceToEnd(page)).toBeGreaterThan(100);
    await page.screenshot({ path: 'e2e/screenshots/chat-scroll-short.png' });
  });

  test('an answer that grows after it ends (the Markdown renderer arrives late) keeps its start in view', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // Hold back the React app's lazy Markdown chunk until the answer has finished streaming as plain text.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/markdown-*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${PACED}/react/guides/theming`);
    await launcher(page).click();
    await input(page).fill('How do I change the accent colour of the widget?');
    await input(page).press('Enter');
    await ready(page);
    await expect(answers(page).first().locator('.da-plain-text').first()).toBeVisible();
    const before = await scroller(page).evaluate((el) => el.scrollHeight);
    release();
    await expect(answers(page).first().locator('.da-markdown .da-code').first()).toBeVisible();
    await expect(answers(page).first().locator('[data-pending]')).toHaveCount(0);
    // Formatting changed the height; the question and the answer's start are still in view.
    expect(await scroller(page).evaluate((el) => el.scrollHeight)).not.toBe(before);
    const question = await placeInView(page, lastQuestion);
    expect(question.top).toBeGreaterThanOrEqual(0);
    expect(question.top).toBeLessThanOrEqual(24);
    const start = await placeInView(page, lastAnswerStart);
    expect(start.top).toBeLessThan(start.height / 2);
  });

  test('code in an answer is highlighted once it is in view (the script tag, a real IntersectionObserver)', async ({
    page,
  }) => {
    await page.goto('/docs/guides/theming');
    await launcher(page).click();
    await askQuestion(page, 'How do I change the accent colour of the widget?');
    const code = answers(page).first().locator('.da-code code');
    await code.first().scrollIntoViewIfNeeded();
    await expect(code.first().locator('span[class^="da-tok-"]').first()).toBeVisible();
  });

  test('a reader who scrolls up stays put, and "Jump to latest" takes them to the end', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${PACED}/docs/guides/theming`);
    await launcher(page).click();
    await askQuestion(page, 'How do I change the accent colour of the widget?');
    await input(page).fill('How do I use the dark theme and the system theme?');
    await input(page).press('Enter');
    // While the second answer streams, the reader scrolls up to re-read the first.
    await expect(answers(page)).toHaveCount(2);
    await scroller(page).hover();
    await page.mouse.wheel(0, -300);
    // Away from the end, not necessarily off the top: a short conversation may reach scrollTop 0.
    await expect.poll(() => distanceToEnd(page)).toBeGreaterThan(100);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await expect(jump).toBeVisible();
    await ready(page);
    const top = await scroller(page).evaluate((el) => el.scrollTop);
    expect(await distanceToEnd(page)).toBeGreaterThan(100);
    await page.waitForTimeout(300);
    expect(await scroller(page).evaluate((el) => el.scrollTop)).toBe(top);
    await jump.click();
    await expect.poll(() => distanceToEnd(page)).toBeLessThanOrEqual(2);
    await expect(jump).toBeHidden();
  });
});

test.describe('asking', () => {
  test('?assistant=… asks once and leaves the URL, keeping the rest of it', async ({ page }) => {
    const asks = recordAsks(page);
    await page.goto(
      `/docs/guides/theming?x=1&assistant=${encodeURIComponent('How do I install it?')}#colours`,
    );
    await waitForAnswer(page);
    expect(new URL(page.url()).search).toBe('?x=1');
    expect(new URL(page.url()).hash).toBe('#colours');
    await page.reload();
    await launcher(page).click();
    await expect(dialog(page)).toBeVisible();
    await page.waitForTimeout(500);
    expect(asks).toHaveLength(1);
  });

  test('the script tag’s DocsAssistant.ask() while an answer streams queues the question, shows it waiting, and answers in order', async ({
    page,
  }) => {
    const asks = recordAsks(page);
    await page.goto(`${PACED}/docs/guides/theming`);
    // Asked from the page itself the moment the first answer's text starts streaming (the paced
    // server sends it word by word), and the waiting questions read in the next frame: no test
    // round trip between them, however slow the machine.
    const seen = await page.evaluate(
      () =>
        new Promise<{ streaming: boolean; waiting: string[]; label: string }>((resolve) => {
          window.DocsAssistant.ask('How do I change the accent colour of the widget?');
          const root = () => document.querySelector('docs-assistant-root')!.shadowRoot!;
          const streaming = () => !!root().querySelector('[data-streaming]');
          const watch = () => {
            if (!streaming()) return requestAnimationFrame(watch);
            window.DocsAssistant.ask('How do I install it?');
            window.DocsAssistant.ask('What is static export?');
            const read = () => {
              const waiting = [...root().querySelectorAll('li.da-message[data-state="queued"]')];
              // Until React has drawn both, while the first answer is still being written.
              if (waiting.length < 2 && streaming()) return requestAnimationFrame(read);
              resolve({
                streaming: streaming(),
                waiting: waiting.map((li) => li.querySelector('.da-user-text')!.textContent!),
                label: waiting[0]?.querySelector('.da-queued')?.textContent ?? '',
              });
            };
            requestAnimationFrame(read);
          };
          requestAnimationFrame(watch);
        }),
    );
    expect(seen).toEqual({
      streaming: true,
      waiting: ['How do I install it?', 'What is static export?'],
      label: expect.stringContaining('Waiting to be asked'),
    });
    expect(asks).toHaveLength(1);
    await waitForAnswer(page, 3);
    await expect(dialog(page).locator('li.da-message[data-state="queued"]')).toHaveCount(0);
    expect(asks.map((ask) => ask.body.messages.at(-1)!.content)).toEqual([
      'How do I change the accent colour of the widget?',
      'How do I install it?',
      'What is static export?',
    ]);
    // Shown in the order asked, each question followed by its own answer.
    await expect(dialog(page).locator('li.da-message')).toHaveCount(6);
    expect(
      await dialog(page)
        .locator('li.da-message')
        .evaluateAll((items) => items.map((li) => li.getAttribute('data-role'))),
    ).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    await expect(dialog(page).locator('li.da-message[data-role="user"] .da-user-text')).toHaveText([
      'How do I change the accent colour of the widget?',
      'How do I install it?',
      'What is static export?',
    ]);
  });

  test('shows a cursor on the text being written in every frame while it streams', async ({
    page,
  }) => {
    await page.goto(`${PACED}/docs/guides/theming`);
    await launcher(page).click();
    // Every frame while text streams, count the cursors drawn in the answer.
    await page.evaluate(() => {
      const samples: number[] = [];
      (window as unknown as { __cursors: number[] }).__cursors = samples;
      const root = document.querySelector('docs-assistant-root')!.shadowRoot!;
      const sample = () => {
        const live = root.querySelector('[data-streaming]');
        if (live) {
          const answer = live.closest('.da-message')!;
          samples.push(
            [answer, ...answer.querySelectorAll('*')].filter(
              (el) => getComputedStyle(el, '::after').content === '"▍"',
            ).length,
          );
        }
        if (!root.querySelector('.da-dialog[data-status="ready"] .da-actions'))
          requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await input(page).fill('How do I change the accent colour of the widget?');
    await input(page).press('Enter');
    await ready(page);
    await expect(answers(page).first().locator('.da-actions')).toBeVisible();
    const samples = await page.evaluate(
      () => (window as unknown as { __cursors: number[] }).__cursors,
    );
    // Text streamed over several frames, and in every one of them exactly one cursor showed.
    expect(samples.length).toBeGreaterThan(1);
    expect(new Set(samples)).toEqual(new Set([1]));
    await expect(answers(page).first().locator('[data-streaming]')).toHaveCount(0);
    await expect(answers(page).first().locator('.da-status').first()).toHaveText(
      /^Searched the docs for “.+”$/,
    );
  });
});
