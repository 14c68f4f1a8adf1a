import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePage, remarkTree } from '../src/server/site/docs.js';
import { parseHtmlPage } from '../src/server/site/html.js';
import { markdownTree } from '../src/server/site/markdown-tree.js';
import { PAGE_EXTENSIONS } from '../src/server/site/page-path.js';
import { generateScaleSite } from '../bench/_scale-site.js';
import { tempDir } from './helpers/server.js';
import { FRAMEWORK_BUILDS } from './helpers/sites.js';
// @ts-expect-error a plain ES module of the eval, without types
import { cacheDirOf, fetchSet, SETS } from '../bench/eval/fetch.mjs';

/**
 * Pages are read with marked's lexer (markdown-tree.ts) instead of remark-parse and remark-gfm,
 * a tenth of the CPU at index time. remark stays the reference: every page of every real docs set
 * the repository has must give the same page (title, sections, anchors, block kinds, Markdown and
 * text, link offsets, front matter) either way. A page the fast path gives up on is parsed with
 * remark, so it is the same by construction (each set prints how many took the fast path).
 */

/** Every page file under `dir`, as `loadDocsSite` lists them. */
async function pageFiles(dir: string, pattern = PAGE_EXTENSIONS): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter(
      (entry) =>
        entry.isFile() &&
        pattern.test(entry.name) &&
        !entry.name.startsWith('_') &&
        !relative(dir, join(entry.parentPath, entry.name))
          .split(sep)
          .some((part) => part.startsWith('.')),
    )
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

const evalSets = (): Record<string, string> => {
  const cache = cacheDirOf(join(import.meta.dirname, '..')) as string;
  return Object.fromEntries(
    Object.entries(SETS as Record<string, object>).map(([name, set]) => [
      `the ${name} eval set`,
      fetchSet(cache, name, set) as string,
    ]),
  );
};

const MARKDOWN: Record<string, string> = {
  'the project docs': 'docs',
  'the sample docs': 'test/fixtures/sample-docs',
  "Fastify's docs": 'test/fixtures/corpus/fastify',
  "npm's docs": 'test/fixtures/corpus/npm',
  ...evalSets(),
};

describe('every real docs set read with the fast Markdown tree', () => {
  it.each(Object.entries(MARKDOWN))(
    'are the pages remark gives for %s',
    async (_name, dir) => {
      const files = await pageFiles(dir);
      expect(files.length).toBeGreaterThan(0);
      let fast = 0;
      for (const file of files) {
        const source = await readFile(join(dir, file), 'utf8');
        const page = parsePage(file, source);
        expect({ file, page }).toStrictEqual({
          file,
          page: parsePage(file, source, 'en', { tree: remarkTree }),
        });
        if (markdownTree(page.markdown)) fast++;
      }
      console.log(`${_name}: ${fast} of ${files.length} pages on the fast path`);
    },
    120_000,
  );

  it("are the pages remark gives for the scale benchmark's generated site, each on the fast path, as Markdown and built", async () => {
    const dir = await tempDir();
    await generateScaleSite(200, join(dir, 'docs'), { siteDir: join(dir, 'site') });
    const files = await pageFiles(join(dir, 'docs'));
    expect(files).toHaveLength(200);
    for (const file of files) {
      const source = await readFile(join(dir, 'docs', file), 'utf8');
      const page = parsePage(file, source);
      expect({ file, page }).toStrictEqual({
        file,
        page: parsePage(file, source, 'en', { tree: remarkTree }),
      });
      expect(markdownTree(page.markdown)).toBeDefined();
    }
    const built = await pageFiles(join(dir, 'site'), /\.html$/);
    expect(built.length).toBeGreaterThanOrEqual(200);
    for (const file of built) {
      const source = await readFile(join(dir, 'site', file), 'utf8');
      expect({ file, page: parseHtmlPage(file, source) }).toStrictEqual({
        file,
        page: parseHtmlPage(file, source, 'en', { tree: remarkTree }),
      });
    }
  }, 120_000);

  it.each(Object.entries(FRAMEWORK_BUILDS))(
    'are the pages remark gives for the %s build read with --site',
    async (_name, dir) => {
      const files = await pageFiles(dir, /\.html?$/i);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const source = await readFile(join(dir, file), 'utf8');
        expect({ file, page: parseHtmlPage(file, source) }).toStrictEqual({
          file,
          page: parseHtmlPage(file, source, 'en', { tree: remarkTree }),
        });
      }
    },
    120_000,
  );
});
