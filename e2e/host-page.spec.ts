import { expect, test, type Page } from '@playwright/test';
import { askQuestion, dialog, input, launcher, recordAsks } from './helpers.js';

/** How the script tag gets along with the page around it: theme, corner, keys, navigation. */
const PAGE = '/docs/guides/page-context';

const launcherTheme = (page: Page) =>
  page.locator('docs-assistant-root .da-root').first().getAttribute('data-theme');
const launcherColour = (page: Page) =>
  launcher(page).evaluate((el) => getComputedStyle(el).backgroundColor);
const dialogColour = (page: Page) =>
  page.locator('.da-dialog').evaluate((el) => getComputedStyle(el).backgroundColor);

test('theme auto follows the site toggle both ways, live', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(PAGE);
  await expect.poll(() => launcherTheme(page)).toBe('light');
  const light = await launcherColour(page);
  // VitePress marks dark mode with html.dark…
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expect.poll(() => launcherTheme(page)).toBe('dark');
  expect(await launcherColour(page)).not.toBe(light);
  await launcher(page).click();
  await expect(dialog(page)).toBeVisible();
  expect(await dialogColour(page)).toBe('rgb(22, 24, 29)');
  await page.screenshot({ path: 'e2e/screenshots/theme-auto-dark.png' });
  // …Docusaurus and Starlight with data-theme; the open dialog follows without a reload.
  await page.evaluate(() => {
    document.documentElement.classList.remove('dark');
    document.documentElement.dataset.theme = 'light';
  });
  await expect.poll(() => dialogColour(page)).toBe('rgb(255, 255, 255)');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await expect.poll(() => dialogColour(page)).toBe('rgb(22, 24, 29)');
  // The site's own choice beats the OS preference.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await expect.poll(() => dialogColour(page)).toBe('rgb(255, 255, 255)');
  // A site that marks only dark (VitePress) shows light by the marker's absence: its own light
  // background says so, though the OS prefers dark.
  await page.evaluate(() => {
    delete document.documentElement.dataset.theme;
    document.documentElement.style.colorScheme = 'normal';
    document.body.style.background = '#ffffff';
  });
  await expect.poll(() => dialogColour(page)).toBe('rgb(255, 255, 255)');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expect.poll(() => dialogColour(page)).toBe('rgb(22, 24, 29)');
  // With no marker, no color-scheme and no background of its own, the OS decides.
  await page.evaluate(() => {
    document.documentElement.classList.remove('dark');
    document.body.style.background = 'none';
    document.documentElement.style.background = 'none';
  });
  await expect.poll(() => dialogColour(page)).toBe('rgb(22, 24, 29)');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => dialogColour(page)).toBe('rgb(255, 255, 255)');
});

test('an owner selector decides dark; an explicit theme wins over the page', async ({ page }) => {
  await page.goto(PAGE);
  await page.evaluate(() => {
    document.documentElement.dataset.theme = 'dark';
    window.DocsAssistant.init({
      domain: 'demo',
      baseUrl: location.origin,
      apiKey: 'svc_dsc_demo',
      themeSelector: 'body.night',
    });
  });
  // The selector is the owner's word: html[data-theme=dark] no longer counts.
  await expect.poll(() => launcherTheme(page)).toBe('light');
  await page.evaluate(() => document.body.classList.add('night'));
  await expect.poll(() => launcherTheme(page)).toBe('dark');
  await page.evaluate(() =>
    window.DocsAssistant.init({
      domain: 'demo',
      baseUrl: location.origin,
      apiKey: 'svc_dsc_demo',
      theme: 'light',
    }),
  );
  await expect.poll(() => launcherTheme(page)).toBe('light');
  await launcher(page).click();
  expect(await dialogColour(page)).toBe('rgb(255, 255, 255)');
});

