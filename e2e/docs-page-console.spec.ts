import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { dialog, input } from './helpers.js';

/** What the served docs pages say about themselves (theme, icon), and what the console tells the site owner. */

const PAGE = '/docs/guides/react';

/** The theme the script tag shows, on the launcher's root and on the open dialog's. */
const shownThemes = (page: Page) =>
  page.evaluate(() =>
    [
      ...document.querySelector('docs-assistant-root')!.shadowRoot!.querySelectorAll('.da-root'),
    ].map((root) => (root as HTMLElement).dataset.theme),
  );

for (const scheme of ['light', 'dark'] as const) {
  test(`with the OS in ${scheme} mode, the light docs page gets a light assistant (theme auto)`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(PAGE);
    await page.keyboard.press('Control+i');
    await expect(dialog(page)).toBeVisible();
    await page
      .locator('.da-dialog')
      .evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    await page.screenshot({ path: `e2e/screenshots/docs-page-os-${scheme}.png` });
    expect(await shownThemes(page)).toEqual(['light', 'light']);
    // The dialog really is drawn light: its background is white.
    expect(
      await page.locator('.da-dialog').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(255, 255, 255)');
  });
}

test('a served docs page logs nothing in the console and asks for no /favicon.ico', async ({
  page,
}) => {
  const errors: string[] = [];
  const asked: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(PAGE, { waitUntil: 'load' });
  // The assistant's chat code loaded and drawn: by then the browser has long asked for its icon.
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeVisible();
  await page.goto('/docs/guides/page-context', { waitUntil: 'load' });
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeVisible();
  expect(asked).not.toContain('/favicon.ico');
  expect(errors).toEqual([]);
  // The icon is the page's own, inline.
  expect(await page.locator('link[rel=icon]').getAttribute('href')).toMatch(
    /^data:image\/svg\+xml,/,
  );
});

test('a refused key: the reader sees the banner, the site owner gets one console message that names the domain and not the key', async ({
  page,
}) => {
  const KEY = 'svc_dsc_not_this_sites_key';
  const messages: ConsoleMessage[] = [];
  page.on('console', (message) => messages.push(message));
  await page.goto(PAGE);
  await page.evaluate(
    (apiKey) => window.DocsAssistant.init({ domain: 'demo', baseUrl: location.origin, apiKey }),
    KEY,
  );
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeVisible();
  for (const question of ['How do I install it?', 'How do I change the theme?']) {
    await input(page).fill(question);
    await input(page).press('Enter');
    await expect(dialog(page).getByText('The assistant refused this site’s key')).toBeVisible();
  }
  await page.screenshot({ path: 'e2e/screenshots/refused-key.png' });
  const texts = messages.map((m) => m.text());
  const owner = texts.filter((text) => text.includes('refused the assistant key'));
  expect(owner).toHaveLength(1);
  const [told] = owner;
  expect(messages.find((m) => m.text() === told)!.type()).toBe('error');
  expect(told).toContain('domain "demo"');
  expect(told).toContain(new URL(page.url()).origin);
  expect(told).toContain('401');
  expect(told).toContain('svc_dsc_…');
  expect(told).toMatch(/API keys page/);
  // Neither the key nor any part of it past the public prefix is ever printed.
  for (const text of texts) expect(text).not.toContain('not_this_sites');
});
