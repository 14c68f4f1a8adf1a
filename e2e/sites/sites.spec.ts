import { test as base, expect, type Browser, type Page, type Request } from '@playwright/test';
import type {} from '../../src/embed/loader.js';
import { answers, askQuestion, dialog, input, launcher } from '../helpers.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDocsSite } from '../../src/server/site/docs.js';
import { createPageUrls, parsePageUrlRule } from '../../src/server/site/page-urls.js';
import { TRAFFIC_CODE, type Site, type SiteOptions } from './sites.js';

// The same checks on every real framework build; `site` comes from the project (playwright.config.ts).
const test = base.extend<SiteOptions>({ site: [undefined as unknown as Site, { option: true }] });

type Ask = {
  currentPath?: string;
  context?: { type: string; value: string; path: string; elementId?: string }[];
};

function recordAsks(page: Page, site: Site) {
  const asks: { body: Ask; request: Request }[] = [];
  page.on('request', (request) => {
    if (
      request.method() === 'POST' &&
      request.url() === `http://docs-assistant.test/discovery/v1/assistant/${site.name}/message`
    )
      asks.push({ body: request.postDataJSON(), request });
  });
  return asks;
}

const codeButton = (page: Page) => page.getByRole('button', { name: 'Ask AI: code block' });
const selectionButton = (page: Page) => page.getByRole('button', { name: 'Ask AI: selected text' });
const codeBlock = (page: Page, text: string) =>
  page.locator('pre').filter({ hasText: text }).first();

/** Loads a page and waits until its framework has hydrated and gone quiet. */
async function load(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect(launcher(page)).toBeVisible();
}

/** Selects a paragraph of the page with the mouse (three clicks), as a reader does. */
async function selectParagraph(page: Page, text: string) {
  await page.getByText(text).first().click({ clickCount: 3 });
}

/** Puts the real mouse over the middle of an element. */
async function pointAt(page: Page, target: ReturnType<Page['locator']>) {
  // Docusaurus re-renders code blocks right after hydration: measure the block that stays.
  let box = { x: 0, y: 0, width: 0, height: 0 };
  await expect(async () => {
    await target.scrollIntoViewIfNeeded({ timeout: 2000 });
    box = (await target.boundingBox({ timeout: 2000 }))!;
  }).toPass();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  return box;
}

const inside = (
  inner: { x: number; y: number; width: number; height: number },
  outer: { x: number; y: number; width: number; height: number },
) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

/** The element a real click at the middle of `box` lands on (a shadow host counts as itself). */
const elementAt = (page: Page, box: { x: number; y: number; width: number; height: number }) =>
  page.evaluate(
    ([x, y]) => {
      const el = document.elementFromPoint(x!, y!);
      return el
        ? `${el.localName}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''}`
        : 'nothing';
    },
    [box.x + box.width / 2, box.y + box.height / 2],
  );

