// @ts-check
// As create-docusaurus's classic template writes it, trimmed to what the fixture needs.
import { themes as prismThemes } from 'prism-react-renderer';

/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'Acme Widgets',
  tagline: 'Docusaurus fixture for docs-assistant',
  url: 'http://docusaurus.test',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  i18n: { defaultLocale: 'en', locales: ['en'] },
  // The script tag exactly as a site owner adds it (docs-assistant.test is mapped to the reference
  // server by the test browser, so this build works on any port).
  scripts: [
    { src: 'http://docs-assistant.test/embed/docs-assistant.js', defer: true, 'data-domain': 'docusaurus', 'data-base-url': 'http://docs-assistant.test', 'data-api-key': 'svc_dsc_sites' },
  ],
  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: { sidebarPath: undefined },
        blog: false,
        theme: {},
      }),
    ],
  ],
  themeConfig:
    /** @type {import('@docusaurus/preset-classic').ThemeConfig} */
    ({
      navbar: {
        title: 'Acme Widgets',
        items: [{ type: 'docSidebar', sidebarId: 'defaultSidebar', position: 'left', label: 'Docs' }],
      },
      prism: { theme: prismThemes.github, darkTheme: prismThemes.dracula },
    }),
};

export default config;
