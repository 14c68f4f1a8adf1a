import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isRecord } from '../../protocol/_guards.js';
import type { DocBlock, DocPage, DocSection, PageStore } from './docs.js';

/**
 * What `serve` keeps in its data folder between starts (docs/scale.md, "Warm start"): each parsed
 * page, keyed by its file and the file's stamp (size, inode, modification time), and the built
 * index of the whole site (answering/index-cache.ts). Both live under `cache/<version>/`, where
 * the version changes with this format and with the code that parses pages and builds the index,
 * so a cache written by another version of docs-assistant is never read.
 */
const CACHE_FORMAT = 2;

/**
 * Modules whose output is what the cache holds (pages: docs.ts, html.ts, page-path.ts; the index:
 * retrieval.ts's tokenizer, terms and passages): a change to any of them is a new version.
 * dense.ts keeps its own vectors (`vectors/`, by model) and only reads the index's hits.
 */
const VERSIONED_MODULES = [
  './page-cache',
  './docs',
  './html',
  './page-path',
  '../../protocol/_guards',
  '../answering/retrieval',
  '../answering/index-cache',
];
/** Packages that parse pages and build the index: an upgrade of one is a new version too. */
const VERSIONED_PACKAGES = [
  'remark-parse',
  'remark-gfm',
  'micromark',
  'mdast-util-from-markdown',
  'mdast-util-to-string',
  'github-slugger',
  'yaml',
  'hast-util-from-html',
  'hast-util-select',
  'hast-util-to-mdast',
  'mdast-util-to-markdown',
  'minisearch',
  'stemmer',
];

/** The installed version of `name`, or '' when it cannot be found from here. */
function packageVersion(name: string): string {
  try {
    const require = createRequire(import.meta.url);
    for (let dir = dirname(require.resolve(name)); dirname(dir) !== dir; dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (isRecord(json) && json.name === name) return String(json.version);
    }
  } catch {
    // Not resolvable from this file (a bundle that inlined it): its code is then in the bundle.
  }
  return '';
}

let version: string | undefined;
/**
 * The cache's version: the format and a hash of the code that makes what it holds. Built into one
 * file (the CLI bundle, a benchmark), this module's own file is all that code.
 */
export function cacheVersion(): string {
  if (version) return version;
  const hash = createHash('sha256').update(String(CACHE_FORMAT));
  const here = fileURLToPath(import.meta.url);
  const files = new Set([here]);
  for (const name of VERSIONED_MODULES)
    for (const extension of ['.ts', '.js']) {
      const file = resolve(dirname(here), name + extension);
      if (existsSync(file)) files.add(file);
    }
  for (const name of VERSIONED_PACKAGES) hash.update(`${name}@${packageVersion(name)}\0`);
  for (const file of [...files].sort())
    hash.update(file.slice(dirname(here).length)).update(readFileSync(file));
  return (version = `v${CACHE_FORMAT}-${hash.digest('hex').slice(0, 16)}`);
}

/** A short, file-name-safe digest. */
export const digest = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);

/** The folder this version's cache lives in. */
export function versionDir(cacheDir: string): string {
  return join(cacheDir, cacheVersion());
}

/** Removes the cache folders of other versions (a cache is only ever read by its own version). */
export async function removeOtherVersions(cacheDir: string): Promise<void> {
  const entries = await readdir(cacheDir).catch(() => []);
  await Promise.all(
    entries
      .filter((name) => name !== cacheVersion() && /^v\d+-[0-9a-f]+$/.test(name))
      .map((name) => rm(join(cacheDir, name), { recursive: true, force: true })),
  );
}

