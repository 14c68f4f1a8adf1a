import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateScaleSite } from '../bench/_scale-site.js';
import type { FlatIndex } from '../src/server/answering/flat-index.js';
import type { SavedIndexes } from '../src/server/answering/retrieval.js';
import type { DocsSite } from '../src/server/site/docs.js';
import { buildCli } from './helpers/build.js';
import { FASTIFY_DOCS_DIR, tempDir } from './helpers/server.js';

type Threads = typeof import('../src/server/answering/index-threads.js');
type Retrieval = typeof import('../src/server/answering/retrieval.js');
type Cache = typeof import('../src/server/answering/index-cache.js');
type Docs = typeof import('../src/server/site/docs.js');

/**
 * A first start builds its index on threads, each a piece of the pages, joined in the server's
 * thread (src/server/answering/index-threads.ts). A thread runs a module file, not the TypeScript
 * vitest reads, so these tests load the modules from a private build, where the thread's module
 * sits beside them as it does in dist/. The index must be the one the server's thread builds, to
 * the order of its terms and the last bit of its postings, or a first start would answer
 * differently from the next one.
 */
let threads: Threads;
let retrieval: Retrieval;
let cache: Cache;
let docs: Docs;
beforeAll(async () => {
  const { cli } = await buildCli('docs-assistant-index-threads');
  const server = join(dirname(dirname(cli)), 'server');
  const load = (name: string) => import(pathToFileURL(join(server, name)).href);
  [threads, retrieval, cache, docs] = await Promise.all([
    load('answering/index-threads.js') as Promise<Threads>,
    load('answering/retrieval.js') as Promise<Retrieval>,
    load('answering/index-cache.js') as Promise<Cache>,
    load('site/docs.js') as Promise<Docs>,
  ]);
}, 120_000);

/** What the server's thread builds and keeps for `site`. */
function builtHere(site: DocsSite): SavedIndexes {
  let saved: SavedIndexes | undefined;
  retrieval.createRetriever(site, {
    store: { load: () => undefined, save: (_site, indexes) => (saved = indexes()) },
  });
  return saved!;
}

const bytes = ({ postings }: FlatIndex) =>
  Buffer.from(postings.buffer, postings.byteOffset, postings.byteLength);

const QUESTIONS = [
  'How do I register a plugin?',
  'What is the default log level?',
  'npm install --save-dev',
  'querystring parser',
];

describe('an index built on threads', () => {
  const sets: Record<string, () => Promise<string>> = {
    "Fastify's docs": async () => FASTIFY_DOCS_DIR,
    "npm's docs": async () => join(import.meta.dirname, 'fixtures', 'corpus', 'npm'),
    'the scale benchmark’s generated site (600 pages)': async () => {
      const dir = join(await tempDir(), 'docs');
      await generateScaleSite(600, dir);
      return dir;
    },
  };
  it.each(Object.entries(sets))(
    'is the index the server’s thread builds, in 2 and 3 pieces (%s)',
    async (_name, folder) => {
      const site = await docs.loadDocsSite(await folder(), 'en', undefined, undefined, {
        threads: 0,
      });
      const expected = builtHere(site);
      for (const count of [2, 3]) {
        const built = await threads.buildOnThreads(site, count, { pagesEach: 1 });
        expect(built).toBeDefined();
        expect([...built!.compounds]).toEqual(expected.compounds);
        for (const index of ['passages', 'pages'] as const) {
          expect(built![index].terms).toEqual(expected[index].terms);
          expect(built![index].documents).toEqual(expected[index].documents);
          expect(bytes(built![index])).toEqual(bytes(expected[index]));
        }
      }
    },
    240_000,
  );

  it('is kept by the index cache and answers as one built in the server’s thread', async () => {
    const site = await docs.loadDocsSite(resolve(FASTIFY_DOCS_DIR), 'en', undefined, undefined, {
      threads: 0,
    });
    // A stamp, as a site read through the page cache has: what the index cache keys on.
    site.stamp = 'fastify-test';
    const warnings: string[] = [];
    const dir = await tempDir();
    const store = cache.diskIndexStore(dir, (line) => warnings.push(line));
    expect(await store.buildOnThreads(site, 2, { pagesEach: 10 })).toBe(true);
    const threaded = retrieval.createRetriever(site, { store });
    expect(store.outcome(site)).toBe('built');
    const here = retrieval.createRetriever(site);
    for (const question of QUESTIONS)
      expect(threaded.search(question, { limit: 5 })).toEqual(here.search(question, { limit: 5 }));

    // Kept: the next start reads it from the cache.
    const again = cache.diskIndexStore(dir, () => {});
    expect(await again.buildOnThreads(site, 2, { pagesEach: 10 })).toBe(false);
    retrieval.createRetriever(site, { store: again });
    expect(again.outcome(site)).toBe('reused');
    expect(warnings).toEqual([]);
  }, 120_000);

  it('is left to the server’s thread for a small site', async () => {
    const site = await docs.loadDocsSite(resolve('docs'), 'en', undefined, undefined, {
      threads: 0,
    });
    expect(await threads.buildOnThreads(site, 2)).toBeUndefined();
  });
});
