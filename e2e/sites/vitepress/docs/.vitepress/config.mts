import { defineConfig } from 'vitepress';

// The script tag exactly as a site owner pastes it. docs-assistant.test is mapped to the reference
// server by the test browser (--host-resolver-rules), so this build works on any port.
export default defineConfig({
  title: 'Acme Widgets',
  description: 'VitePress fixture for docs-assistant',
  head: [
    ['script', { src: 'http://docs-assistant.test/embed/docs-assistant.js', defer: '', 'data-domain': 'vitepress', 'data-base-url': 'http://docs-assistant.test', 'data-api-key': 'svc_dsc_sites' }],
  ],
  themeConfig: {
    search: { provider: 'local' },
    nav: [{ text: 'Guide', link: '/getting-started' }],
    sidebar: [
      { text: 'Guide', items: [{ text: 'Getting started', link: '/getting-started' }, { text: 'Widget setup', link: '/guides/widget-setup' }] },
    ],
  },
});
