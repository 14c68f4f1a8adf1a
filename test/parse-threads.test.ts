import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from './helpers/build.js';
import { tempDir } from './helpers/server.js';
import { FRAMEWORK_BUILDS, plainPage } from './helpers/sites.js';
import type { CachedPage, LoadOptions, PackedPage, PageCache } from '../src/server/site/docs.js';

type Docs = typeof import('../src/server/site/docs.js');
type Html = typeof import('../src/server/site/html.js');
type Pool = typeof import('../src/server/site/parse-pool.js');
type Cache = typeof import('../src/server/site/page-cache.js');

/**
 * Pages are parsed on worker threads from the built JavaScript (a thread runs a module file, not
 * the TypeScript vitest reads), so these tests load the loaders from a private build, where the
 * thread's module sits beside them as it does in dist/.
 */
let docs: Docs;
let html: Html;
let pools: Pool;
let pageCache: Cache;
beforeAll(async () => {
  const { cli } = await buildCli('docs-assistant-parse-threads');
  const site = join(dirname(dirname(cli)), 'server', 'site');
  const load = (name: string) => import(pathToFileURL(join(site, name)).href);
  [docs, html, pools, pageCache] = await Promise.all([
    load('docs.js') as Promise<Docs>,
    load('html.js') as Promise<Html>,
    load('parse-pool.js') as Promise<Pool>,
    load('page-cache.js') as Promise<Cache>,
  ]);
}, 120_000);

/** Real docs folders: this project's, the sample, and two npm packages' (test/fixtures/corpus). */
const MARKDOWN = {
  'the project docs': 'docs',
  'the sample docs': 'test/fixtures/sample-docs',
  "Fastify's docs": 'test/fixtures/corpus/fastify',
  "npm's docs": 'test/fixtures/corpus/npm',
};

const BUILDS = FRAMEWORK_BUILDS;

/** Two threads that take every page (none parsed here first). */
const everyPageOnThreads = () => pools.parsePool<CachedPage | PackedPage>(2, { inThreadFirst: 0 });

/**
 * A folder read through a page cache in a new data folder, its page files written: the pages,
 * and what the page files hold, by page (their order in a file is the order pages were parsed in).
 */