test('shows the launcher, and the shortcut opens the assistant with its input focused', async ({
  page,
  site,
}) => {
  await load(page, site.pages.setup);
  await page.keyboard.press('Control+i');
  await expect(dialog(page)).toBeVisible();
  await expect(input(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
});

test('answers with citations that open pages of the built site', async ({ page, site }) => {
  const asks = recordAsks(page, site);
  await load(page, site.pages.start);
  await launcher(page).click();
  await askQuestion(page, 'What is the refresh interval?');
  expect(asks[0]!.body.currentPath).toBe(site.pages.start);
  const hrefs = await answers(page)
    .first()
    .locator('div.da-sources a')
    .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  expect(hrefs.length).toBeGreaterThan(0);
  expect(hrefs.map((href) => new URL(href).pathname)).toContain(site.pages.setup);
  for (const href of hrefs) {
    expect(new URL(href).origin, href).toBe(site.origin);
    const response = await page.goto(href);
    expect(response?.status(), href).toBe(200);
  }
});

test('every page of the docs folder is cited at a URL that the built site serves', async ({
  page,
  site,
}) => {
  // The reference server's own configuration for this fixture (e2e/sites/server.json).
  const config = JSON.parse(readFileSync(join(import.meta.dirname, 'server.json'), 'utf8')) as {
    sites: {
      domain: string;
      docs: string;
      urlStyle?: string;
      pageUrl?: string;
      publicUrl: string;
    }[];
  };
  const entry = config.sites.find((s) => s.domain === site.name)!;
  const docs = await loadDocsSite(join(import.meta.dirname, entry.docs));
  const rule = parsePageUrlRule({ style: entry.urlStyle, template: entry.pageUrl });
  if (!rule.ok) throw new Error(rule.error);
  const urls = createPageUrls(docs.pages, rule.rule);
  expect(docs.pages.length).toBeGreaterThanOrEqual(2);
  for (const doc of docs.pages) {
    const url = entry.publicUrl.replace(/\/+$/, '') + urls.urlOf(doc.path);
    expect(new URL(url).origin).toBe(site.origin);
    const response = await page.goto(new URL(url).pathname);
    expect(response?.status(), `${doc.file} → ${url}`).toBe(200);
    await expect(page.locator('h1').first(), `${doc.file} → ${url}`).toContainText(doc.title);
  }
});

test('a text selection becomes a context item of the question', async ({ page, site }) => {
  const asks = recordAsks(page, site);
  await load(page, site.pages.start);
  await selectParagraph(page, 'Install the package with npm');
  await selectionButton(page).click();
  await expect(dialog(page)).toBeVisible();
  await askQuestion(page, 'Which command installs it?');
  expect(asks[0]!.body.context).toEqual([
    {
      type: 'textSelection',
      value: expect.stringContaining('Install the package with npm'),
      path: site.pages.start,
    },
  ]);
});

test('the code-block button is under the pointer, on top, clickable with a real mouse, and sends the exact code', async ({
  page,
  site,
}) => {
  const asks = recordAsks(page, site);
  await load(page, site.pages.setup);
  const blockBox = await pointAt(page, codeBlock(page, 'refreshSeconds'));
  await expect(codeButton(page)).toBeVisible();
  const buttonBox = (await codeButton(page).boundingBox())!;
  expect(inside(buttonBox, blockBox), 'button inside the block it belongs to').toBe(true);
  // Hovering shows the framework's own copy button too: ours must not be under it.
  expect(await elementAt(page, buttonBox)).toBe('docs-assistant-action');
  await page.mouse.move(buttonBox.x + buttonBox.width / 2, buttonBox.y + buttonBox.height / 2);
  await page.mouse.down();
  await page.mouse.up();
  await expect(dialog(page)).toBeVisible();
  await askQuestion(page, 'What does this render?');
  expect(asks[0]!.body.context).toEqual([
    { type: 'code', value: TRAFFIC_CODE, path: site.pages.setup, elementId: expect.any(String) },
  ]);
});

test('the code-block button stays put while the code scrolls sideways', async ({ page, site }) => {
  await load(page, site.pages.setup);
  const block = codeBlock(page, 'createDashboard');
  const blockBox = await pointAt(page, block);
  await expect(codeButton(page)).toBeVisible();
  const before = (await codeButton(page).boundingBox())!;
  await page.mouse.wheel(400, 0);
  const scrolled = () =>
    block.evaluate((el) =>
      Math.max(el.scrollLeft, ...[...el.querySelectorAll('*')].map((child) => child.scrollLeft)),
    );
  await expect.poll(scrolled, 'the long line scrolled').toBeGreaterThan(0);
  await expect(codeButton(page)).toBeVisible();
  await expect.poll(async () => (await codeButton(page).boundingBox())!).toEqual(before);
  expect(inside(before, blockBox)).toBe(true);
  expect(await elementAt(page, before)).toBe('docs-assistant-action');
});

test("client-side navigation clears the old page's context and currentPath follows the URL", async ({
  page,
  site,
}) => {
  const asks = recordAsks(page, site);
  await load(page, site.pages.start);
  await page.evaluate(
    () => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true),
  );
  await selectParagraph(page, 'Install the package with npm');
  await selectionButton(page).click();
  await expect(dialog(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await site.linkToSetup(page).click();
  await expect(page).toHaveURL(site.origin + site.pages.setup);
  await page.waitForLoadState('networkidle');
  const sameDocument = await page.evaluate(
    () => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true,
  );
  expect(sameDocument, 'navigated inside the document').toBe(site.clientSideNavigation);
  await launcher(page).click();
  await askQuestion(page, 'What is the refresh interval?');
  expect(asks[0]!.body.currentPath).toBe(site.pages.setup);
  expect(asks[0]!.body.context ?? []).toEqual([]);
});

/** What the reader sees: each widget root's background colour, light or dark. */
const shownThemes = (page: Page) =>
  page.locator('.da-root').evaluateAll((roots) => [
    ...new Set(
      roots.map((root) => {
        const probe = document.createElement('div');
        probe.style.background = 'var(--da-bg)';
        root.append(probe);
        const [r = 0, g = 0, b = 0] = (
          getComputedStyle(probe).backgroundColor.match(/\d+(\.\d+)?/g) ?? []
        ).map(Number);
        probe.remove();
        return 0.299 * r + 0.587 * g + 0.114 * b < 128 ? 'dark' : 'light';
      }),
    ),
  ]);

test("the assistant follows the site's own theme switch, both ways", async ({ page, site }) => {
  await load(page, site.pages.setup);
  const shown = () => shownThemes(page);
  expect(await site.siteTheme(page)).toBe('light');
  await launcher(page).click();
  await expect(dialog(page)).toBeVisible();
  await expect.poll(shown).toEqual(['light']);
  await page.keyboard.press('Escape');
  await site.setTheme(page, 'dark');
  expect(await site.siteTheme(page)).toBe('dark');
  await expect.poll(shown).toEqual(['dark']);
  await site.setTheme(page, 'light');
  expect(await site.siteTheme(page)).toBe('light');
  await expect.poll(shown).toEqual(['light']);
});

test("the assistant opens light on a site switched to light while the reader's OS is dark", async ({
  page,
  site,
}) => {
  test.skip(
    site.name === 'nextjs',
    'the Next.js fixture has no theme of its own: it follows the OS',
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await load(page, site.pages.setup);
  await site.setTheme(page, 'light');
  expect(await site.siteTheme(page)).toBe('light');
  await launcher(page).click();
  await expect(dialog(page)).toBeVisible();
  await expect.poll(() => shownThemes(page)).toEqual(['light']);
  await page.screenshot({ path: `e2e/screenshots/sites/${site.name}-light-on-dark-os.png` });
});

/** One visit as a reader makes it (ask, point at code, navigate); what the browser reported as wrong. */
async function visit(browser: Browser, site: Site, withWidget: boolean) {
  // A fresh browser context, so visits with and without the widget start with the same empty cache.
  const context = await browser.newContext();
  const target = await context.newPage();
  const errors: string[] = [];
  // A failed resource is logged without its URL; the response says which one it was.
  target.on(
    'console',
    (message) =>
      message.type() === 'error' &&
      !message.text().startsWith('Failed to load resource') &&
      errors.push(message.text()),
  );
  // The browser's own favicon fetch comes or not depending on timing; it is not the page's doing.
  target.on(
    'response',
    (response) =>
      response.status() >= 400 &&
      !/\/favicon\.\w+$/.test(response.url()) &&
      errors.push(`HTTP ${response.status()} ${response.url()}`),
  );
  const failed: string[] = [];
  target.on('requestfailed', (request) =>
    failed.push(`${request.failure()?.errorText} ${request.url()}`),
  );
  target.on('pageerror', (error) => errors.push(String(error)));
  // Without the widget: the same build with an empty script where ours was.
  if (!withWidget)
    await target.route('http://docs-assistant.test/embed/docs-assistant.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );
  await target.goto(site.origin + site.pages.start);
  await target.waitForLoadState('networkidle');
  if (withWidget) {
    await launcher(target).click();
    await askQuestion(target, 'How do I install it?');
    await pointAt(target, target.locator('pre').first());
    await target.keyboard.press('Escape');
  }
  await site.linkToSetup(target).click();
  await expect(target).toHaveURL(site.origin + site.pages.setup);
  await target.waitForLoadState('networkidle');
  await context.close();
  return { errors, failed };
}

test('logs no console error that the site does not log without the widget', async ({
  browser,
  site,
}) => {
  const withWidget = await visit(browser, site, true);
  // The React import is part of the app: there is no build without it, so nothing may be logged.
  const baseline = site.scriptTag ? (await visit(browser, site, false)).errors : [];
  expect(withWidget.errors.filter((error) => !baseline.includes(error))).toEqual([]);
});

test('no request of the widget shows as failed or cancelled in the network log', async ({
  browser,
  site,
}) => {
  // Issue #9 item 10: Chromium showed streamed answers sent with Cache-Control: no-store as
  // net::ERR_ABORTED once read to the end; the server now says no-cache (README "Network log").
  expect((await visit(browser, site, true)).failed).toEqual([]);
});

test("the launcher covers none of the site's fixed controls, wherever the page is scrolled", async ({
  page,
  site,
}) => {
  await load(page, site.pages.setup);
  const covered = async () => {
    const box = (await launcher(page).boundingBox())!;
    return page.evaluate((l) => {
      const fixed = (el: Element | null): boolean =>
        !!el &&
        (['fixed', 'sticky'].includes(getComputedStyle(el).position) || fixed(el.parentElement));
      return [
        ...document.querySelectorAll('a[href], button, input, select, textarea, [role=button]'),
      ]
        .filter(
          (el) =>
            !el.closest('.da-root') &&
            el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
            fixed(el),
        )
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return (
            r.width > 0 &&
            r.height > 0 &&
            r.left < l.x + l.width &&
            r.right > l.x &&
            r.top < l.y + l.height &&
            r.bottom > l.y
          );
        })
        .map((el) => el.outerHTML.slice(0, 120));
    }, box);
  };
  expect(await covered(), 'at the top').toEqual([]);
  await page.mouse.move(640, 400);
  await page.mouse.wheel(0, 20_000);
  await page.waitForTimeout(400);
  expect(await covered(), 'at the bottom').toEqual([]);
  // Docusaurus shows its back-to-top button (bottom right) while the reader scrolls up.
  await page.mouse.wheel(0, -300);
  await page.waitForTimeout(600);
  expect(await covered(), 'scrolling up').toEqual([]);
});

test('the site search and the assistant are never open on top of each other', async ({
  page,
  site,
}) => {
  test.skip(
    !site.search,
    `the ${site.name} fixture has no site search (Docusaurus' classic preset ships none; create-next-app neither)`,
  );
  const search = site.search!;
  await load(page, site.pages.setup);
  // The assistant's shortcut while the site's search is open: one of the two, usable.
  await search.open(page);
  await expect(search.dialog(page)).toBeVisible();
  await page.keyboard.press('Control+i');
  await page.waitForTimeout(400);
  const chatOpen = await dialog(page).isVisible();
  const searchOpen = await search.dialog(page).isVisible();
  expect(chatOpen && searchOpen, 'both open').toBe(false);
  if (chatOpen) {
    await expect(input(page)).toBeFocused();
    await page.keyboard.press('Escape');
  } else {
    expect(searchOpen).toBe(true);
    await page.keyboard.press('Escape');
  }
  await expect(search.dialog(page)).toBeHidden();
  await expect(dialog(page)).toBeHidden();
  // The site's search shortcut typed inside the assistant stays in the assistant.
  await launcher(page).click();
  await input(page).click();
  await page.keyboard.press('Control+k');
  await page.waitForTimeout(400);
  await expect(search.dialog(page)).toBeHidden();
  await expect(input(page)).toBeFocused();
});

/**
 * Whether each framework's layout can make room beside a 460 px panel in a 1280 px window. Its
 * media queries still see 1280 px: VitePress centres its content between fixed sidebars and would
 * spill under the left one; Starlight keeps three columns and would squeeze the text to 172 px.
 * There the panel covers the page, as without push.
 */
const PUSHES: Record<Site['name'], boolean> = {
  docusaurus: true,
  vitepress: false,
  starlight: false,
  nextjs: false,
};

test('a push panel makes room where the site’s layout can, covers it where it cannot, and closing gives the page back', async ({
  page,
  site,
}) => {
  test.skip(!site.scriptTag, 'checked through the script tag’s data-push / init option');
  await load(page, site.pages.setup);
  await page.evaluate(
    (domain) =>
      window.DocsAssistant.init({
        domain,
        baseUrl: 'http://docs-assistant.test',
        apiKey: 'svc_dsc_sites',
        mode: 'panel',
        push: true,
      }),
    site.name,
  );
  const content = page.locator('main').first();
  const header = page.locator('header, nav.navbar').first();
  const htmlStyle = () => page.evaluate(() => document.documentElement.getAttribute('style'));
  const before = {
    content: await content.boundingBox(),
    header: await header.boundingBox(),
    style: await htmlStyle(),
  };
  await launcher(page).click();
  const panel = page.locator('.da-dialog');
  await expect(panel).toBeVisible();
  if (PUSHES[site.name]) {
    // The article reflows to the left of the panel instead of running under it.
    await expect
      .poll(async () => {
        const [box, side] = [await content.boundingBox(), await panel.boundingBox()];
        return box!.x + box!.width <= side!.x + 0.5;
      })
      .toBe(true);
    expect((await content.boundingBox())!.width).toBeGreaterThanOrEqual(360);
  } else {
    await page.waitForTimeout(400);
    expect(await htmlStyle()).toBe(before.style);
    expect(await content.boundingBox()).toEqual(before.content);
  }
  // Nothing spills sideways, and the site's header keeps its place, also once the reader scrolls.
  expect(await page.evaluate(() => document.body.scrollWidth <= document.body.clientWidth)).toBe(
    true,
  );
  expect((await header.boundingBox())!.y).toBe(before.header!.y);
  await page.mouse.move(300, 500);
  await page.mouse.wheel(0, 1200);
  await page.waitForTimeout(400);
  const scrolled = (await header.boundingBox())!;
  expect([scrolled.x, scrolled.y]).toEqual([before.header!.x, before.header!.y]);
  await page.screenshot({ path: `e2e/screenshots/sites/${site.name}-push.png` });
  await page.mouse.wheel(0, -1200);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect.poll(htmlStyle).toBe(before.style);
  await expect.poll(() => content.boundingBox()).toEqual(before.content);
});

test('the React import draws its launcher in the server HTML', async ({ browser, site }) => {
  test.skip(site.scriptTag, 'the script tag draws its launcher in the browser');
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const page = await noScript.newPage();
  await page.goto(`${site.origin}${site.pages.start}`);
  await expect(launcher(page)).toBeVisible();
  await noScript.close();
});

test('screenshots with the assistant open, light and dark', async ({ page, site }) => {
  await load(page, site.pages.setup);
  await launcher(page).click();
  await askQuestion(page, 'What is the refresh interval?');
  await page.screenshot({ path: `e2e/screenshots/sites/${site.name}-light.png` });
  await page.keyboard.press('Escape');
  await site.setTheme(page, 'dark');
  await launcher(page).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/screenshots/sites/${site.name}-dark.png` });
});
