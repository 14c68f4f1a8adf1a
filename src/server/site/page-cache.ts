import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isRecord } from '../../protocol/_guards.js';
import type { CachedPage, CodeSample, DocBlock, DocPage, DocSection, PageStore } from './docs.js';

/**
 * What `serve` keeps in its data folder between starts (docs/scale.md, "Warm start"): each parsed
 * page, keyed by its file and the file's stamp (size, inode, modification time), and the built
 * index of the whole site (answering/index-cache.ts). Both live under `cache/<version>/`, where
 * the version changes with this format and with the code that parses pages and builds the index,
 * so a cache written by another version of docs-assistant is never read.
 */
const CACHE_FORMAT = 3;

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

/** Files a folder's pages are kept in: a page's file is named by the first hex digit of its digest. */
const SHARDS = 16;
const shardOf = (file: string) => parseInt(digest(file).slice(0, 1), 16);

/** A kept page and the stamp of the file it was parsed from. */
interface Kept {
  stamp: string;
  page: CachedPage;
}

/**
 * The pages of the folder `source.dir`, read as `source.kind` with `source.language` as the
 * default language, kept under `cacheDir` in SHARDS files of one line per page (`pages-<n>.jsonl`):
 * a start reads them in one pass instead of opening a file per page, and an edit writes the one
 * file its page is in. Each file starts with a header that names this version and the length and
 * CRC-32 of the rest, so a file cut short, edited or written by another version is ignored whole
 * (its pages parsed again and the file rewritten); `warn` hears about it once per read of the
 * folder. Pages set during a read are written by `keepOnly` at its end, each file to a temporary
 * name and renamed: with `--workers`, processes never see each other's half-written files.
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
  const fileOf = (shard: number) => join(dir, `pages-${shard.toString(16)}.jsonl`);
  const shards = Array.from({ length: SHARDS }, () => new Map<string, Kept>());
  const dirty = new Set<number>();
  let loaded: Promise<void> | undefined;
  let reused = 0;
  let parsed = 0;
  /** Files ignored at the last load. */
  let ignored: string[] = [];
  let failedWrite: string | undefined;

  const load = async () => {
    await Promise.all(
      shards.map(async (kept, shard) => {
        const file = fileOf(shard);
        let bytes: Buffer;
        try {
          bytes = await readFile(file);
        } catch {
          return;
        }
        if (readShard(bytes, kept)) return;
        // Unreadable: its pages are parsed again, and the file is written again.
        kept.clear();
        dirty.add(shard);
        ignored.push(file);
      }),
    );
  };

  return {
    async get(file, stamp) {
      await (loaded ??= load());
      const kept = shards[shardOf(file)]!.get(file);
      if (kept?.stamp !== stamp) {
        parsed++;
        return undefined;
      }
      reused++;
      return kept.page;
    },
    async set(file, stamp, page) {
      await (loaded ??= load());
      const shard = shardOf(file);
      shards[shard]!.set(file, { stamp, page });
      dirty.add(shard);
    },
    async keepOnly(files) {
      await (loaded ??= load());
      shards.forEach((kept, shard) => {
        for (const file of kept.keys())
          if (!files.has(file)) {
            kept.delete(file);
            dirty.add(shard);
          }
      });
      const writing = [...dirty];
      dirty.clear();
      if (!writing.length) return;
      try {
        await mkdir(dir, { recursive: true });
        // One file at a time: each is a few megabytes of JSON on a large site.
        for (const shard of writing)
          await writeAtomically(fileOf(shard), shardText(shards[shard]!));
      } catch (error) {
        failedWrite ??= (error as Error).message;
      }
    },
    counted() {
      if (ignored.length)
        warn(
          `Ignored ${ignored.length} unreadable page cache file${ignored.length === 1 ? '' : 's'} (${ignored[0]}${ignored.length > 1 ? ', …' : ''}): parsed ${ignored.length === 1 ? 'its' : 'their'} pages again.`,
        );
      if (failedWrite) warn(`Cannot keep parsed pages in ${dir}: ${failedWrite}`);
      const counts = { reused, parsed, ignored: ignored.length };
      [reused, parsed, ignored, failedWrite] = [0, 0, [], undefined];
      return counts;
    },
  };
}