/** A file name beside `file` that no other process or write uses: written, then renamed to `file`. */
export const temporaryBeside = (file: string) =>
  `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

/**
 * Writes `file` whole or not at all: a temporary file beside it, then a rename, so a reader (or a
 * second worker process writing the same file) never sees half of it.
 */
export async function writeAtomically(file: string, data: string): Promise<void> {
  const temporary = temporaryBeside(file);
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}

/**
 * The pages of the folder `source.dir`, read as `source.kind` with `source.language` as the
 * default language, kept one file each under `cacheDir`. A cache file that cannot be read, is not
 * a page, or was written for another file or stamp is ignored (its page parsed again and the file
 * rewritten); `warn` hears about the unreadable ones, once per read of the folder.
 */
export function diskPageStore(
  cacheDir: string,
  source: { kind: string; dir: string; language: string },
  warn: (line: string) => void,
): PageStore {
  const dir = join(
    versionDir(cacheDir),
    'pages',
    digest(source.kind, resolve(source.dir), source.language),
  );
  const fileOf = (file: string) => join(dir, `${digest(file)}.json`);
  let made: Promise<unknown> | undefined;
  let reused = 0;
  let parsed = 0;
  const ignored: string[] = [];
  let failedWrite: string | undefined;
  return {
    async get(file, stamp) {
      const path = fileOf(file);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        parsed++;
        return undefined;
      }
      let kept: unknown;
      try {
        kept = JSON.parse(text);
      } catch {
        kept = undefined;
      }
      if (isRecord(kept) && kept.version === cacheVersion() && kept.file === file) {
        if (kept.stamp !== stamp) {
          parsed++;
          return undefined;
        }
        if (isCachedPage(kept.page)) {
          reused++;
          return 'skipped' in kept.page ? kept.page : unpacked(kept.page);
        }
      }
      parsed++;
      ignored.push(path);
      return undefined;
    },
    async set(file, stamp, page) {
      try {
        await (made ??= mkdir(dir, { recursive: true }));
        await writeAtomically(
          fileOf(file),
          JSON.stringify({
            version: cacheVersion(),
            file,
            stamp,
            page: 'skipped' in page ? page : packed(page),
          }),
        );
      } catch (error) {
        failedWrite ??= (error as Error).message;
      }
    },
    async keepOnly(files) {
      const names = new Set([...files].map((file) => `${digest(file)}.json`));
      const entries = await readdir(dir).catch(() => []);
      await Promise.all(
        entries
          .filter((name) => name.endsWith('.json') && !names.has(name))
          .map((name) => rm(join(dir, name), { force: true })),
      );
    },
    counted() {
      if (ignored.length)
        warn(
          `Ignored ${ignored.length} unreadable page cache file${ignored.length === 1 ? '' : 's'} (${ignored[0]}${ignored.length > 1 ? ', …' : ''}): parsed ${ignored.length === 1 ? 'its page' : 'their pages'} again.`,
        );
      if (failedWrite) warn(`Cannot keep parsed pages in ${dir}: ${failedWrite}`);
      const counts = { reused, parsed, ignored: ignored.length };
      [reused, parsed, ignored.length, failedWrite] = [0, 0, 0, undefined];
      return counts;
    },
  };
}

/**
 * A page as its cache file holds it: without each section's `text` and `code`, which repeat its
 * blocks' text (a fifth of a page's bytes) and are made again from them on reading.
 */
type PackedPage = Omit<DocPage, 'sections'> & { sections: Omit<DocSection, 'text' | 'code'>[] };

const packed = (page: DocPage): PackedPage => ({
  ...page,
  sections: page.sections.map(({ text: _text, code: _code, ...section }) => section),
});

/** The sections' `text` and `code` as docs.ts `sectionsOf` makes them from the blocks. */
const unpacked = (page: PackedPage): DocPage => ({
  ...page,
  sections: page.sections.map((section) => ({
    ...section,
    text: section.blocks
      .filter((block) => block.kind !== 'code')
      .map((block) => block.text)
      .join('\n'),
    code: section.blocks.flatMap((block) =>
      block.kind === 'code' ? [{ lang: block.lang ?? '', value: block.text }] : [],
    ),
  })),
});

const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown) => value === undefined || isString(value);
const isArrayOf = <T>(value: unknown, item: (value: unknown) => value is T): value is T[] =>
  Array.isArray(value) && value.every(item);

function isBlock(value: unknown): value is DocBlock {
  return (
    isRecord(value) &&
    ['paragraph', 'list', 'table', 'code', 'quote'].includes(value.kind as string) &&
    isString(value.markdown) &&
    isString(value.text) &&
    isOptionalString(value.lang) &&
    (value.links === undefined ||
      isArrayOf(
        value.links,
        (link): link is unknown =>
          isRecord(link) &&
          typeof link.start === 'number' &&
          typeof link.end === 'number' &&
          isString(link.url),
      ))
  );
}

function isPackedSection(value: unknown): value is PackedPage['sections'][number] {
  return (
    isRecord(value) &&
    [value.id, value.pagePath, value.pageTitle, value.heading, value.anchor].every(isString) &&
    isString(value.language) &&
    isOptionalString(value.version) &&
    isArrayOf(value.blocks, isBlock)
  );
}

/** A page (or a skipped file's reason) as the cache keeps it, checked field by field. */
function isCachedPage(value: unknown): value is PackedPage | { skipped: string } {
  if (!isRecord(value)) return false;
  if ('skipped' in value) return isString(value.skipped);
  return (
    [value.path, value.title, value.language, value.markdown, value.file].every(isString) &&
    isOptionalString(value.description) &&
    isOptionalString(value.version) &&
    (value.frontmatter === undefined || isRecord(value.frontmatter)) &&
    isArrayOf(value.sections, isPackedSection)
  );
}
