import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { fileConfig } from '../src/server/config.js';
import { REFUSAL_SENTENCES } from '../src/server/answering/phrases.js';
import { createSite, parsePage } from '../src/server/site/docs.js';
import { sidebarGroups } from '../src/server/site/render.js';
import { exportSite } from '../src/server/export/site-export.js';
import { captureIo } from './helpers/cli.js';
import { unpack } from './helpers/export.js';
import {
  askBody,
  demoApp,
  FASTIFY_DOCS_DIR,
  fastifyDocs,
  readStream,
  tempDir,
  textOf,
  type TestApp,
} from './helpers/server.js';

const KEYS = ['svc_dsc_fastify', 'svc_fastify_admin'];

/** A server of the Fastify folder as `serve --docs` sets it up, with built assets so pages carry the script tag. */
async function fastifyApp(site: { starters?: string[]; name?: string } = {}) {
  const docs = await fastifyDocs();
  return demoApp({
    assetsDir: await assets(),
    orgs: [{ id: 'fastify', plan: 'enterprise', keys: KEYS }],
    sites: [
      {
        domain: 'fastify',
        org: 'fastify',
        docs: site.name ? { ...docs, name: site.name } : docs,
        ...(site.starters ? { starters: site.starters } : {}),
      },
    ],
  });
}

async function assets() {
  const dist = await tempDir('da-assets-');
  await mkdir(join(dist, 'embed'), { recursive: true });
  await writeFile(join(dist, 'embed', 'docs-assistant.js'), '');
  return dist;
}

async function page(app: TestApp, path: string) {
  const response = await app.request(`http://test${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
// The site's name is the header's link (after the menu button narrow screens show).
const headerOf = (html: string) =>
  /<header class="site">[\s\S]*?<a [^>]*>([^<]*)<\/a>/.exec(html)?.[1];
const firstSidebarItem = (html: string) =>
  /<nav class="sidebar"[\s\S]*?<a [^>]*>([^<]*)<\/a>/.exec(html)?.[1];
const startersOf = (html: string) =>
  /data-starter-questions="([^"]*)"/
    .exec(html)?.[1]
    ?.replace(/&quot;/g, '"')
    .split('|');

describe('a served docs folder is branded as its own site', () => {
  it("takes the Fastify folder's name from its docs, not this project's", async () => {
    const app = await fastifyApp();
    const home = await page(app, '/docs');
    expect(titleOf(home)).toBe('Fastify');
    expect(headerOf(home)).toBe('Fastify');
    expect(firstSidebarItem(home)).toBe('Fastify');
    const server = await page(app, '/docs/Reference/Server');
    expect(titleOf(server)).toBe('Server · Fastify');
    // Nowhere a reader sees (the script tag's file name aside).
    expect(server.replace(/<script[^>]*>/g, '')).not.toMatch(/>[^<]*docs-assistant/);
  });

  it('keeps the sample docs named docs-assistant, and a folder without a name gets its own', async () => {
    const demo = await page(await demoApp({ assetsDir: await assets() }), '/docs/quickstart');
    expect(titleOf(demo)).toBe('Quickstart · docs-assistant');
    expect(headerOf(demo)).toBe('docs-assistant');

    const dir = join(await tempDir(), 'acme-widgets', 'docs');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'index.md'), 'Welcome.\n');
    await writeFile(join(dir, 'setup.md'), '# Setup\n\nRun it.\n');
    const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_acme' });
    const exit = runCli(['serve', '--docs', dir, '--port', '0', '--data', await tempDir()], run.io);
    const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
    const setup = await (await fetch(`${url}/docs/setup`)).text();
    expect(titleOf(setup)).toBe('Setup · acme-widgets');
    expect(firstSidebarItem(setup)).toBe('acme-widgets');
    run.interrupt();
    expect(await exit).toBe(0);
  });

  it('takes --site-name over what the docs say, and refuses it beside --config', async () => {
    const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: KEYS.join(',') });
    const exit = runCli(
      [
        'serve',
        '--docs',
        FASTIFY_DOCS_DIR,
        '--site-name',
        'Fastify v5',
        '--port',
        '0',
        '--data',
        await tempDir(),
      ],
      run.io,
    );
    const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
    const server = await (await fetch(`${url}/docs/Reference/Server`)).text();
    expect(titleOf(server)).toBe('Server · Fastify v5');
    expect(headerOf(server)).toBe('Fastify v5');
    run.interrupt();
    expect(await exit).toBe(0);

    const both = captureIo();
    expect(
      await runCli(
        ['serve', '--config', join(FASTIFY_DOCS_DIR, 'index.md'), '--site-name', 'X'],
        both.io,
      ),
    ).toBe(2);
    expect(both.err).toContain('With --config, give each site its "siteName"');
  });

  it('takes a --config site\'s "siteName" and "starters"', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sites.json');
    await writeFile(
      file,
      JSON.stringify({
        orgs: [{ id: 'f', plan: 'enterprise', keys: ['svc_dsc_f'] }],
        sites: [
          {
            domain: 'f',
            org: 'f',
            docs: FASTIFY_DOCS_DIR,
            siteName: 'Fastify 5',
            starters: ['How do hooks work?'],
          },
        ],
      }),
    );
    const { sites } = await fileConfig(file);
    expect(sites![0]!.starters).toEqual(['How do hooks work?']);
    const app = await demoApp({ assetsDir: await assets(), orgs: [], sites });
    const server = await page(app, '/docs/Reference/Server');
    expect(titleOf(server)).toBe('Server · Fastify 5');
    expect(startersOf(server)).toEqual(['How do hooks work?']);
  });

  it("names the exported bundle's pages after the site, even a partial export without its root page", async () => {
    const app = await fastifyApp();
    const started = await app.request('http://test/v1/static-export/jobs', {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS[1]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'fastify', paths: ['/Reference/Server'] }),
    });
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    await app.exports.idle();
    const bundle = await app.request(`http://test/v1/static-export/jobs/${jobId}/bundle`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS[1]}` },
    });
    const { bundleUrl } = (await bundle.json()) as { bundleUrl: string };
    const file = join(await tempDir(), 'b.tar.gz');
    await writeFile(file, Buffer.from(await (await app.request(bundleUrl)).arrayBuffer()));
    const html = await readFile(join(await unpack(file), 'Reference/Server.html'), 'utf8');
    expect(titleOf(html)).toBe('Server · Fastify');
    expect(headerOf(html)).toBe('Fastify');
  });
});

