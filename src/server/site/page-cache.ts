import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isRecord, isString } from '../../protocol/_guards.js';
import {
  parsePage,
  readPageFile,
  type CachedPage,
  type CodeSample,
  type DocBlock,
  type DocPage,
  type DocSection,
  type PackedSection,
  type PageHead,
  type PageStore,
  type Skipped,
} from './docs.js';
import { parseHtmlPage } from './html.js';
import { bodyOf, bodyText, headOf, isHead, unpackedBody, type Body } from './page-format.js';
import type { PagePath } from './page-path.js';

/**
 * What `serve` keeps in its data folder between starts (docs/scale-history.md, "What costs what"):
 * each parsed page, keyed by its file and the file's stamp (size, inode, modification time), and
 * the built index of the whole site (answering/index-cache.ts). Both live under `cache/<version>/`,
 * where the version changes with this format and with the code that parses pages and builds the
 * index, so a cache written by another version of docs-assistant is never read.
 */
const CACHE_FORMAT = 4;

/**
 * Modules whose output is what the cache holds (pages: docs.ts, front-matter.ts, markdown-tree.ts,
 * html.ts, page-path.ts; the index: words.ts's words, terms.ts's terms, retrieval.ts's passages):
 * a change to any of them is a new version.
 * dense.ts keeps its own vectors (`vectors/`, by model) and only reads the index's hits.
 */