/** A shard file's first line: what wrote it, and how long the rest is and its CRC-32. */
interface ShardHeader {
  version: string;
  pages: number;
  bytes: number;
  crc: number;
}

/** A shard's text: its header, then one `[file, stamp, page]` line per page. */
function shardText(kept: Map<string, Kept>): string {
  const body = [...kept]
    .map(
      ([file, { stamp, page }]) =>
        JSON.stringify([file, stamp, 'skipped' in page ? page : packed(page)]) + '\n',
    )
    .join('');
  const header: ShardHeader = {
    version: cacheVersion(),
    pages: kept.size,
    bytes: Buffer.byteLength(body),
    crc: crc32(body),
  };
  return JSON.stringify(header) + '\n' + body;
}

/** Reads a shard file's pages into `kept`: false when the file is not one of this version, whole. */
function readShard(bytes: Buffer, kept: Map<string, Kept>): boolean {
  const end = bytes.indexOf(10);
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, end === -1 ? bytes.length : end));
  } catch {
    return false;
  }
  if (!isShardHeader(header)) return false;
  const body = bytes.subarray(end + 1);
  // Another version's file is never read: its pages may be shaped or parsed otherwise.
  if (
    header.version !== cacheVersion() ||
    body.length !== header.bytes ||
    crc32(body) !== header.crc
  )
    return false;
  try {
    for (let from = 0; from < body.length;) {
      const to = body.indexOf(10, from);
      const line: unknown = JSON.parse(body.toString('utf8', from, to));
      from = to + 1;
      if (
        !Array.isArray(line) ||
        !isString(line[0]) ||
        !isString(line[1]) ||
        !isCachedPage(line[2])
      )
        throw new Error('not a page');
      kept.set(line[0], {
        stamp: line[1],
        page: 'skipped' in line[2] ? line[2] : unpacked(line[2]),
      });
    }
  } catch {
    return false;
  }
  return true;
}

function isShardHeader(value: unknown): value is ShardHeader {
  return (
    isRecord(value) &&
    isString(value.version) &&
    [value.pages, value.bytes, value.crc].every((field) => typeof field === 'number')
  );
}

/** A piece of a page's Markdown as `[from, to]` where it is one, else as written. */
type Slice = string | [number, number];

/**
 * A block as its shard line holds it: its `markdown` as where it is in the page's Markdown (it is
 * a slice of it unless a reference link was written inline), its `text` absent when it is the
 * block's Markdown. Read back, the slices share the page's string instead of copying it.
 */
type PackedBlock = Omit<DocBlock, 'markdown' | 'text'> & { markdown: Slice; text?: Slice };

/**
 * A section as its shard line holds it: what is the page's (`pagePath`, `pageTitle`, `language`,
 * `version`, the `id` made of the path and anchor) only when it differs, and without `text` and
 * `code`, which repeat its blocks and are made again from them on reading.
 */
type PackedSection = Pick<DocSection, 'heading' | 'anchor'> &
  Partial<Pick<DocSection, 'id' | 'pagePath' | 'pageTitle' | 'language'>> & {
    version?: string | null;
    blocks: PackedBlock[];
  };

type PackedPage = Omit<DocPage, 'sections'> & { sections: PackedSection[] };

/** Where `piece` is in `markdown`, searched from `from`, else `piece` itself. */
function sliceOf(markdown: string, piece: string, from: number): Slice {
  const at = markdown.indexOf(piece, from);
  return at === -1 ? piece : [at, at + piece.length];
}

const read = (markdown: string, slice: Slice) =>
  typeof slice === 'string' ? slice : markdown.slice(slice[0], slice[1]);

