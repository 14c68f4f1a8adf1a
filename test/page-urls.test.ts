import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { createApp } from '../src/server/http/app.js';
import { createSite, parsePage } from '../src/server/site/docs.js';
import {
  createPageUrls,
  pageUrlPath,
  parsePageUrlRule,
  type PageUrlRule,
} from '../src/server/site/page-urls.js';
import { captureIo } from './helpers/cli.js';
import { askBody, readStream, searchResultsOf, sourcesOf } from './helpers/server.js';

const page = (file: string, frontmatter = '') =>
  parsePage(
    file,
    `${frontmatter ? `---\n${frontmatter}\n---\n` : ''}# Title\n\nText about refresh intervals.\n`,
  );
const url = (rule: PageUrlRule, file: string, frontmatter = '') =>
  pageUrlPath(page(file, frontmatter), rule);

describe('page URLs the way each docs generator routes them', () => {
  it('VitePress: .html pages, folders for index.md, or clean URLs', () => {
    expect(url({ style: 'vitepress' }, 'guides/widget-setup.md')).toBe('/guides/widget-setup.html');
    expect(url({ style: 'vitepress' }, 'index.md')).toBe('/');
    expect(url({ style: 'vitepress' }, 'guides/index.md')).toBe('/guides/');
    expect(url({ style: 'vitepress-clean' }, 'guides/widget-setup.md')).toBe(
      '/guides/widget-setup',
    );
    expect(url({ style: 'vitepress-clean' }, 'guides/index.md')).toBe('/guides/');
  });

  it('Docusaurus: slug (absolute or relative), id, number prefixes and category index pages', () => {
    expect(url({ style: 'docusaurus' }, 'getting-started.md', 'slug: /start')).toBe('/start');
    expect(url({ style: 'docusaurus' }, 'guides/widget-setup.md', 'slug: setup-guide')).toBe(
      '/guides/setup-guide',
    );
    expect(url({ style: 'docusaurus' }, 'guides/widget-setup.md', 'id: setup')).toBe(
      '/guides/setup',
    );
    expect(url({ style: 'docusaurus' }, '01-guides/02-widget-setup.mdx')).toBe(
      '/guides/widget-setup',
    );
    expect(url({ style: 'docusaurus' }, 'guides/README.md')).toBe('/guides');
    expect(url({ style: 'docusaurus' }, 'guides/guides.md')).toBe('/guides');
    expect(url({ style: 'docusaurus' }, 'intro.md')).toBe('/intro');
  });

  it('Starlight: lower-case slugs with a trailing slash, and slug frontmatter', () => {
    expect(url({ style: 'starlight' }, 'guides/Widget-Setup.md')).toBe('/guides/widget-setup/');
    expect(url({ style: 'starlight' }, 'Guides/Widget Setup.mdx')).toBe('/guides/widget-setup/');
    expect(url({ style: 'starlight' }, 'index.mdx')).toBe('/');
    expect(url({ style: 'starlight' }, 'reference/index.md')).toBe('/reference/');
    expect(url({ style: 'starlight' }, 'guides/a.md', 'slug: how-to/setup')).toBe('/how-to/setup/');
  });

  it('plain paths and templates; a permalink always wins', () => {
    expect(url({ style: 'plain' }, 'guides/widget-setup.md')).toBe('/guides/widget-setup');
    expect(url({ style: 'plain' }, 'index.md')).toBe('/');
    expect(url({ template: '/{path}/' }, 'guides/widget-setup.md')).toBe('/guides/widget-setup/');
    expect(url({ template: '/{path}/' }, 'index.md')).toBe('/');
    expect(url({ template: '/docs/{path}.html' }, 'guides/a.md', 'slug: b')).toBe(
      '/docs/guides/b.html',
    );
    for (const rule of [
      { style: 'vitepress' },
      { style: 'docusaurus' },
      { style: 'starlight' },
      { template: '/{path}/' },
    ] as PageUrlRule[]) {
      expect(url(rule, 'guides/a.md', 'permalink: /elsewhere/a/')).toBe('/elsewhere/a/');
    }
  });

  it('finds the page a reader is on from the URL the browser shows, under the docs base path', () => {
    const pages = [
      page('getting-started.md', 'slug: /start'),
      page('guides/widget-setup.md', 'id: setup'),
    ];
    const urls = createPageUrls(pages, { style: 'docusaurus' }, '/docs');
    expect(urls.urlOf('/guides/widget-setup')).toBe('/guides/setup');
    expect(urls.pageAt('/docs/guides/setup')).toBe('/guides/widget-setup');
    expect(urls.pageAt('/docs/start/?x=1#install')).toBe('/getting-started');
    expect(urls.pageAt('/docs/nowhere')).toBeUndefined();
    expect(urls.pageAt('/%E0%A4%A')).toBeUndefined();
  });

  it('rejects unknown styles and templates without {path} or with an origin', () => {
    expect(parsePageUrlRule({ style: 'hugo' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('vitepress'),
    });
    expect(parsePageUrlRule({ template: '/docs/' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('{path}'),
    });
    expect(parsePageUrlRule({ template: 'https://x.dev/{path}' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('--public-url'),
    });
    expect(parsePageUrlRule({ style: 'starlight', template: '/{path}' })).toMatchObject({
      ok: false,
    });
    expect(parsePageUrlRule({ style: 'starlight' })).toEqual({
      ok: true,
      rule: { style: 'starlight' },
    });
  });
});

describe('citations of a site served with a URL style', () => {
  const docs = createSite([
    // The same sentence on both pages: which one the reader is on decides (currentPath breaks ties).
    parsePage(
      'index.md',
      '---\ntitle: Home\n---\nThe refresh interval is in seconds and defaults to 30.\n',
    ),
    parsePage(
      'guides/Widget-Setup.md',
      '---\ntitle: Widget setup\n---\n## Refresh interval\n\nThe refresh interval is in seconds and defaults to 30.\n',
    ),
  ]);
  const app = createApp({
    orgs: [{ id: 'acme', plan: 'enterprise', keys: ['svc_dsc_acme'] }],
    sites: [
      {
        domain: 'acme',
        org: 'acme',
        docs,
        pageUrls: { style: 'starlight' },
        publicUrl: 'https://docs.acme.dev',
      },
    ],
  });
  const ask = (body: unknown) =>
    app.request('http://test/discovery/v1/assistant/acme/message', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer svc_dsc_acme' },
      body: JSON.stringify(body),
    });

  it('link to the page as the generator publishes it, with the heading anchor', async () => {
    const parts = await readStream(await ask(askBody('What is the refresh interval?')));
    expect(sourcesOf(parts).map((s) => s.url)).toContain(
      'https://docs.acme.dev/guides/widget-setup/',
    );
    expect(searchResultsOf(parts).map((r) => r.url)).toContain(
      'https://docs.acme.dev/guides/widget-setup/#refresh-interval',
    );
  });

  it('favour the page the reader is on, known by its public URL', async () => {
    const top = async (extra: Record<string, unknown>) =>
      searchResultsOf(await readStream(await ask(askBody('seconds', extra))))[0]?.path;
    expect(await top({ currentPath: '/' })).toBe('/');
    expect(await top({ currentPath: '/guides/widget-setup/' })).toBe('/guides/Widget-Setup');
  });
});

describe('serve --url-style / --page-url', () => {
  it('rejects an unknown style, both flags at once, and a template without {path} (exit 2)', async () => {
    for (const args of [
      ['--url-style', 'hugo'],
      ['--url-style', 'starlight', '--page-url', '/{path}/'],
      ['--page-url', '/docs/'],
    ]) {
      const run = captureIo();
      expect(await runCli(['serve', '--port', '0', ...args], run.io), args.join(' ')).toBe(2);
      expect(run.err).toMatch(/--url-style|--page-url/);
    }
  });
});
