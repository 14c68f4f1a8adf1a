import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from './helpers/build.js';
import { tempDir } from './helpers/server.js';
import { FRAMEWORK_BUILDS } from './helpers/sites.js';

type Docs = typeof import('../src/server/site/docs.js');
type Html = typeof import('../src/server/site/html.js');
type Pool = typeof import('../src/server/site/parse-pool.js');

/**
 * Pages are parsed on worker threads from the built JavaScript (a thread runs a module file, not
 * the TypeScript vitest reads), so these tests load the loaders from a private build, where the
 * thread's module sits beside them as it does in dist/.
 */
let docs: Docs;
let html: Html;
let pools: Pool;
beforeAll(async () => {
  const { cli } = await buildCli('docs-assistant-parse-threads');
  const site = join(dirname(dirname(cli)), 'server', 'site');
  const load = (name: string) => import(pathToFileURL(join(site, name)).href);
  [docs, html, pools] = await Promise.all([
    load('docs.js') as Promise<Docs>,
    load('html.js') as Promise<Html>,
    load('parse-pool.js') as Promise<Pool>,
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
const everyPageOnThreads = () =>
  pools.parsePool<import('../src/server/site/docs.js').CachedPage>(2, { inThreadFirst: 0 });

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
