import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import MiniSearch, { type Options } from 'minisearch';
import { isRecord } from '../../protocol/_guards.js';
import type { DocsSite } from '../site/docs.js';
import { cacheVersion, digest, temporaryBeside, versionDir } from '../site/page-cache.js';
import type { IndexStore, KeptIndex, SavedIndexes } from './retrieval.js';

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
            pages: kept(pages, pageTerms, pagePostings),
            passages: kept(passages, passageTerms, passagePostings),
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
      const temporary = temporaryBeside(file);
      let fd: number | undefined;
      try {
        mkdirSync(dir, { recursive: true });
        const { compounds, pages, passages, stamps } = saved();
        const [pageParts, passageParts] = [flatten(pages), flatten(passages)];
        // One part at a time: the passage index of a large site is tens of millions of integers.
        const text = [
          JSON.stringify(compounds),
          JSON.stringify(stamps ?? []),
          JSON.stringify(pageParts.documents),
          JSON.stringify(pageParts.terms),
          JSON.stringify(passageParts.documents),
          JSON.stringify(passageParts.terms),
        ].map((line) => Buffer.from(line + '\n'));
        const textBytes = text.reduce((sum, part) => sum + part.length, 0);
        // The postings start at a multiple of 4 bytes, so they are read in place as 32-bit integers.
        const padding = Buffer.alloc((4 - (textBytes % 4)) % 4, 10);
        const binary = [pageParts.postings, passageParts.postings].map((ints) =>
          Buffer.from(ints.buffer, ints.byteOffset, ints.byteLength),
        );
        const parts = [...text, padding, ...binary];
        const header: Header = {
          version: cacheVersion(),
          stamp: site.stamp,
          text: textBytes + padding.length,
          postings: (pageParts.postings.length + passageParts.postings.length) * 4,
          crc: parts.reduce((crc, part) => crc32(part, crc), 0),
        };
        let headerLine = JSON.stringify(header) + '\n';
        // The header is padded to a multiple of 4 bytes too.
        headerLine = headerLine.padStart(Math.ceil(headerLine.length / 4) * 4, ' ');
        fd = openSync(temporary, 'w');
        for (const part of [Buffer.from(headerLine), ...parts]) writeSync(fd, part);
        closeSync(fd);
        fd = undefined;
        renameSync(temporary, file);
      } catch (error) {
        // A data folder under a regular file fails here too (ENOTDIR): never throw from the catch.
        try {
          if (fd !== undefined) closeSync(fd);
          rmSync(temporary, { force: true });
        } catch {
          // Nothing was written.
        }
        warn(`Cannot keep the built index in ${file}: ${(error as Error).message}`);
      }
    },
  };
}

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

/**
 * What of a MiniSearch index is not its terms: the `toJSON` fields, with documents as arrays of
 * `[shortId, value]` pairs (parsed without an object per document).
 */
interface Documents {
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  documentIds: [number, string][];
  fieldLength: [number, number[]][];
  /**
   * Each document's stored fields as `[shortId, n]`, `n` the place of its fields in `stored`: every
   * passage of a page stores the same scope, so it is kept once per page instead of once per passage.
   */
  storedFields: [number, number][];
  /** The distinct stored fields of the documents. */
  stored: Record<string, unknown>[];
  /** How many integers its postings are. */
  postings: number;
}

/**
 * MiniSearch 7's state, in its protected fields: what `toJSON` reads and `loadJS` writes. Read
 * and written here so the postings go to and from integers without an object per term and field;
 * the `minisearch` version is part of the cache's version (page-cache.ts), so another MiniSearch
 * never reads these files.
 */
interface State {
  _index: {
    /** SearchableMap's radix tree and its cached size. */
    _tree: Map<string, unknown>;
    _size: number | undefined;
    set(term: string, data: Map<number, Frequencies> | TermPostings): unknown;
    [Symbol.iterator](): Iterator<[string, Map<number, Frequencies> | TermPostings]>;
  };
  _documentCount: number;
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _nextId: number;
  _storedFields: Map<number, Record<string, unknown>>;
  _dirtCount: number;
}
const stateOf = (index: MiniSearch): State => index as unknown as State;

/**
 * An index's documents, its terms, and its postings: per term, the number of fields it is in, then
 * per field its id, the number of documents, and each document's short id and term frequency.
 * Postings of discarded documents (`discard` leaves them until a vacuum) are left out.
 */
