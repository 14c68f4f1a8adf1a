import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from 'tar';
import { createStaticExportClient } from '../src/client/static-export.js';

/** The docs pages below 720 px: the sidebar hides, and a menu button opens it. */

test.use({ viewport: { width: 390, height: 844 } });

const menu = (page: Page) => page.getByRole('button', { name: 'Menu' });
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Docs' });

/** Opens the menu with the keyboard, follows a link in it, and checks what a reader would notice. */
async function checkMenu(page: Page, linkName: string, lands: RegExp, shot: string) {
  await expect(sidebar(page)).toBeHidden();
  await expect(menu(page)).toHaveAttribute('aria-expanded', 'false');
  await page.screenshot({ path: `e2e/screenshots/${shot}-closed.png` });

  // Keyboard: Tab to the button, Enter opens, focus moves into the list, Escape closes.
  await menu(page).focus();
  await page.keyboard.press('Enter');
  await expect(menu(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(sidebar(page)).toBeVisible();
  await expect(sidebar(page).locator('a:focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(sidebar(page)).toBeHidden();
  await expect(menu(page)).toHaveAttribute('aria-expanded', 'false');
  await expect(menu(page)).toBeFocused();

  // Pointer: a tap opens it over the page, the whole list scrolls, a link navigates and it is shut.
  await menu(page).click();
  await expect(sidebar(page)).toBeVisible();
  const box = (await sidebar(page).boundingBox())!;
  expect(box.x).toBe(0);
  expect(box.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `e2e/screenshots/${shot}.png` });
  await sidebar(page).getByRole('link', { name: linkName }).click();
  await expect(page).toHaveURL(lands);
  await expect(sidebar(page)).toBeHidden();
  await expect(menu(page)).toHaveAttribute('aria-expanded', 'false');

  // A tap outside the open list closes it too.
  await menu(page).click();
  await expect(sidebar(page)).toBeVisible();
  await page.mouse.click(380, 600);
  await expect(sidebar(page)).toBeHidden();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`a served docs page at 390 px opens its navigation from the menu button (OS ${scheme})`, async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/docs/guides/react');
    await checkMenu(page, 'Quickstart', /\/docs\/quickstart$/, `docs-menu-served-${scheme}`);
    // The assistant's launcher floats over the page, but the open list is above it: the list's
    // link under the launcher is the one a tap there reaches.
    const launcher = page.getByRole('button', { name: 'Ask AI', exact: true });
    await menu(page).click();
    await expect(sidebar(page)).toBeVisible();
    const box = (await launcher.boundingBox())!;
    const under = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('nav')?.getAttribute('aria-label'),
      [box.x + 10, box.y + box.height / 2],
    );
    expect(under).toBe('Docs');
    // The assistant's shortcut opens its dialog over the page and shuts the list.
    await page.keyboard.press('Control+i');
    await expect(page.getByRole('dialog', { name: 'Ask the docs' })).toBeVisible();
    await expect(sidebar(page)).toBeHidden();
    expect(errors).toEqual([]);
  });
}

test('at 1024 px the sidebar shows and the menu button does not', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/docs/guides/react');
  await expect(sidebar(page)).toBeVisible();
  await expect(menu(page)).toBeHidden();
});

test('at 1024 px the sidebar stays in view while the page scrolls, and scrolls on its own', async ({
  page,
}) => {
  // A window shorter than the page and than the list: a reader deep in a long page.
  await page.setViewportSize({ width: 1024, height: 360 });
  await page.goto('/docs/guides/react');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  const box = (await sidebar(page).boundingBox())!;
  expect(Math.abs(box.y)).toBeLessThanOrEqual(1);
  expect(box.height).toBeLessThanOrEqual(360);
  await expect(sidebar(page).locator('a[aria-current="page"]')).toBeInViewport();
  const list = await sidebar(page).evaluate((nav) => [nav.scrollHeight, nav.clientHeight]);
  expect(list[0]).toBeGreaterThan(list[1]!);
  await page.screenshot({ path: 'e2e/screenshots/docs-sidebar-sticky.png' });
});

test('an exported bundle opened from file:// at 390 px opens its navigation from the menu button', async ({
  page,
  baseURL,
}) => {
  const client = createStaticExportClient({ baseUrl: baseURL!, adminKey: 'svc_demo_admin' });
  const job = await client.startJob({ domain: 'demo' });
  await client.waitForJob(job.jobId, { intervalMs: 100 });
  const bundle = await client.generateBundle(job.jobId);
  const dir = mkdtempSync(join(tmpdir(), 'da-export-menu-'));
  await client.downloadBundle(bundle.bundleUrl, join(dir, 'bundle.tar.gz'), {
    expectedSize: bundle.sizeBytes,
  });
  const site = join(dir, 'site');
  mkdirSync(site);
  await extract({ file: join(dir, 'bundle.tar.gz'), cwd: site });

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`file://${site}/guides/react.html`);
  await checkMenu(page, 'Quickstart', /\/quickstart\.html$/, 'docs-menu-export');
  expect(errors).toEqual([]);
});

test('the sidebar opens on the current page: its link in view, the page not scrolled', async ({
  page,
}) => {
  const current = sidebar(page).locator('a[aria-current="page"]');
  // A window shorter than the list, on the list's last page.
  await page.setViewportSize({ width: 1024, height: 360 });
  await page.goto('/docs/guides/react');
  const last = (await sidebar(page).locator('a').last().getAttribute('href'))!;
  await page.goto(last);
  await expect(current).toHaveAttribute('href', last);
  await expect(current).toBeInViewport({ ratio: 1 });
  expect(await sidebar(page).evaluate((nav) => nav.scrollTop)).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.screenshot({ path: 'e2e/screenshots/docs-sidebar-current.png' });

  // Below 720 px the menu opens on it too.
  await page.setViewportSize({ width: 390, height: 360 });
  await page.reload();
  await menu(page).click();
  await expect(current).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('a link to a heading shows it below the sticky header, with room above it', async ({
  page,
}) => {
  // As an answer's citation opens a section: its #anchor, on a phone and on a desktop.
  for (const width of [390, 1024]) {
    await page.setViewportSize({ width, height: 600 });
    await page.goto('/docs/guides/theming#colours');
    const heading = page.locator('h2#colours');
    await expect(heading).toBeInViewport({ ratio: 1 });
    const top = await heading.evaluate((el) => el.getBoundingClientRect().top);
    const headerBottom = await page
      .locator('header.site')
      .evaluate((el) =>
        getComputedStyle(el).position === 'sticky' ? el.getBoundingClientRect().bottom : 0,
      );
    expect(top).toBeGreaterThan(headerBottom + 4);
    await page.screenshot({ path: `e2e/screenshots/docs-anchor-${width}.png` });
  }
});

test('a deep heading (an API reference’s member) is drawn no smaller than the text under it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await page.goto('/docs/guides/theming');
  // pytest's reference, as Debian builds it, puts each member under an h5 (`pytest.MonkeyPatch.setenv`).
  const sizes = await page.locator('main').evaluate((main) => {
    const size = (tag: string) => {
      const element = main.appendChild(document.createElement(tag));
      element.textContent = 'pytest.MonkeyPatch.setenv';
      return parseFloat(getComputedStyle(element).fontSize);
    };
    return { text: size('p'), h4: size('h4'), h5: size('h5'), h6: size('h6') };
  });
  expect(sizes.h4).toBeGreaterThan(sizes.text);
  expect(sizes.h5).toBeGreaterThanOrEqual(sizes.text);
  expect(sizes.h6).toBeGreaterThanOrEqual(sizes.text);
});
