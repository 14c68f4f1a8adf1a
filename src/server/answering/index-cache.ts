import { closeSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { isArrayOf, isNumber, isRecord, isString } from '../../protocol/_guards.js';
import type { DocsSite } from '../site/docs.js';
import { cacheVersion, digest, versionDir, writeWhole } from '../site/page-cache.js';
import { kept, type Documents } from './flat-index.js';
import type { IndexStore, SavedIndexes } from './retrieval.js';

/** What happened to a site's index at its last build: the CLI's start-up line says it. */
export type IndexOutcome = 'reused' | 'updated' | 'built';

/**
 * The built indexes of the sites served, one file per docs folder under `cacheDir`, written for
 * one `stamp` of the site's pages (docs.ts `stampOf`): a start on the same pages loads it instead
 * of building; any other start builds and writes it again. The file is a header line (this
 * version, the stamp, the length and CRC-32 of the rest), lines of JSON (the compounds, the page
 * stamps, and per index its documents and its terms), then each index's postings as 32-bit
 * integers: loading makes MiniSearch's maps straight from them, without the object per term and
 * field that its `toJSON` form parses into and `loadJS` then copies into maps. A file that cannot
 * be loaded is ignored, removed and rebuilt, and `warn` says so.
 */
export function diskIndexStore(
  cacheDir: string,
  warn: (line: string) => void,
): IndexStore & { outcome(site: DocsSite): IndexOutcome | undefined } {
  const dir = join(versionDir(cacheDir), 'index');
  const outcomes = new WeakMap<DocsSite, IndexOutcome>();
  const fileOf = (site: DocsSite) => join(dir, `${digest(resolve(site.dir ?? ''))}.index`);
  return {
    outcome: (site) => outcomes.get(site),
    load(site, restore) {
      if (!site.stamp) return undefined;
      const file = fileOf(site);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        outcomes.set(site, 'built');
        return undefined;
      }
      try {
        const { header, lines, postings } = readParts(bytes);
        // Another stamp is another state of the pages: not a fault, an update or a rebuild.
        const exact = header.stamp === site.stamp;
        const [compounds, stamps, pages, pageTerms, passages, passageTerms] = lines.map(
          (line): unknown => JSON.parse(line),
        );
        if (
          !isCompounds(compounds) ||
          !isPairs(stamps) ||
          !isDocuments(pages) ||
          !isDocuments(passages) ||
          !isArrayOf(pageTerms, isString) ||
          !isArrayOf(passageTerms, isString)
        )
          throw new Error('its parts are missing or damaged');
        const pagePostings = postings.subarray(0, pages.postings);
        const passagePostings = postings.subarray(pages.postings);
        if (passagePostings.length !== passages.postings)
          throw new Error('its parts are missing or damaged');
        const loaded = restore(
          {
            compounds,
            pages: kept({ documents: pages, terms: pageTerms, postings: pagePostings }),
            passages: kept({ documents: passages, terms: passageTerms, postings: passagePostings }),
            stamps,
          },
          exact,
        );
        outcomes.set(site, loaded === undefined ? 'built' : exact ? 'reused' : 'updated');
        return loaded;
      } catch (error) {
        warn(`Ignored the index cache ${file}: ${(error as Error).message}; built it again.`);
        rmSync(file, { force: true });
        outcomes.set(site, 'built');
        return undefined;
      }
    },
    save(site, saved) {
      if (!site.stamp) return;
      const file = fileOf(site);
      try {
        mkdirSync(dir, { recursive: true });
        const { compounds, pages, passages, stamps } = saved();
        // Written one part at a time, each let go once written: the passage index of a large site
        // is tens of megabytes of JSON and tens of millions of integers. The header, which sums
        // up the rest, goes last into the room left for it at the start.
        let textBytes = 0;
        let crc = 0;
        const counted = (part: Buffer) => {
          crc = crc32(part, crc);
          return part;
        };
        const parts = function* () {
          yield Buffer.alloc(HEADER_BYTES);
          for (const value of [
            compounds,
            stamps ?? [],
            pages.documents,
            pages.terms,
            passages.documents,
            passages.terms,
          ]) {
            const line = Buffer.from(JSON.stringify(value) + '\n');
            textBytes += line.length;
            yield counted(line);
          }
          // The postings start at a multiple of 4 bytes, so they are read in place as 32-bit
          // integers.
          const padding = Buffer.alloc((4 - (textBytes % 4)) % 4, 10);
          textBytes += padding.length;
          yield counted(padding);
          for (const ints of [pages.postings, passages.postings])
            yield counted(Buffer.from(ints.buffer, ints.byteOffset, ints.byteLength));
        };
        const header = () => {
          const line = JSON.stringify({
            version: cacheVersion(),
            stamp: site.stamp!,
            text: textBytes,
            postings: (pages.postings.length + passages.postings.length) * 4,
            crc,
          } satisfies Header);
          if (line.length >= HEADER_BYTES) throw new Error('its header is too long');
          // Padded in front to its room, a multiple of 4 bytes too.
          return Buffer.from(`${line}\n`.padStart(HEADER_BYTES, ' '));
        };
        closeSync(writeWhole(file, parts(), header));
      } catch (error) {
        warn(`Cannot keep the built index in ${file}: ${(error as Error).message}`);
      }
    },
  };
}