test('the launcher takes its corner and offset, and rises above a fixed page control there', async ({
  page,
}) => {
  await page.goto(PAGE);
  await page.evaluate(() =>
    window.DocsAssistant.init({
      domain: 'demo',
      baseUrl: location.origin,
      apiKey: 'svc_dsc_demo',
      position: 'bottom-left',
      offset: [24, 30],
    }),
  );
  const viewport = page.viewportSize()!;
  const box = (await launcher(page).boundingBox())!;
  expect(box.x).toBe(24);
  expect(viewport.height - (box.y + box.height)).toBe(30);

  // A back-to-top button like Docusaurus': fixed in the corner, shown only once the page scrolls.
  await page.evaluate(() => {
    const top = document.createElement('button');
    top.id = 'back-to-top';
    top.setAttribute('aria-label', 'Scroll back to top');
    top.style.cssText =
      'position:fixed;right:20px;bottom:20px;width:48px;height:48px;border-radius:50%;visibility:hidden;z-index:10';
    top.onclick = () => window.scrollTo(0, 0);
    document.body.append(top);
    addEventListener('scroll', () => (top.style.visibility = scrollY > 100 ? 'visible' : 'hidden'));
    window.DocsAssistant.init({ domain: 'demo', baseUrl: location.origin, apiKey: 'svc_dsc_demo' });
  });
  await launcher(page).waitFor();
  const resting = (await launcher(page).boundingBox())!;
  await page.mouse.move(400, 300);
  await page.mouse.wheel(0, 600);
  const control = page.locator('#back-to-top');
  await expect(control).toBeVisible();
  await expect
    .poll(async () => (await launcher(page).boundingBox())!.y)
    .toBeLessThan(resting.y - 40);
  const controlBox = (await control.boundingBox())!;
  const lifted = (await launcher(page).boundingBox())!;
  expect(lifted.y + lifted.height).toBeLessThanOrEqual(controlBox.y);
  await page.screenshot({ path: 'e2e/screenshots/launcher-lifted.png' });
  // A real click on the control reaches it.
  await page.mouse.click(controlBox.x + controlBox.width / 2, controlBox.y + controlBox.height / 2);
  await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
  // Back at the top the control hides again and the launcher returns to its corner.
  await expect.poll(async () => (await launcher(page).boundingBox())!.y).toBe(resting.y);
});

test('Ctrl+I does nothing while the site shows a modal dialog, and works again after it closes', async ({
  page,
}) => {
  await page.goto(PAGE);
  await launcher(page).waitFor();
  // Starlight's search is a native modal <dialog>; VitePress' local search an overlay box.
  await page.evaluate(() => {
    const search = document.createElement('dialog');
    search.innerHTML = '<input aria-label="Search docs">';
    document.body.append(search);
    search.showModal();
  });
  await expect(page.getByRole('textbox', { name: 'Search docs' })).toBeFocused();
  await page.keyboard.press('Control+i');
  await page.waitForTimeout(500);
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Search docs' })).toBeFocused();
  await page.keyboard.press('Escape');
  await page.evaluate(() => {
    const box = document.createElement('div');
    box.className = 'VPLocalSearchBox';
    box.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.4)';
    document.body.append(box);
  });
  await page.keyboard.press('Control+i');
  await page.waitForTimeout(500);
  await expect(dialog(page)).toBeHidden();
  await page.evaluate(() => document.querySelector('.VPLocalSearchBox')!.remove());
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeVisible();
  await expect(input(page)).toBeFocused();
  // Once the chat is loaded the widget's own listener applies the same rule.
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeHidden();
  await page.evaluate(() => document.querySelector('dialog')!.showModal());
  await page.keyboard.press('Control+i');
  await page.waitForTimeout(500);
  await expect(dialog(page)).toBeHidden();
});

test("keys typed in the assistant never reach the site's shortcuts; the shortcut still closes it", async ({
  page,
}) => {
  await page.goto(PAGE);
  await page.evaluate(() => {
    const w = window as unknown as { __keys: string[] };
    w.__keys = [];
    // A site search on Ctrl+K / "/", as VitePress, Docusaurus and Starlight have.
    addEventListener(
      'keydown',
      (e) => (e.key === '/' || (e.ctrlKey && e.key === 'k')) && w.__keys.push(e.key),
    );
  });
  const siteKeys = () => page.evaluate(() => (window as unknown as { __keys: string[] }).__keys);
  await page.keyboard.press('Control+i');
  await expect(input(page)).toBeFocused();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('a/b');
  expect(await siteKeys()).toEqual([]);
  await expect(input(page)).toHaveValue('a/b');
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeHidden();
  await page.keyboard.press('Control+k');
  expect(await siteKeys()).toEqual(['k']);
});

test('context stays with its page: client-side navigation clears it, and currentPath follows the URL', async ({
  page,
}) => {
  const asks = recordAsks(page);
  await page.goto(PAGE);
  await page.locator('main pre').first().hover();
  await page.getByRole('button', { name: 'Ask AI: code block' }).click();
  const chips = page.getByRole('list', { name: 'Attached context' }).locator('li');
  await expect(chips).toHaveCount(1);
  // What a docs router does on a link click: pushState, no page load.
  await page.evaluate(() => history.pushState({}, '', '/docs/guides/react'));
  await expect(chips).toHaveCount(0);
  await askQuestion(page, 'How do I use it in React?');
  expect(asks[0]!.body.currentPath).toBe('/docs/guides/react');
  expect(asks[0]!.body.context).toBeUndefined();
  // Back to the first page: an item attached there goes with a question asked there.
  await page.goBack();
  await expect.poll(() => page.evaluate(() => location.pathname)).toBe(PAGE);
  await page.locator('main pre').first().hover();
  await page.getByRole('button', { name: 'Ask AI: code block' }).click();
  await askQuestion(page, 'And this?', 2);
  expect(asks[1]!.body).toMatchObject({
    currentPath: PAGE,
    context: [expect.objectContaining({ type: 'code', path: PAGE })],
  });
});