const VERSIONED_MODULES = [
  './page-cache',
  './page-format',
  './docs',
  './front-matter',
  './markdown-tree',
  './html',
  './page-path',
  '../../protocol/_guards',
  '../answering/retrieval',
  '../answering/terms',
  '../answering/words',
  '../answering/index-cache',
  '../answering/flat-index',
];
/** Packages that parse pages and build the index: an upgrade of one is a new version too. */
const VERSIONED_PACKAGES = [
  'marked',
  'decode-named-character-reference',
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
const temporaryBeside = (file: string) =>
  `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

/**
 * Writes `parts` to `file` whole or not at all: to a temporary file beside it, then renamed, so a
 * reader (or a second worker process writing the same file) never sees half of it. Returns the
 * new file still open (read and write) for the caller to close; on failure nothing is left.
 * `first`, when given, is written over the start once every part is (a header that sums up the
 * rest, into the room the first part left for it).
 */
export function writeWhole(file: string, parts: Iterable<Buffer>, first?: () => Buffer): number {
  const temporary = temporaryBeside(file);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'w+');
    for (const part of parts) writeSync(fd, part);
    if (first) {
      const bytes = first();
      writeSync(fd, bytes, 0, bytes.length, 0);
    }
    renameSync(temporary, file);
    return fd;
  } catch (error) {
    // A data folder under a regular file fails here too (ENOTDIR): never throw from the cleanup.
    try {
      if (fd !== undefined) closeSync(fd);
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
    throw error;
  }
}

/** Files a folder's pages are kept in: a page's file is named by the first hex digit of its digest. */
const SHARDS = 16;
const shardOf = (file: string) => parseInt(digest(file).slice(0, 1), 16);

/**
 * Pages whose Markdown and blocks are held at once after being read back from their page file: a
 * served site holds every page's title and headings, and only these pages' bodies.
 */
export const BODIES_KEPT = 512;

/** A kept page and the stamp of the file it was parsed from. */
interface Kept {
  stamp: string;
  page: KeptPage | Skipped;
}

/**
 * A page file as this process read or wrote it, open for as long as one of its pages may be read
 * from it: a later write of the same path (an edit, another `--workers` process) renames a new file
 * over it, and the pages read from this one keep reading their own bytes.
 */
class PageFile {
  constructor(
    readonly fd: number,
    readonly path: string,
  ) {
    closing.register(this, fd);
  }
}
const closing = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/** Where a page's body is kept: its file, and its bytes there with their CRC-32. */
interface Where {
  file: PageFile;
  at: number;
  length: number;
  crc: number;
}

/** What a kept page needs of its store: how to parse it again when its kept body is damaged. */
interface Shelf {
  repair(page: KeptPage, file: string): Body;
}

/** Bodies recently read, oldest first (a Map keeps insertion order). */
const recent = new Map<KeptPage, Body>();

/**
 * A page as served from the cache: its title, headings and the rest of what answering reads are
 * held; its Markdown and blocks (`markdown`, a section's `blocks`, `text` and `code`) are read from
 * its page file when asked for, and the last BODIES_KEPT of those stay in memory. A page parsed in
 * this process holds its body until its page file is written: whole when parsed in this thread, as
 * the JSON its page file will hold when packed on a parse thread.
 */
export class KeptPage implements DocPage {
  path: PagePath;
  title: string;
  declare description?: string;
  declare version?: string;
  language: string;
  file: string;
  declare frontmatter?: Record<string, unknown>;
  sections: KeptSection[];
  #where: Where | undefined;
  #held: Body | undefined;
  #unwritten: string | undefined;
  readonly #shelf: Shelf;

  constructor(
    head: PageHead,
    shelf: Shelf,
    body: { where: Where } | { held: Body } | { unwritten: string },
  ) {
    this.path = head.path as PagePath;
    this.title = head.title;
    if (head.description !== undefined) this.description = head.description;
    if (head.version !== undefined) this.version = head.version;
    this.language = head.language;
    this.file = head.file;
    if (head.frontmatter !== undefined) this.frontmatter = head.frontmatter;
    this.sections = head.sections.map((own, n) => new KeptSection(this, own, n));
    this.#shelf = shelf;
    if ('where' in body) this.#where = body.where;
    else if ('held' in body) this.#held = body.held;
    else this.#unwritten = body.unwritten;
  }

  get markdown(): string {
    return this.body().markdown;
  }

  /** The page's body: held, recently read, or read now (from its page file, or the JSON for it). */
  body(): Body {
    if (this.#held) return this.#held;
    let body = recent.get(this);
    if (body) recent.delete(this);
    else body = this.#read();
    recent.set(this, body);
    if (recent.size > BODIES_KEPT) recent.delete(recent.keys().next().value!);
    return body;
  }

  /** The body's bytes as its page file keeps them (JSON), from the file or made from the held body. */
  bytes(): Buffer {
    if (this.#unwritten !== undefined) return Buffer.from(this.#unwritten);
    if (!this.#held) {
      const raw = this.#rawBytes();
      if (raw) return raw;
    }
    return Buffer.from(bodyText(this.body()));
  }

  /** The body is now kept at `where`: read from there from now on. */
  movedTo(where: Where): void {
    this.#where = where;
    this.#held = undefined;
    this.#unwritten = undefined;
  }

  #rawBytes(): Buffer | undefined {
    const where = this.#where;
    if (!where) return undefined;
    const bytes = Buffer.allocUnsafe(where.length);
    try {
      if (readSync(where.file.fd, bytes, 0, where.length, where.at) !== where.length)
        return undefined;
    } catch {
      return undefined;
    }
    return crc32(bytes) === where.crc ? bytes : undefined;
  }

  #read(): Body {
    const json = this.#unwritten ?? this.#rawBytes()?.toString('utf8');
    if (json !== undefined) {
      try {
        const body = unpackedBody(JSON.parse(json), this.sections.length);
        if (body) return body;
      } catch {
        // Damaged: parsed again below.
      }
    }
    // Its bytes were changed or cut since they were written: parse the page's file again, and
    // hold what that gives until the page file is written again.
    const body = this.#shelf.repair(this, this.#where?.file.path ?? '');
    this.#held = body;
    return body;
  }
}

/** A section of a KeptPage: its blocks, text and code are its page's body's. */
class KeptSection implements DocSection {
  id: string;
  pagePath: PagePath;
  pageTitle: string;
  heading: string;
  declare parent?: string;
  anchor: string;
  declare version?: string;
  language: string;
  readonly #page: KeptPage;
  readonly #n: number;

  constructor(page: KeptPage, own: PackedSection, n: number) {
    this.id = own.id ?? `${page.path}#${own.anchor}`;
    this.pagePath = (own.pagePath ?? page.path) as PagePath;
    this.pageTitle = own.pageTitle ?? page.title;
    this.heading = own.heading;
    if (own.parent !== undefined) this.parent = own.parent;
    this.anchor = own.anchor;
    const version = own.version === undefined ? page.version : (own.version ?? undefined);
    if (version) this.version = version;
    this.language = own.language ?? page.language;
    this.#page = page;
    this.#n = n;
  }

  #own() {
    return this.#page.body().sections[this.#n]!;
  }
  get blocks(): DocBlock[] {
    return this.#own().blocks;
  }
  // As docs.ts `sectionsOf` makes them, on first use.
  get text(): string {
    const own = this.#own();
    return (own.text ??= own.blocks
      .filter((block) => block.kind !== 'code')
      .map((block) => block.text)
      .join('\n'));
  }
  get code(): CodeSample[] {
    const own = this.#own();
    return (own.code ??= own.blocks.flatMap((block) =>
      block.kind === 'code' ? [{ lang: block.lang ?? '', value: block.text }] : [],
    ));
  }
}