/** Bytes of an index file's first line, its header, padded in front with spaces. */
const HEADER_BYTES = 256;

/** An index file's first line. */
interface Header {
  version: string;
  stamp: string;
  /** Bytes of the JSON lines after the header, and of the postings after them. */
  text: number;
  postings: number;
  /** CRC-32 of everything after the header. */
  crc: number;
}

/** The header, JSON lines and postings of an index file, or an error saying why it cannot be read. */
function readParts(bytes: Buffer): { header: Header; lines: string[]; postings: Uint32Array } {
  const end = bytes.indexOf(10);
  const header: unknown = JSON.parse(bytes.toString('utf8', 0, end));
  if (!isRecord(header) || header.version !== cacheVersion())
    throw new Error('not an index of this version');
  if (!isHeader(header)) throw new Error('its header is damaged');
  const { text, postings } = header;
  const body = bytes.subarray(end + 1);
  if (body.length !== text + postings || crc32(body) !== header.crc)
    throw new Error('it was cut short or changed');
  const lines = body.toString('utf8', 0, text).trimEnd().split('\n');
  const at = body.byteOffset + text;
  const ints =
    at % 4 === 0
      ? new Uint32Array(body.buffer, at, postings / 4)
      : new Uint32Array(new Uint8Array(body.subarray(text)).buffer);
  return { header, lines, postings: ints };
}

function isHeader(value: Record<string, unknown>): value is Record<string, unknown> & Header {
  return (
    isString(value.version) &&
    isString(value.stamp) &&
    [value.text, value.postings, value.crc].every(isNumber) &&
    Number(value.postings) % 4 === 0
  );
}

function isCompounds(value: unknown): value is SavedIndexes['compounds'] {
  return isArrayOf(
    value,
    (entry): entry is [string, string[]] =>
      Array.isArray(entry) && isString(entry[0]) && isArrayOf(entry[1], isString),
  );
}

function isPairs(value: unknown): value is [string, string][] {
  return isArrayOf(
    value,
    (entry): entry is [string, string] =>
      Array.isArray(entry) && isString(entry[0]) && isString(entry[1]),
  );
}

const isShortIdPair =
  <T>(item: (value: unknown) => value is T) =>
  (entry: unknown): entry is [number, T] =>
    Array.isArray(entry) && isNumber(entry[0]) && item(entry[1]);

function isDocuments(value: unknown): value is Documents {
  return (
    isRecord(value) &&
    [value.documentCount, value.nextId, value.postings].every(isNumber) &&
    isRecord(value.fieldIds) &&
    Object.values(value.fieldIds).every(isNumber) &&
    isArrayOf(value.averageFieldLength, isNumber) &&
    isArrayOf(value.documentIds, isShortIdPair(isString)) &&
    isArrayOf(
      value.fieldLength,
      isShortIdPair((lengths): lengths is number[] => isArrayOf(lengths, isNumber)),
    ) &&
    isArrayOf(value.storedFields, isShortIdPair(isNumber)) &&
    isArrayOf(value.stored, isRecord)
  );
}