async function readThroughCache(kind: 'docs' | 'site', dir: string, options: LoadOptions) {
  const data = await tempDir();
  const warnings: string[] = [];
  const store = pageCache.diskPageStore(
    join(data, 'cache'),
    { kind, dir: resolve(dir), language: 'en' },
    (line) => warnings.push(line),
  );
  const cache: PageCache = new Map();
  const site =
    kind === 'docs'
      ? await docs.loadDocsSite(dir, 'en', cache, store, options)
      : (await html.loadHtmlSite(dir, 'en', cache, store, options)).site;
  await store.keepOnly(new Set(cache.keys()));
  expect(store.counted().parsed).toBe(cache.size);
  const kept = new Map<string, { file: string; line: unknown[]; body: string }>();
  const files = (await readdir(join(data, 'cache'), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  for (const file of files) {
    const bytes = await readFile(file);
    // A header line, a line per page, then the bodies (page-cache.ts `writeShard`).
    const lines = bytes.toString('utf8').split('\n');
    const header = JSON.parse(lines[0]!) as { pages: number; heads: number };
    const bodies = Buffer.byteLength(lines[0]!) + 1 + header.heads;
    for (const text of lines.slice(1, 1 + header.pages)) {
      const line = JSON.parse(text) as unknown[];
      const [at, length] = [line[3], line[4]] as [number, number];
      kept.set(line[0] as string, {
        file: relative(data, file),
        line,
        body:
          'skipped' in (line[2] as object)
            ? ''
            : bytes.toString('utf8', bodies + at, bodies + at + length),
      });
    }
  }
  expect(warnings).toEqual([]);
  return { site, kept: [...kept].sort(([a], [b]) => (a < b ? -1 : 1)) };
}

/** A kept page's line without where its body lies in its file (which follows the parse order). */
const withoutPlace = ([name, { file, line, body }]: [
  string,
  { file: string; line: unknown[]; body: string },
]) => [name, file, line.slice(0, 3), line[5], body];

describe('pages parsed on worker threads', () => {
  it.each(Object.entries(MARKDOWN))(
    'are the pages, sections, anchors and blocks of %s parsed in the server thread',
    async (_name, dir) => {
      const pool = everyPageOnThreads();
      try {
        const threaded = await docs.loadDocsSite(dir, 'en', undefined, undefined, { pool });
        expect(pool.parsedOnThreads).toBe(threaded.pages.length);
        const inThread = await docs.loadDocsSite(dir, 'en', undefined, undefined, { threads: 0 });
        expect(threaded.pages.length).toBeGreaterThan(0);
        expect(threaded).toStrictEqual(inThread);
      } finally {
        await pool.close();
      }
    },
    60_000,
  );

  it.each(Object.entries(BUILDS))(
    'are the pages and skipped files of a %s build read with --site in the server thread',
    async (_name, dir) => {
      const pool = everyPageOnThreads();
      try {
        const threaded = await html.loadHtmlSite(dir, 'en', undefined, undefined, { pool });
        expect(pool.parsedOnThreads).toBeGreaterThan(0);
        const inThread = await html.loadHtmlSite(dir, 'en', undefined, undefined, { threads: 0 });
        expect(threaded).toStrictEqual(inThread);
      } finally {
        await pool.close();
      }
    },
    60_000,
  );

  it.each([
    ...Object.entries(MARKDOWN).map(([name, dir]) => [name, 'docs', dir] as const),
    ...Object.entries(BUILDS).map(([name, dir]) => [`a ${name} build`, 'site', dir] as const),
  ])(
    'are kept in the page cache as the pages parsed in the server thread are, and served the same from it (%s)',
    async (_name, kind, dir) => {
      const pool = everyPageOnThreads();
      try {
        // Packed on the threads: each page's head and body JSON made there, written as they came.
        const threaded = await readThroughCache(kind, dir, { pool });
        expect(pool.parsedOnThreads).toBeGreaterThan(0);
        const inThread = await readThroughCache(kind, dir, { threads: 0 });
        expect(threaded.kept.length).toBeGreaterThan(0);
        expect(threaded.kept.map(withoutPlace)).toEqual(inThread.kept.map(withoutPlace));
        // The pages served, their bodies read back from the page files: those a read without a
        // cache parses.
        const fresh =
          kind === 'docs'
            ? (await docs.loadDocsSite(dir, 'en', undefined, undefined, { threads: 0 })).pages
            : (await html.loadHtmlSite(dir, 'en', undefined, undefined, { threads: 0 })).site.pages;
        expect(threaded.site.pages.map(plainPage)).toEqual(fresh.map(plainPage));
        expect(inThread.site.pages.map(plainPage)).toEqual(fresh.map(plainPage));
      } finally {
        await pool.close();
      }
    },
    60_000,
  );

  it('stop a folder with a page that cannot be parsed with the message a parse in the server thread gives', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'guides'));
    for (let i = 0; i < 12; i++)
      await writeFile(join(dir, 'guides', `page-${i}.md`), `# Page ${i}\n\nText of page ${i}.\n`);
    await writeFile(join(dir, 'guides', 'page-5.md'), '---\ntitle: [unclosed\n---\n# Five\n');
    const pool = everyPageOnThreads();
    try {
      const threaded = await docs.loadDocsSite(dir, 'en', undefined, undefined, { pool }).then(
        () => 'served',
        (error: Error) => error.message,
      );
      const inThread = await docs
        .loadDocsSite(dir, 'en', undefined, undefined, { threads: 0 })
        .then(
          () => 'served',
          (error: Error) => error.message,
        );
      expect(threaded).toMatch(/^Cannot read guides\/page-5\.md: /);
      expect(threaded).toBe(inThread);
    } finally {
      await pool.close();
    }
  });

  it('skip a built page that cannot be read, named with the reason a parse in the server thread gives, and serve the rest', async () => {
    const dir = await tempDir();
    for (let i = 0; i < 12; i++)
      await writeFile(
        join(dir, `page-${i}.html`),
        `<!doctype html><html lang="en"><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1><p>Text of page ${i}.</p></main></body></html>`,
      );
    // A redirect stub is not a docs page; it is skipped and named.
    await writeFile(
      join(dir, 'old.html'),
      '<!doctype html><html><head><meta http-equiv="refresh" content="0; url=/page-1"></head><body></body></html>',
    );
    const pool = everyPageOnThreads();
    try {
      const threaded = await html.loadHtmlSite(dir, 'en', undefined, undefined, { pool });
      const inThread = await html.loadHtmlSite(dir, 'en', undefined, undefined, { threads: 0 });
      expect(threaded.site.pages).toHaveLength(12);
      expect(threaded.skipped.map((page) => page.file)).toEqual(['old.html']);
      expect(threaded).toStrictEqual(inThread);
    } finally {
      await pool.close();
    }
  });
});
