// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

export default defineConfig({
  site: 'http://starlight.test',
  integrations: [
    starlight({
      title: 'Acme Widgets',
      // The script tag exactly as a site owner adds it (docs-assistant.test is mapped to the
      // reference server by the test browser, so this build works on any port).
      head: [
        { tag: 'script', attrs: { src: 'http://docs-assistant.test/embed/docs-assistant.js', defer: true, 'data-domain': 'starlight', 'data-base-url': 'http://docs-assistant.test', 'data-api-key': 'svc_dsc_sites' } },
      ],
      sidebar: [
        { label: 'Guide', items: [{ label: 'Getting started', slug: 'getting-started' }, { label: 'Widget setup', slug: 'guides/widget-setup' }] },
      ],
    }),
  ],
});