function packed(page: DocPage): PackedPage {
  let cursor = 0;
  const packBlock = ({ markdown, text, ...block }: DocBlock): PackedBlock => {
    const where = sliceOf(page.markdown, markdown, cursor);
    if (typeof where !== 'string') cursor = where[0];
    if (text === markdown) return { ...block, markdown: where };
    const textWhere =
      typeof where === 'string' ? text : sliceOf(page.markdown.slice(0, where[1]), text, where[0]);
    return { ...block, markdown: where, text: textWhere };
  };
  return {
    ...page,
    sections: page.sections.map(
      ({ id, pagePath, pageTitle, language, version, heading, anchor, blocks }) => ({
        heading,
        anchor,
        ...(id === `${page.path}#${anchor}` ? {} : { id }),
        ...(pagePath === page.path ? {} : { pagePath }),
        ...(pageTitle === page.title ? {} : { pageTitle }),
        ...(language === page.language ? {} : { language }),
        ...(version === page.version ? {} : { version: version ?? null }),
        blocks: blocks.map(packBlock),
      }),
    ),
  };
}

/**
 * A page as parsed, from its packed form. Each section's `text` and `code` are made from its blocks
 * as docs.ts `sectionsOf` makes them, on first use: with the index read from the cache too, most
 * sections are never indexed or embedded again, and their text would be a second copy of the page.
 */
function unpacked(page: PackedPage): DocPage {
  const { markdown } = page;
  const blockOf = (packed: PackedBlock): DocBlock => {
    const source = read(markdown, packed.markdown);
    const block: DocBlock = {
      kind: packed.kind,
      markdown: source,
      text: packed.text === undefined ? source : read(markdown, packed.text),
    };
    if (packed.lang !== undefined) block.lang = packed.lang;
    if (packed.links !== undefined) block.links = packed.links;
    return block;
  };
  const sections = page.sections.map((own): DocSection => {
    const blocks = own.blocks.map(blockOf);
    const version = own.version === undefined ? page.version : (own.version ?? undefined);
    let text: string | undefined;
    let code: CodeSample[] | undefined;
    return {
      id: own.id ?? `${page.path}#${own.anchor}`,
      pagePath: own.pagePath ?? page.path,
      pageTitle: own.pageTitle ?? page.title,
      heading: own.heading,
      anchor: own.anchor,
      get text() {
        return (text ??= blocks
          .filter((block) => block.kind !== 'code')
          .map((block) => block.text)
          .join('\n'));
      },
      get code() {
        return (code ??= blocks.flatMap((block) =>
          block.kind === 'code' ? [{ lang: block.lang ?? '', value: block.text }] : [],
        ));
      },
      blocks,
      ...(version ? { version } : {}),
      language: own.language ?? page.language,
    };
  });
  return Object.assign(page, { sections });
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown) => value === undefined || isString(value);
const isArrayOf = <T>(value: unknown, item: (value: unknown) => value is T): value is T[] =>
  Array.isArray(value) && value.every(item);
const isSlice = (value: unknown): value is Slice =>
  isString(value) ||
  (Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'number' &&
    typeof value[1] === 'number');

function isBlock(value: unknown): value is PackedBlock {
  return (
    isRecord(value) &&
    ['paragraph', 'list', 'table', 'code', 'quote'].includes(value.kind as string) &&
    isSlice(value.markdown) &&
    (value.text === undefined || isSlice(value.text)) &&
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

function isPackedSection(value: unknown): value is PackedSection {
  return (
    isRecord(value) &&
    isString(value.heading) &&
    isString(value.anchor) &&
    [value.id, value.pagePath, value.pageTitle, value.language].every(isOptionalString) &&
    (value.version === undefined || value.version === null || isString(value.version)) &&
    isArrayOf(value.blocks, isBlock)
  );
}

/** A page (or a skipped file's reason) as a shard line keeps it, checked field by field. */
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