/**
 * The pages of the folder `source.dir`, read as `source.kind` with `source.language` as the
 * default language, kept under `cacheDir` in SHARDS files (`pages-<n>.jsonl`). Each file starts
 * with a header line (this version; the length and CRC-32 of the heads; the length of the bodies),
 * then one line per page with what answering needs (its file, stamp, title, headings…) and where
 * its body is, then the bodies (Markdown and blocks) one after another. A start reads the headers
 * and heads only; a body is read when its page is quoted or served (KeptPage), and checked then by
 * its own CRC-32. A file whose header or heads are cut short, edited or written by another version
 * is ignored whole (its pages parsed again and the file rewritten); a damaged body is parsed again
 * from its page's file when read, and its file rewritten. `warn` hears about both. Pages set during
 * a read are written by `keepOnly` at its end, each file to a temporary name and renamed: with
 * `--workers`, processes never see each other's half-written files.
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
  /** Writes, one after another. */
  let writing = Promise.resolve();

  const shelf: Shelf = {
    repair(page, file) {
      warn(`Damaged page cache file ${file || dir}: parsed ${page.file} again from ${source.dir}.`);
      let again: CachedPage;
      try {
        // A built page read from its compressed file is named as served (html.ts): `a.html` from `a.html.gz`.
        const file = join(source.dir, page.file);
        const text = readPageFile(
          source.kind === 'site' && !existsSync(file) ? `${file}.gz` : file,
        );
        again =
          source.kind === 'site'
            ? parseHtmlPage(page.file, text, source.language)
            : parsePage(page.file, text, source.language);
      } catch (error) {
        again = { skipped: (error as Error).message };
      }
      const byId = new Map('skipped' in again ? [] : again.sections.map((s) => [s.id, s]));
      const body: Body = {
        markdown: 'skipped' in again ? '' : again.markdown,
        sections: page.sections.map((section) => ({ blocks: byId.get(section.id)?.blocks ?? [] })),
      };
      // Written again with its page file, unless the page's file changed since (the next read
      // of the folder parses it then).
      const shard = shardOf(page.file);
      if (shards[shard]!.get(page.file)?.page === page) {
        dirty.add(shard);
        void write();
      }
      return body;
    },
  };

  const load = async () => {
    await Promise.all(
      shards.map(async (kept, shard) => {
        const file = fileOf(shard);
        let fd: number;
        try {
          fd = openSync(file, 'r');
        } catch {
          return;
        }
        const pageFile = new PageFile(fd, file);
        if (readShard(pageFile, kept, shelf)) return;
        // Unreadable: its pages are parsed again, and the file is written again.
        kept.clear();
        dirty.add(shard);
        ignored.push(file);
      }),
    );
  };

  /** Writes the dirty page files, one at a time: each is megabytes on a large site. */
  const write = () =>
    (writing = writing.then(async () => {
      const shardsToWrite = [...dirty];
      dirty.clear();
      if (!shardsToWrite.length) return;
      try {
        await mkdir(dir, { recursive: true });
        for (const shard of shardsToWrite) writeShard(fileOf(shard), shards[shard]!);
      } catch (error) {
        failedWrite ??= (error as Error).message;
      }
    }));

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
      const kept =
        'skipped' in page
          ? page
          : 'packed' in page
            ? new KeptPage(page.packed.head, shelf, { unwritten: page.packed.body })
            : keptPage(page, shelf);
      shards[shard]!.set(file, { stamp, page: kept });
      dirty.add(shard);
      return kept;
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
      await write();
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

