import type { Locator, Page } from '@playwright/test';

export type Theme = 'light' | 'dark';

/** What the cross-fixture suite needs to know about one real framework build. */
export interface Site {
  name: 'vitepress' | 'docusaurus' | 'starlight' | 'nextjs';
  origin: string;
  /** The "Getting started" and "Widget setup" pages, as the framework routes them. */
  pages: { start: string; setup: string };
  /** Moving between the two pages keeps the document (the framework's own router). */
  clientSideNavigation: boolean;
  /** The script tag (false: the React import, built into the app). */
  scriptTag: boolean;
  /** Turns the site dark or light with its own control, and reads the site's theme marker. */
  setTheme(page: Page, theme: Theme): Promise<void>;
  siteTheme(page: Page): Promise<Theme>;
  /** The link from "Getting started" to "Widget setup" a reader would click. */
  linkToSetup(page: Page): Locator;
  /** The site's own search: how to open it and what shows when it is open. */
  search?: { open(page: Page): Promise<void>; dialog(page: Page): Locator };
}

export interface SiteOptions {
  site: Site;
}

// Far from the other E2E_PORTs in use on a shared machine (they are base ports a few apart).
export const portsFor = (base: number) => ({
  api: base,
  static: base + 100,
  next: base + 200,
  nextDev: base + 300,
});

/** Chromium resolves the fixtures' host names to local ports; the first matching rule wins. */
export const hostRules = (ports: ReturnType<typeof portsFor>) =>
  [
    `MAP docs-assistant.test 127.0.0.1:${ports.api}`,
    `MAP nextjs.test 127.0.0.1:${ports.next}`,
    `MAP *.test 127.0.0.1:${ports.static}`,
  ].join(', ');

const htmlMarker = (page: Page, isDark: () => boolean): Promise<Theme> =>
  page.evaluate(isDark).then((dark) => (dark ? 'dark' : 'light'));

/** Clicks a toggle until the site shows `theme` (some toggles cycle through "system" too). */
async function clickUntil(page: Page, toggle: Locator, site: Site, theme: Theme) {
  for (let i = 0; i < 3 && (await site.siteTheme(page)) !== theme; i++) {
    await toggle.click();
    await page.waitForTimeout(100);
  }
}

const vitepress: Site = {
  name: 'vitepress',
  origin: 'http://vitepress.test',
  pages: { start: '/getting-started.html', setup: '/guides/widget-setup.html' },
  clientSideNavigation: true,
  scriptTag: true,
  linkToSetup: (page) =>
    page.locator('.VPSidebar').getByRole('link', { name: 'Widget setup', exact: true }),
  siteTheme: (page) => htmlMarker(page, () => document.documentElement.classList.contains('dark')),
  setTheme: (page, theme) =>
    clickUntil(page, page.locator('.VPNavBar button.VPSwitchAppearance:visible'), vitepress, theme),
  search: {
    open: (page) => page.locator('.VPNavBarSearch button').click(),
    dialog: (page) => page.locator('.VPLocalSearchBox'),
  },
};

const docusaurus: Site = {
  name: 'docusaurus',
  origin: 'http://docusaurus.test',
  pages: { start: '/docs/start', setup: '/docs/guides/setup' },
  clientSideNavigation: true,
  scriptTag: true,
  // The sidebar's "guides" category is collapsed on other pages; the pager links to the next doc.
  linkToSetup: (page) => page.locator('a.pagination-nav__link--next'),
  siteTheme: (page) => htmlMarker(page, () => document.documentElement.dataset.theme === 'dark'),
  setTheme: (page, theme) =>
    clickUntil(
      page,
      page.getByRole('button', { name: /Switch between dark and light mode/ }),
      docusaurus,
      theme,
    ),
};

const starlight: Site = {
  name: 'starlight',
  origin: 'http://starlight.test',
  pages: { start: '/getting-started/', setup: '/guides/widget-setup/' },
  clientSideNavigation: false,
  scriptTag: true,
  linkToSetup: (page) =>
    page.getByLabel('Main').getByRole('link', { name: 'Widget setup', exact: true }),
  siteTheme: (page) => htmlMarker(page, () => document.documentElement.dataset.theme === 'dark'),
  setTheme: async (page, theme) => {
    await page.locator('starlight-theme-select select').first().selectOption(theme);
  },
  search: {
    open: (page) => page.locator('site-search button[data-open-modal]').click(),
    dialog: (page) => page.locator('site-search dialog[open]'),
  },
};

const nextjs: Site = {
  name: 'nextjs',
  origin: 'http://nextjs.test',
  pages: { start: '/', setup: '/guides/widget-setup' },
  clientSideNavigation: true,
  scriptTag: false,
  linkToSetup: (page) => page.getByRole('link', { name: 'Widget setup', exact: true }),
  // create-next-app's page follows the OS setting (prefers-color-scheme); that is its toggle.
  siteTheme: (page) => htmlMarker(page, () => matchMedia('(prefers-color-scheme: dark)').matches),
  setTheme: (page, theme) => page.emulateMedia({ colorScheme: theme }),
};

export const SITES: Site[] = [vitepress, docusaurus, starlight, nextjs];

/** The tsx block of the "Widget setup" page, exactly as a reader sees it. */
export const TRAFFIC_CODE = `import { Dashboard, LineChart } from 'acme-widgets';

export function Traffic() {
  return (
    <Dashboard refreshSeconds={15}>
      <LineChart source="/api/traffic" />
    </Dashboard>
  );
}`;
