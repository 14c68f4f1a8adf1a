import { expect, test, type Page } from '@playwright/test';
import { FRENCH } from '../test/fixtures/translations-fr.js';
import { answers, waitForAnswer } from './helpers.js';

const PAGE = '/docs/guides/page-context';
const QUESTION = 'How do I attach a code block?';
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The demo docs page with `data-translations` on its script tag: a French site's own page. */
async function frenchPage(page: Page) {
  await page.route(`**${PAGE}`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      '<script src="/embed/docs-assistant.js" defer',
      `<script src="/embed/docs-assistant.js" defer data-translations="${escapeAttribute(JSON.stringify(FRENCH))}"`,
    );
    await route.fulfill({ response, body: html });
  });
}

/**
 * Every string the reader sees or hears from us (text, accessible names, titles, placeholders), in
 * our shadow roots, leaving out what the answer itself says (the docs are in English).
 */
function ourStrings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const content =
      '.da-markdown, .da-plain-text, .da-user-text, .da-source-title, .da-follow-ups li, .da-starters li, .da-sent-context, .da-chips li, .da-reasoning p';
    const strings: string[] = [];
    const visit = (root: ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        // A code block's bar is ours, except the language its code is written in.
        const ours =
          !el.closest(content) || (el.closest('.da-code-bar') && !el.matches('.da-code-lang'));
        if (!ours) continue;
        for (const name of ['aria-label', 'title', 'placeholder'])
          strings.push(el.getAttribute(name) ?? '');
        for (const node of el.childNodes)
          if (node.nodeType === Node.TEXT_NODE) strings.push(node.textContent ?? '');
      }
    };
    for (const host of document.querySelectorAll('docs-assistant-root, docs-assistant-action'))
      if (host.shadowRoot) visit(host.shadowRoot);
    return strings.map((s) => s.trim()).filter((s) => /\p{L}/u.test(s));
  });
}

/** Through the page-context buttons, the panel, an answer and its code block. */
async function tour(page: Page, t: { code: string; input: string }) {
  await page.goto(PAGE);
  const seen = new Set<string>();
  const look = async () => (await ourStrings(page)).forEach((s) => seen.add(s));
  await page.locator('main pre').first().hover();
  await expect(page.getByRole('button', { name: t.code })).toBeVisible();
  await look();
  await page.getByRole('button', { name: t.code }).click();
  await expect(page.getByRole('textbox', { name: t.input })).toBeFocused();
  await look();
  await page.getByRole('textbox', { name: t.input }).fill(QUESTION);
  await page.getByRole('textbox', { name: t.input }).press('Enter');
  await waitForAnswer(page);
  await expect(answers(page).first().locator('.da-code').first()).toBeVisible();
  await look();
  return seen;
}

test.describe('a translated script tag', () => {
  test('a French site shows no English string in the launcher, panel, page-context and copy buttons', async ({
    page,
  }) => {
    const english = await tour(page, { code: 'Ask AI: code block', input: 'Your question' });
    await frenchPage(page);
    await page.goto(PAGE);
    // The launcher is drawn by the loader, before any chat code is fetched.
    const launcher = page.getByRole('button', { name: FRENCH.launcher.buttonText, exact: true });
    await expect(launcher).toBeVisible();
    await page.locator('main pre').first().hover();
    await expect(
      page.getByRole('button', { name: FRENCH.pageContext.codeBlockLabel }),
    ).toBeVisible();
    await page.screenshot({ path: 'test-results/translations-fr-launcher.png' });
    const french = await tour(page, {
      code: FRENCH.pageContext.codeBlockLabel,
      input: FRENCH.composer.inputLabel,
    });
    // The selection button too.
    await page.locator('main p').first().click({ clickCount: 3 });
    await expect(
      page.getByRole('button', { name: FRENCH.pageContext.selectionLabel }),
    ).toBeVisible();
    const answer = answers(page).first();
    await expect(answer.getByRole('button', { name: FRENCH.code.copyCode }).first()).toBeVisible();
    await expect(answer.locator('.da-code-bar').first()).not.toContainText('Copy');
    for (const s of [FRENCH.header.title, FRENCH.composer.send, FRENCH.sources.title])
      expect(french, s).toContain(s);
    expect([...french].filter((s) => english.has(s))).toEqual([]);
    await page.screenshot({ path: 'test-results/translations-fr.png' });
  });

  test('a script tag with translations that are not groups of strings says so and draws nothing', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.route(`**${PAGE}`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        '<script src="/embed/docs-assistant.js" defer',
        `<script src="/embed/docs-assistant.js" defer data-translations="${escapeAttribute('{"launcher":"Demander"}')}"`,
      );
      await route.fulfill({ response, body: html });
    });
    await page.goto(PAGE);
    await expect
      .poll(() => errors.join('\n'))
      .toMatch(/translations must be JSON groups of strings/);
    await expect(page.locator('docs-assistant-root')).toHaveCount(0);
  });
});