describe('a docs folder without a root page', () => {
  it('opens its first page at /docs instead of a 404', async () => {
    const docs = createSite([
      parsePage('references/tracing.md', '# Tracing\n\nStart a trace with `trace-start`.\n'),
      parsePage('SKILL.md', '# Browser automation\n\nOpen a browser with `open`.\n'),
    ]);
    const app = await demoApp({
      orgs: [{ id: 'o', plan: 'free', keys: ['svc_dsc_o'] }],
      sites: [{ domain: 'demo', org: 'o', docs }],
    });
    const first = sidebarGroups(docs)[0]![1][0]!.path;
    for (const path of ['/docs', '/docs/', '/react']) {
      const response = await app.request(`http://test${path}`);
      expect(response.status, path).toBe(302);
      const base = path.startsWith('/react') ? '/react' : '/docs';
      expect(response.headers.get('location'), path).toBe(`${base}${first}`);
      expect((await app.request(`http://test${base}${first}`)).status).toBe(200);
    }
    // A page that is not there is still a 404.
    expect((await app.request('http://test/docs/nothing-here')).status).toBe(404);
  });

  it('exports pages kept out of search without them in the bundle’s own search', async () => {
    const docs = createSite([
      parsePage('index.md', '# Home\n\nWidgets draw charts.\n'),
      parsePage(
        'changelog.md',
        '---\nsearch: false\n---\n# Changelog\n\nThe zeppelin chart left.\n',
      ),
    ]);
    const out = await tempDir();
    await exportSite(docs, { outDir: out });
    expect(await readFile(join(out, 'changelog.html'), 'utf8')).toContain('zeppelin');
    const index = await readFile(join(out, 'assets/search-index.js'), 'utf8');
    expect(index).toContain('charts');
    expect(index).not.toContain('zeppelin');
  });

  it('opens its export bundle at the same first page', async () => {
    const docs = createSite([
      parsePage('references/tracing.md', '# Tracing\n\nStart a trace with `trace-start`.\n'),
      parsePage('SKILL.md', '# Browser automation\n\nOpen a browser with `open`.\n'),
    ]);
    const out = await tempDir();
    await exportSite(docs, { outDir: out });
    const first = sidebarGroups(docs)[0]![1][0]!;
    const index = await readFile(join(out, 'index.html'), 'utf8');
    const target = `${first.path.slice(1)}.html`;
    expect(index).toContain(`<meta http-equiv="refresh" content="0; url=${target}" />`);
    expect(index).toContain(`<a href="${target}">${first.title}</a>`);
    expect(await readFile(join(out, target), 'utf8')).toContain(`<h1`);
  });
});

describe('starter questions fit the site', () => {
  it('keeps the demo its own three', async () => {
    const html = await page(await demoApp({ assetsDir: await assets() }), '/docs');
    expect(startersOf(html)).toEqual([
      'How do I install it?',
      'How do I change the theme?',
      'What is static export?',
    ]);
  });

  it('gives the Fastify folder questions from its own docs, each one answered rather than refused', async () => {
    const app = await fastifyApp();
    const starters = startersOf(await page(app, '/docs'))!;
    expect(starters).toEqual([
      'Tell me about “Getting Started”',
      'Tell me about “LTS”',
      'Tell me about “Install”',
    ]);
    for (const question of starters) {
      const response = await app.request('http://test/discovery/v1/assistant/fastify/message', {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEYS[0]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(askBody(question)),
      });
      expect(response.status).toBe(200);
      const text = textOf(await readStream(response));
      expect(text.length, question).toBeGreaterThan(100);
      for (const refusal of REFUSAL_SENTENCES) expect(text, question).not.toContain(refusal);
    }
  });

  it('takes the owner’s starters, or none', async () => {
    const chosen = await page(await fastifyApp({ starters: ['How do hooks work?'] }), '/docs');
    expect(startersOf(chosen)).toEqual(['How do hooks work?']);
    const none = await page(await fastifyApp({ starters: [] }), '/docs');
    expect(none).not.toContain('data-starter-questions');
    for (const [value, message] of [['a|b|c|d', '--starters takes at most 3 questions, got 4.']]) {
      const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: KEYS.join(',') });
      expect(
        await runCli(['serve', '--docs', FASTIFY_DOCS_DIR, '--starters', value!], run.io),
      ).toBe(2);
      expect(run.err).toContain(message);
    }
  });
});