function flatten(index: MiniSearch): {
  documents: Documents;
  terms: string[];
  postings: Uint32Array;
} {
  const state = stateOf(index);
  const live = state._documentIds;
  let size = 0;
  // A kept term never read is copied from its postings without being made into maps.
  const fieldsOf = (data: Map<number, Frequencies> | TermPostings) =>
    data instanceof TermPostings ? data.peek() : data;
  for (const [, data] of state._index) {
    size += 1;
    for (const [, docs] of fieldsOf(data)) {
      size += 2;
      for (const shortId of docs.keys()) if (live.has(shortId)) size += 2;
    }
  }
  const postings = new Uint32Array(size);
  const terms: string[] = [];
  let at = 0;
  for (const [term, data] of state._index) {
    terms.push(term);
    const fieldsAt = at++;
    let fields = 0;
    for (const [fieldId, docs] of fieldsOf(data)) {
      const countAt = at + 1;
      postings[at] = fieldId;
      at += 2;
      let count = 0;
      let sorted = true;
      for (const [shortId, frequency] of docs)
        if (live.has(shortId)) {
          if (count > 0 && postings[at - 2]! > shortId) sorted = false;
          postings[at++] = shortId;
          postings[at++] = frequency;
          count++;
        }
      // Postings.get searches them by short id: in the order added, unless a document came back.
      if (!sorted) sortPairs(postings.subarray(countAt + 1, at));
      if (count === 0) at -= 2;
      else {
        postings[countAt] = count;
        fields++;
      }
    }
    postings[fieldsAt] = fields;
  }
  return {
    documents: {
      documentCount: state._documentCount,
      nextId: state._nextId,
      fieldIds: state._fieldIds,
      averageFieldLength: state._avgFieldLength,
      documentIds: [...state._documentIds],
      fieldLength: [...state._fieldLength].filter(([shortId]) => live.has(shortId)),
      ...storedTable(state._storedFields, live),
      postings: at,
    },
    terms,
    postings: postings.subarray(0, at),
  };
}

/** The live documents' stored fields, each distinct one once (equal as JSON), and each document's place in them. */
function storedTable(
  fields: Map<number, Record<string, unknown>>,
  live: Map<number, string>,
): Pick<Documents, 'storedFields' | 'stored'> {
  const stored: Record<string, unknown>[] = [];
  const places = new Map<string, number>();
  const storedFields: [number, number][] = [];
  for (const [shortId, record] of fields) {
    if (!live.has(shortId)) continue;
    const key = JSON.stringify(record);
    let n = places.get(key);
    if (n === undefined) {
      places.set(key, (n = stored.length));
      stored.push(record);
    }
    storedFields.push([shortId, n]);
  }
  return { storedFields, stored };
}

/** What MiniSearch 7 does with a term's documents in one field (a Map of short id to frequency). */
interface Frequencies extends Iterable<[number, number]> {
  readonly size: number;
  get(shortId: number): number | undefined;
  has(shortId: number): boolean;
  set(shortId: number, frequency: number): unknown;
  delete(shortId: number): boolean;
  keys(): IterableIterator<number>;
  entries(): IterableIterator<[number, number]>;
}

/**
 * A term's documents in one field, read in place from a kept index's postings (`[shortId,
 * frequency]` pairs in short id order) instead of a Map of them: what MiniSearch reads of its
 * `Map<shortId, frequency>` (`size`, `keys`, `get`, iteration) in a tenth of its memory, and no
 * map to make at start. The first change (an update's `add` or `discard`, a vacuum) makes it a Map.
 */