/** A page file's first line: what wrote it, and how long the rest is, and the heads' CRC-32. */
interface ShardHeader {
  version: string;
  pages: number;
  /** Bytes of the page lines (heads) after the header, and of the bodies after them. */
  heads: number;
  bodies: number;
  crc: number;
}

/**
 * Writes `file`: its header, a `[file, stamp, head, at, length, crc]` line per page (`at` counted
 * from the first body), then the bodies. Written to a temporary file beside it and renamed; the
 * pages then read their bodies from the new file, which stays open for them.
 */
function writeShard(file: string, kept: Map<string, Kept>): void {
  const bodies: Buffer[] = [];
  const placed: [KeptPage, number, number, number][] = [];
  let at = 0;
  const heads = [...kept]
    .map(([name, { stamp, page }]) => {
      if ('skipped' in page) return JSON.stringify([name, stamp, page]) + '\n';
      const bytes = page.bytes();
      const crc = crc32(bytes);
      bodies.push(bytes);
      placed.push([page, at, bytes.length, crc]);
      const line = JSON.stringify([name, stamp, headOf(page), at, bytes.length, crc]) + '\n';
      at += bytes.length;
      return line;
    })
    .join('');
  const headBytes = Buffer.from(heads);
  const header: ShardHeader = {
    version: cacheVersion(),
    pages: kept.size,
    heads: headBytes.length,
    bodies: at,
    crc: crc32(headBytes),
  };
  const headerBytes = Buffer.from(JSON.stringify(header) + '\n');
  const fd = writeWhole(file, [headerBytes, headBytes, ...bodies]);
  const pageFile = new PageFile(fd, file);
  const start = headerBytes.length + headBytes.length;
  for (const [page, from, length, crc] of placed)
    page.movedTo({ file: pageFile, at: start + from, length, crc });
}

/** Reads a page file's heads into `kept`: false when the file is not one of this version, whole. */
function readShard(file: PageFile, kept: Map<string, Kept>, shelf: Shelf): boolean {
  try {
    const size = fstatSync(file.fd).size;
    const first = Buffer.alloc(Math.min(size, 4096));
    readSync(file.fd, first, 0, first.length, 0);
    const end = first.indexOf(10);
    if (end === -1) return false;
    const header: unknown = JSON.parse(first.toString('utf8', 0, end));
    // Another version's file is never read: its pages may be shaped or parsed otherwise.
    if (
      !isShardHeader(header) ||
      header.version !== cacheVersion() ||
      size !== end + 1 + header.heads + header.bodies
    )
      return false;
    const heads = Buffer.allocUnsafe(header.heads);
    if (readSync(file.fd, heads, 0, heads.length, end + 1) !== heads.length) return false;
    if (crc32(heads) !== header.crc) return false;
    const start = end + 1 + header.heads;
    for (let from = 0; from < heads.length;) {
      const to = heads.indexOf(10, from);
      const line: unknown = JSON.parse(heads.toString('utf8', from, to));
      from = to + 1;
      if (!Array.isArray(line) || !isString(line[0]) || !isString(line[1]))
        throw new Error('not a page');
      const [name, stamp, head, at, length, crc] = line as unknown[];
      if (isRecord(head) && 'skipped' in head && isString(head.skipped)) {
        const { skipped, redirect } = head;
        kept.set(name as string, {
          stamp: stamp as string,
          page: { skipped, ...(isString(redirect) ? { redirect } : {}) },
        });
        continue;
      }
      if (
        !isHead(head) ||
        ![at, length, crc].every((n) => typeof n === 'number') ||
        (at as number) + (length as number) > header.bodies
      )
        throw new Error('not a page');
      const where = {
        file,
        at: start + (at as number),
        length: length as number,
        crc: crc as number,
      };
      kept.set(name as string, {
        stamp: stamp as string,
        page: new KeptPage(head, shelf, { where }),
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
    [value.pages, value.heads, value.bodies, value.crc].every((field) => typeof field === 'number')
  );
}

/** A page parsed in this process, held as a KeptPage until its page file is written. */
function keptPage(page: DocPage, shelf: Shelf): KeptPage {
  return new KeptPage(headOf(page), shelf, { held: bodyOf(page) });
}
