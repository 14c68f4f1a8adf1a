// An index in the form it is kept in (its documents, its terms, their postings as integers): built
// straight from documents (`flatIndexOf`, a first start), taken from a MiniSearch index (`flatten`,
// after an update) and made into one (`kept`, every start). index-cache.ts writes and reads it.
import MiniSearch, { type Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { ownString, WordTable } from './words.js';

/** A kept index: the ids of its documents, and itself, made with the options it was built with. */
export interface KeptIndex {
  ids: string[];
  load<T>(options: Options<T>): MiniSearch<T>;
}

/**
 * What of a MiniSearch index is not its terms: the `toJSON` fields, with documents as arrays of
 * `[shortId, value]` pairs (parsed without an object per document).
 */
export interface Documents {
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
 * An index as it is kept: its documents, its terms, and its postings: per term, the number of
 * fields it is in, then per field its id, the number of documents, and each document's short id
 * and term frequency.
 */
export interface FlatIndex {
  documents: Documents;
  terms: string[];
  postings: Uint32Array;
}

/**
 * A MiniSearch index as it is kept. Postings of discarded documents (`discard` leaves them until a
 * vacuum) are left out.
 */
export function flatten(index: MiniSearch): FlatIndex {
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

/**
 * The documents' stored fields, each distinct one once (equal as JSON), and each document's place
 * in them; only the `live` ones when given (an index's discarded documents keep theirs).
 */
function storedTable(
  fields: Map<number, Record<string, unknown>>,
  live?: Map<number, string>,
): Pick<Documents, 'storedFields' | 'stored'> {
  const stored: Record<string, unknown>[] = [];
  const places = new Map<string, number>();
  const storedFields: [number, number][] = [];
  for (const [shortId, record] of fields) {
    if (live && !live.has(shortId)) continue;
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
export function kept({ documents, terms, postings }: FlatIndex): KeptIndex {
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

/** The options an index is built with here: its tokenizer and term processing are always given. */
export type FlatOptions<T> = Options<T> & Required<Pick<Options<T>, 'tokenize' | 'processTerm'>>;

/**
 * A tokenizer that says how it makes its tokens (terms.ts): a text's tokens are its words (as
 * words.ts reads them: `split(WORD)`, empty strings left out), then each word's parts in the words'
 * order, then the tokens read across words. `flatIndexOf` then reads each text's words by a table
 * of the words it has met (words.ts `WordTable`), and finds each distinct word's tokens once,
 * instead of looking every token of every word up again.
 */
export interface WordTokenize {
  (text: string, field?: string): string[];
  /** A word's parts. */
  parts(word: string): string[];
  /** The tokens read across the text's words. */
  joined(text: string): string[];
}

const isWordTokenize = (tokenize: unknown): tokenize is WordTokenize =>
  typeof tokenize === 'function' && 'parts' in tokenize;

/** A column of 32-bit integers that grows as it is appended to. */
class Column {
  values = new Int32Array(1024);
  length = 0;
  /** Appends `value`; its place. */
  push(value: number): number {
    if (this.length === this.values.length) {
      const grown = new Int32Array(2 * this.length);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length] = value;
    return this.length++;
  }
}

/** Bytes in a chunk of `Pairs`: 1 MiB, so a chunk added is never a large copy. */
const CHUNK = 1 << 20;
/** Bytes of a list's first block, and of its largest, after the 4 of its next block's place. */
const FIRST_BLOCK = 8;
const LARGEST_BLOCK = 4096;
/** Integers per list in `Pairs`'s table. */
const LIST = 7;

/**
 * Lists of `[shortId, frequency]` pairs appended in short id order, a term's documents in one field
 * each, kept as bytes while the index is built: per pair, the document's distance from the list's
 * previous one and the frequency, each in 7 bits a byte (most are one or two bytes, instead of 8),
 * in blocks (`[next block's place: 4 bytes, ...bytes]`, each twice the last up to the largest) of
 * chunks of bytes. A list's last frequency is kept in its row of the table until the next document
 * (the document's distance is written at once).
 * At 20,000 pages this is about a fifth of the 32-bit integers it replaced (blocks of integers
 * twice the postings' size), and no array to copy when a list grows.
 */
export class Pairs {
  readonly #chunks: Uint8Array[] = [];
  /** Where the next block goes (chunk number × chunk size + place). */
  #free = 0;
  /**
   * Per list (`LIST` integers): its first block, its last block, where its next byte goes, where
   * its last block ends, its pairs, its last pair's document (-1 before) and that pair's frequency
   * (grown by doubling).
   */
  #lists = new Int32Array(LIST * 1024);
  #count = 0;

  /** Bytes a chunk holds. */
  readonly #size: number;

  /** `size`: bytes a chunk holds, 12 at the least (tests make it small). */
  constructor(size = CHUNK) {
    if (size < 4 + FIRST_BLOCK) throw new Error(`a chunk of ${size} bytes is too small`);
    this.#size = size;
  }

  /** A new list's number. */
  list(): number {
    if (LIST * this.#count === this.#lists.length) {
      const grown = new Int32Array(2 * this.#lists.length);
      grown.set(this.#lists);
      this.#lists = grown;
    }
    const n = this.#count++;
    const block = this.#block(FIRST_BLOCK);
    this.#lists.set([block, block, block + 4, block + 4 + FIRST_BLOCK, 0, -1, 0], LIST * n);
    return n;
  }

  /** One more use of the list's term in document `shortId` (not before its last). */
  add(n: number, shortId: number): void {
    const lists = this.#lists;
    const at = LIST * n;
    const last = lists[at + 5]!;
    if (last === shortId) {
      lists[at + 6]! += 1;
      return;
    }
    if (last >= 0) this.#write(at, lists[at + 6]!);
    this.#write(at, last >= 0 ? shortId - last : shortId);
    lists[at + 4]! += 1;
    lists[at + 5] = shortId;
    lists[at + 6] = 1;
  }

  /** The list's number of pairs. */
  size(n: number): number {
    return this.#lists[LIST * n + 4]!;
  }

  /** Writes the list's pairs into `into` from `at` as 32-bit integers; where they end. */
  copy(n: number, into: Uint32Array, at: number): number {
    const lists = this.#lists;
    const size = this.#size;
    let block = lists[LIST * n]!;
    let place = block + 4;
    let end = block + 4 + FIRST_BLOCK;
    let chunk = this.#chunks[Math.floor(block / size)]!;
    const readInteger = () => {
      let value = 0;
      for (let scale = 1; ; scale *= 128) {
        if (place === end) {
          const start = block % size;
          const capacity = this.#grown(end - block - 4);
          block = chunk[start]! | (chunk[start + 1]! << 8) | (chunk[start + 2]! << 16);
          block += chunk[start + 3]! * 2 ** 24;
          chunk = this.#chunks[Math.floor(block / size)]!;
          place = block + 4;
          end = place + capacity;
        }
        const byte = chunk[place++ % size]!;
        value += (byte & 127) * scale;
        if (byte < 128) return value;
      }
    };
    const count = lists[LIST * n + 4]!;
    let document = 0;
    for (let pair = 1; pair <= count; pair++) {
      document += readInteger();
      into[at++] = document;
      into[at++] = pair < count ? readInteger() : lists[LIST * n + 6]!;
    }
    return at;
  }

  /** Appends `value` to the list whose row is at `at`, 7 bits a byte, low bits first. */
  #write(at: number, value: number): void {
    const lists = this.#lists;
    for (;;) {
      if (lists[at + 2] === lists[at + 3]) this.#extend(at);
      const place = lists[at + 2]!++;
      const chunk = this.#chunks[Math.floor(place / this.#size)]!;
      if (value < 128) {
        chunk[place % this.#size] = value;
        return;
      }
      chunk[place % this.#size] = (value & 127) | 128;
      value = Math.floor(value / 128);
    }
  }

  /** A new last block for the list whose row is at `at`, linked from its last one. */
  #extend(at: number): void {
    const lists = this.#lists;
    const last = lists[at + 1]!;
    const capacity = this.#grown(lists[at + 3]! - last - 4);
    const next = this.#block(capacity);
    const chunk = this.#chunks[Math.floor(last / this.#size)]!;
    const start = last % this.#size;
    chunk[start] = next & 255;
    chunk[start + 1] = (next >>> 8) & 255;
    chunk[start + 2] = (next >>> 16) & 255;
    chunk[start + 3] = Math.floor(next / 2 ** 24);
    lists[at + 1] = next;
    lists[at + 2] = next + 4;
    lists[at + 3] = next + 4 + capacity;
  }

  /** The capacity of the block after one of `capacity` bytes: what `copy` reads, `#extend` makes. */
  #grown(capacity: number): number {
    return Math.min(2 * capacity, LARGEST_BLOCK, this.#size - 4);
  }

  /** A block of `capacity` bytes after its 4 of the next one's place, in the last chunk if it fits. */
  #block(capacity: number): number {
    if (this.#free + 4 + capacity > this.#chunks.length * this.#size) {
      this.#free = this.#chunks.length * this.#size;
      this.#chunks.push(new Uint8Array(this.#size));
    }
    const block = this.#free;
    this.#free += 4 + capacity;
    if (this.#free > 2 ** 31 - 1) throw new Error('an index of more than 2 GiB of postings');
    return block;
  }
}

/**
 * The index MiniSearch 7 would build from `documents` with `options`, in the form it is kept in
 * (index-cache.ts `flatten`: its documents, its terms, their postings), made without MiniSearch's
 * maps: a number per term instead of a radix tree walk per word read, and each term's documents
 * appended as numbers instead of a map of them. At 20,000 pages MiniSearch's own build was half of
 * a first start's index time and most of its memory; the kept form is what a warm start loads
 * anyway (`kept(...).load`). What it keeps per term, per distinct token of a field and per distinct
 * word is integers in columns, not an object and arrays each, and each of those is let go as soon
 * as it is done with: the tokens after the last document, the terms' map once they are in order.
 * `read` is called once every document is read and the tokens are let go. Ids, stored fields, field
 * lengths (their running average computed as MiniSearch does, so the floats are the same), terms
 * and postings come out identical: test/flat-index.test.ts compares them with MiniSearch's own on
 * real docs sets.
 */
export function flatIndexOf<T>(
  documents: Iterable<T>,
  options: FlatOptions<T>,
  read?: () => void,
): FlatIndex {
  const fields = options.fields;
  const idField = options.idField ?? 'id';
  const storeFields = options.storeFields ?? [];
  const extract =
    options.extractField ??
    ((document: T, field: string) => (document as Record<string, unknown>)[field]);
  const stringify =
    options.stringifyField ?? ((value: unknown) => (value as { toString(): string }).toString());

  const documentIds: [number, string][] = [];
  const seen = new Set<unknown>();
  const fieldLength: [number, number[]][] = [];
  const storedFields = new Map<number, Record<string, unknown>>();
  const averageFieldLength: number[] = [];
  let count = 0;

  // Terms numbered in the order first met (which orders MiniSearch's tree, below), and per term and
  // field its documents: a list of `pairs`, made the first time the term is met in the field.
  const pairs = new Pairs();
  const termNumbers = new Map<string, number>();
  const termLists = new Column();
  const listOf = (term: string, fieldId: number) => {
    let n = termNumbers.get(term);
    if (n === undefined) {
      termNumbers.set(ownString(term), (n = termNumbers.size));
      for (let f = 0; f < fields.length; f++) termLists.push(-1);
    }
    const at = n * fields.length + fieldId;
    let list = termLists.values[at]!;
    if (list < 0) termLists.values[at] = list = pairs.list();
    return list;
  };

  {
    const read = tokenReader(options, pairs, listOf);
    for (const document of documents) {
      const id = extract(document, idField);
      if (id == null) throw new Error(`MiniSearch: document does not have ID field "${idField}"`);
      if (seen.has(id)) throw new Error(`MiniSearch: duplicate ID ${String(id)}`);
      seen.add(id);
      const shortId = count++;
      documentIds.push([shortId, id as string]);
      if (storeFields.length > 0) {
        const stored: Record<string, unknown> = {};
        for (const field of storeFields) {
          const value = extract(document, field);
          if (value !== undefined) stored[field] = value;
        }
        storedFields.set(shortId, stored);
      }
      let lengths: number[] | undefined;
      for (const [fieldId, field] of fields.entries()) {
        const text = extract(document, field);
        if (text == null) continue;
        const unique = read(stringify(text, field), fieldId, shortId);
        (lengths ??= [])[fieldId] = unique;
        averageFieldLength[fieldId] =
          ((averageFieldLength[fieldId] || 0) * (count - 1) + unique) / count;
      }
      if (lengths) fieldLength.push([shortId, lengths]);
    }
  }

  // Most of what was read is garbage now: the caller may collect it before the tree and postings.
  read?.();
  // The terms in the order MiniSearch's radix tree lists them, which the order they were first
  // added decides: each enters the tree once, after the build, and the tree is let go.
  const terms: string[] = [];
  const order = new Int32Array(termNumbers.size);
  {
    const tree = new SearchableMap<number>();
    for (const [term, n] of termNumbers) tree.set(term, n);
    termNumbers.clear();
    for (const [term, n] of tree) order[terms.push(term) - 1] = n;
  }
  let size = terms.length;
  for (let at = 0; at < termLists.length; at++)
    if (termLists.values[at]! >= 0) size += 2 + 2 * pairs.size(termLists.values[at]!);
  const postings = new Uint32Array(size);
  let at = 0;
  for (const n of order) {
    const termFields = fields
      .map((_, fieldId) => [fieldId, termLists.values[n * fields.length + fieldId]!] as const)
      .filter(([, list]) => list >= 0)
      // In the order first met: lists are numbered as they are made.
      .sort((a, b) => a[1] - b[1]);
    postings[at++] = termFields.length;
    for (const [fieldId, list] of termFields) {
      postings[at++] = fieldId;
      postings[at++] = pairs.size(list);
      at = pairs.copy(list, postings, at);
    }
  }
  return {
    documents: {
      documentCount: count,
      nextId: count,
      fieldIds: Object.fromEntries(fields.map((field, n) => [field, n])),
      averageFieldLength,
      documentIds,
      fieldLength,
      ...storedTable(storedFields),
      postings: at,
    },
    terms,
    postings,
  };
}

/**
 * What reads the field values of an index's documents into `pairs`: `read(text, fieldId,
 * shortId)` adds each use of each term to its list in that field (`listOf`, which numbers the
 * terms as first met) and gives the number of distinct tokens (MiniSearch's field length). Per
 * field, each distinct token read is numbered (by the field's WordTable, then across fields in the
 * order first met); by number, the lists of its terms in the field (from `listsAt[n]` to
 * `listsAt[n + 1]` in `lists`), the field value it was last counted in, and once it is read as a
 * word, where its parts are in `parts` (their count, then their numbers; -1 before).
 */
function tokenReader<T>(
  { fields, tokenize, processTerm }: FlatOptions<T>,
  pairs: Pairs,
  listOf: (term: string, fieldId: number) => number,
): (text: string, fieldId: number, shortId: number) => number {
  const byWords = isWordTokenize(tokenize) ? tokenize : undefined;
  const tables = fields.map(() => new WordTable());
  /** Per field, the number of each token of its table. */
  const numbered = fields.map(() => new Column());
  const listsAt = new Column();
  listsAt.push(0);
  const lists = new Column();
  const counted = new Column();
  const partsAt = new Column();
  const parts = new Column();
  /** The number of the token its field's table numbers `local`, made when the table made it. */
  const numberOf = (local: number, fieldId: number) => {
    const column = numbered[fieldId]!;
    if (local < column.length) return column.values[local]!;
    const processed = processTerm(tables[fieldId]!.list[local]!, fields[fieldId]);
    const terms = Array.isArray(processed) ? processed : processed ? [processed] : [];
    for (const term of terms) lists.push(listOf(term, fieldId));
    listsAt.push(lists.length);
    counted.push(0);
    const n = partsAt.push(-1);
    column.push(n);
    return n;
  };
  const tokenOf = (token: string, fieldId: number) =>
    numberOf(tables[fieldId]!.number(token), fieldId);
  /** A word's number, its parts numbered too (after every word of its field value, as read). */
  const partsOf = (word: string, n: number, fieldId: number) => {
    const numbers = byWords!.parts(word).map((part) => tokenOf(part, fieldId));
    partsAt.values[n] = parts.push(numbers.length);
    for (const part of numbers) parts.push(part);
  };

  let value = 0;
  let unique = 0;
  let shortId = 0;
  /** One use of the token numbered `n` in the field value being read. */
  const tally = (n: number) => {
    if (counted.values[n] !== value) {
      counted.values[n] = value;
      unique++;
    }
    // Documents come in short id order: a document's earlier uses of a term are the last pair.
    for (let at = listsAt.values[n]!, end = listsAt.values[n + 1]!; at < end; at++)
      pairs.add(lists.values[at]!, shortId);
  };
  /**
   * The tokens of a field value, as `tokenize` would give them, each used: its words' tokens are
   * made in the order `tokenize` gives them (every word, then every word's parts).
   */
  let read = new Int32Array(256);
  const readWords = (text: string, fieldId: number) => {
    const table = tables[fieldId]!;
    const count = table.read(text);
    const local = table.numbers;
    if (read.length < count) read = new Int32Array(2 * count);
    for (let i = 0; i < count; i++) read[i] = numberOf(local[i]!, fieldId);
    for (let i = 0; i < count; i++)
      if (partsAt.values[read[i]!]! < 0) partsOf(table.list[local[i]!]!, read[i]!, fieldId);
    for (let i = 0; i < count; i++) {
      const n = read[i]!;
      tally(n);
      for (let at = partsAt.values[n]!, end = at + parts.values[at]!; at < end;)
        tally(parts.values[++at]!);
    }
    for (const token of byWords!.joined(text)) tally(tokenOf(token, fieldId));
  };

  return (text, fieldId, document) => {
    value++;
    unique = 0;
    shortId = document;
    if (byWords) readWords(text, fieldId);
    else for (const token of tokenize(text, fields[fieldId])) tally(tokenOf(token, fieldId));
    return unique;
  };
}