class Postings implements Frequencies {
  private map: Map<number, number> | undefined;
  /** The pair `keys()` gave last: the search asks for its frequency next. */
  private last = 0;
  constructor(
    private readonly ints: Uint32Array,
    private readonly at: number,
    private readonly count: number,
  ) {}
  get size() {
    return this.map ? this.map.size : this.count;
  }
  get(shortId: number): number | undefined {
    if (this.map) return this.map.get(shortId);
    const { ints, at } = this;
    if (ints[at + 2 * this.last] === shortId) return ints[at + 2 * this.last + 1];
    let [low, high] = [0, this.count - 1];
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const id = ints[at + 2 * middle]!;
      if (id === shortId) return ints[at + 2 * middle + 1];
      if (id < shortId) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
  has(shortId: number) {
    return this.get(shortId) !== undefined;
  }
  *keys(): MapIterator<number> {
    if (this.map) return yield* this.map.keys();
    for (let i = 0; i < this.count; i++) {
      this.last = i;
      yield this.ints[this.at + 2 * i]!;
    }
  }
  *entries(): MapIterator<[number, number]> {
    if (this.map) return yield* this.map.entries();
    for (let i = 0; i < this.count; i++)
      yield [this.ints[this.at + 2 * i]!, this.ints[this.at + 2 * i + 1]!];
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  set(shortId: number, frequency: number) {
    (this.map ??= new Map(this.entries())).set(shortId, frequency);
    return this;
  }
  delete(shortId: number) {
    return (this.map ??= new Map(this.entries())).delete(shortId);
  }
}

/**
 * A term's documents in every field, read in place from a kept index's postings (the number of
 * fields, then per field its id, count and pairs): what MiniSearch and the scoring read of its
 * `Map<fieldId, postings>`. Made into a Map of Postings only when the term is first read: most of
 * a large site's terms (606,000 at 20,000 pages) are never searched, and a Map and a Postings per
 * term and field made at start were most of a warm start's memory for the index.
 */
class TermPostings implements Iterable<[number, Frequencies]> {
  private fields: Map<number, Frequencies> | undefined;
  constructor(
    private readonly ints: Uint32Array,
    private readonly at: number,
  ) {}
  /** Its fields as a Map, the same one each time (the scoring keeps what it read by object). */
  private decoded(): Map<number, Frequencies> {
    return (this.fields ??= this.read());
  }
  /** Its fields as a Map: the decoded one, else a new one left for the collector. */
  peek(): Map<number, Frequencies> {
    return this.fields ?? this.read();
  }
  private read(): Map<number, Frequencies> {
    const { ints } = this;
    const fields = new Map<number, Frequencies>();
    let at = this.at;
    for (let n = ints[at++]!; n > 0; n--) {
      const fieldId = ints[at++]!;
      const count = ints[at++]!;
      fields.set(fieldId, new Postings(ints, at, count));
      at += 2 * count;
    }
    return fields;
  }
  get size() {
    return this.fields ? this.fields.size : this.ints[this.at]!;
  }
  get(fieldId: number) {
    return this.decoded().get(fieldId);
  }
  has(fieldId: number) {
    return this.decoded().has(fieldId);
  }
  set(fieldId: number, postings: Frequencies) {
    this.decoded().set(fieldId, postings);
    return this;
  }
  delete(fieldId: number) {
    return this.decoded().delete(fieldId);
  }
  keys() {
    return this.decoded().keys();
  }
  values() {
    return this.decoded().values();
  }
  entries() {
    return this.decoded().entries();
  }
  [Symbol.iterator]() {
    return this.decoded().entries();
  }
  forEach(each: (postings: Frequencies, fieldId: number, map: Map<number, Frequencies>) => void) {
    this.decoded().forEach(each);
  }
}

/** Sorts `[key, value]` pairs laid out flat by key. */
function sortPairs(pairs: Uint32Array): void {
  const sorted = Array.from({ length: pairs.length / 2 }, (_, i) => [
    pairs[2 * i]!,
    pairs[2 * i + 1]!,
  ])
    .sort((a, b) => a[0]! - b[0]!)
    .flat();
  pairs.set(sorted);
}

/** A kept index, made into a MiniSearch with the options it was built with. */
function kept(documents: Documents, terms: string[], postings: Uint32Array): KeptIndex {
  return {
    ids: documents.documentIds.map(([, id]) => id),
    load<T>(options: Options<T>): MiniSearch<T> {
      const index = new MiniSearch<T>(options);
      const state = stateOf(index);
      state._documentCount = documents.documentCount;
      state._nextId = documents.nextId;
      state._fieldIds = documents.fieldIds;
      state._avgFieldLength = documents.averageFieldLength;
      state._dirtCount = 0;
      state._documentIds = new Map(documents.documentIds);
      state._idToShortId = new Map(documents.documentIds.map(([shortId, id]) => [id, shortId]));
      state._fieldLength = new Map(documents.fieldLength);
      const { stored } = documents;
      state._storedFields = new Map(
        documents.storedFields.map(([shortId, n]): [number, Record<string, unknown>] => {
          const fields = stored[n];
          if (!fields) throw new Error('its stored fields do not match its documents');
          return [shortId, fields];
        }),
      );
      const places = new Uint32Array(terms.length);
      let at = 0;
      for (let n = 0; n < terms.length; n++) {
        places[n] = at;
        for (let fields = postings[at++]!; fields > 0; fields--) at += 2 + 2 * postings[at + 1]!;
      }
      if (at !== postings.length) throw new Error('its postings do not match its terms');
      state._index._tree = treeOf(terms, (n) => new TermPostings(postings, places[n]!));
      state._index._size = undefined;
      return index;
    },
  };
}

/** The key of a term's own value in a node of SearchableMap's tree. */
const LEAF = '';
const NONE = Symbol('none');

/**
 * A node of the kept tree made for one term: what SearchableMap reads of its Map per node (`get`,
 * `has`, `keys`, `size`…) for a node that holds the term's value alone, as most of a large site's
 * 606,000 do, in a fifth of a Map's memory. The first other key (an update adding a longer term)
 * makes it a Map inside, in the same key order.
 */
class TermNode {
  private map: Map<string, unknown> | undefined;
  constructor(private value: unknown = NONE) {}
  private asMap(): Map<string, unknown> {
    if (!this.map) {
      this.map = new Map(this.value === NONE ? [] : [[LEAF, this.value]]);
      this.value = NONE;
    }
    return this.map;
  }
  get size() {
    return this.map ? this.map.size : this.value === NONE ? 0 : 1;
  }
  get(key: string): unknown {
    if (this.map) return this.map.get(key);
    return key === LEAF && this.value !== NONE ? this.value : undefined;
  }
  has(key: string): boolean {
    return this.map ? this.map.has(key) : key === LEAF && this.value !== NONE;
  }
  set(key: string, value: unknown): this {
    if (!this.map && key === LEAF) this.value = value;
    else this.asMap().set(key, value);
    return this;
  }
  delete(key: string): boolean {
    if (this.map) return this.map.delete(key);
    if (key !== LEAF || this.value === NONE) return false;
    this.value = NONE;
    return true;
  }
  clear(): void {
    this.map?.clear();
    this.value = NONE;
  }
  keys(): IterableIterator<string> {
    return this.map ? this.map.keys() : (this.value === NONE ? [] : [LEAF]).values();
  }
  values(): IterableIterator<unknown> {
    return this.asMap().values();
  }
  entries(): IterableIterator<[string, unknown]> {
    return this.asMap().entries();
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  forEach(each: (value: unknown, key: string, map: Map<string, unknown>) => void): void {
    this.asMap().forEach(each);
  }
}

/**
 * MiniSearch's radix tree of `terms` (SearchableMap's `_tree`: a Map per node, keyed by the letters
 * of each edge, a term's value under LEAF), made in one pass as it was when `terms` were listed
 * from it (`flatten` iterates it). SearchableMap iterates a node's keys last first, so read
 * backwards the listing visits every node's keys in their order, each child's terms together: each
 * node is made once with its keys in the same order, where `set` looked for each term's place from
 * the root (a fifth of a warm start at 20,000 pages) and moved an edge it split to the end of its
 * node, so the tree came back in another order than the one built (and its matched words, and the
 * last bits of a prefix or fuzzy match's score, with it).
 */
function treeOf(terms: string[], valueOf: (n: number) => unknown): Map<string, unknown> {
  const root = new Map<string, unknown>();
  // The path to the last term: each node, its letters from the root, and the last key set on it.
  const nodes: (Map<string, unknown> | TermNode)[] = [root];
  const prefixes = [''];
  const lastKeys: (string | undefined)[] = [undefined];
  for (let n = terms.length - 1; n >= 0; n--) {
    const term = terms[n]!;
    while (!term.startsWith(prefixes.at(-1)!)) {
      nodes.pop();
      prefixes.pop();
      lastKeys.pop();
      if (!nodes.length) throw new Error('its terms are not in the order of their tree');
    }
    for (;;) {
      const top = nodes.length - 1;
      const node = nodes[top]!;
      const prefix = prefixes[top]!;
      if (prefix.length === term.length) {
        if (node.has(LEAF)) throw new Error('its terms are not in the order of their tree');
        node.set(LEAF, valueOf(n));
        lastKeys[top] = LEAF;
        break;
      }
      // Only the node's last key may share letters with the term: its other keys' terms are done.
      const key = lastKeys[top];
      let shared = 0;
      if (key) while (shared < key.length && key[shared] === term[prefix.length + shared]) shared++;
      if (key && shared === key.length)
        throw new Error('its terms are not in the order of their tree');
      if (shared > 0) {
        // The term leaves the edge part way: a node where they part, in the edge's place.
        const head = key!.slice(0, shared);
        const tail = key!.slice(shared);
        const parted = new Map<string, unknown>([[tail, node.get(key!)]]);
        node.delete(key!);
        node.set(head, parted);
        lastKeys[top] = head;
        nodes.push(parted);
        prefixes.push(prefix + head);
        lastKeys.push(tail);
        continue;
      }
      const edge = term.slice(prefix.length);
      const child = new TermNode(valueOf(n));
      node.set(edge, child);
      lastKeys[top] = edge;
      nodes.push(child);
      prefixes.push(term);
      lastKeys.push(LEAF);
      break;
    }
  }
  return root;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isArrayOf = <T>(value: unknown, item: (value: unknown) => value is T): value is T[] =>
  Array.isArray(value) && value.every(item);

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

const isNumber = (value: unknown): value is number => typeof value === 'number';
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
