import type MiniSearch from 'minisearch';

/**
 * MiniSearch's search, scored again over its own index with the same arithmetic in the same order,
 * so every score is the one `index.search` gives, bit for bit. MiniSearch makes an object, a map
 * entry and a `match` record per matching document and term, then a result per document, which at
 * 20,000 pages was most of an answer's CPU; this keeps scores in typed arrays indexed by the
 * index's own short document ids, lets the caller leave documents out before they are scored
 * (`boostOf` returning 0, as MiniSearch's `boostDocument` does), and counts or checks matches
 * without scoring them. It reads MiniSearch 7's internal fields (see `Internals`), checked when it
 * is created.
 */

/**
 * A term's documents in one field and their frequencies: a Map in a built index, a kept index's
 * postings (index-cache.ts) otherwise, which read like one.
 */
interface Frequencies {
  readonly size: number;
  get(doc: number): number | undefined;
  has(doc: number): boolean;
  keys(): Iterable<number>;
}
/** A term's postings: field id → document short id → term frequency. */
type FieldData = Map<number, Frequencies>;

/** The parts of a MiniSearch 7 instance its search reads. */
interface Internals {
  _index: {
    get(term: string): FieldData | undefined;
    atPrefix(prefix: string): Iterable<[string, FieldData]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [FieldData, number]>;
  };
  _documentIds: Map<number, unknown>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, Record<string, unknown> | undefined>;
  _documentCount: number;
  _nextId: number;
  _dirtCount: number;
  _options: {
    fields: string[];
    tokenize: (text: string) => string[];
    processTerm: (term: string) => string | string[] | null | undefined | false;
  };
}

/** The search options the index was made with, as `SEARCH_DEFAULTS` gives them. */
export interface ScoringOptions {
  boost: Record<string, number>;
  bm25: { k: number; b: number; d: number };
  prefix: (term: string) => boolean;
  fuzzy: (term: string) => number | false;
}

/** MiniSearch's defaults for what its options here leave out. */
const MAX_FUZZY = 6;
const FUZZY_WEIGHT = 0.45;
const PREFIX_WEIGHT = 0.375;

/** Postings kept as arrays, in all: about 8 bytes each. */
const POSTINGS_KEPT = 8_000_000;
/** Postings a chunk of them holds, at most (2 MB). */
const CHUNK_POSTINGS = 1 << 18;
/** Fuzzy and prefix expansions kept per term: a long-running server sees ever new questions. */
const EXPANSIONS_KEPT = 20_000;

/**
 * A search that lists its candidates reads a term's postings through only when they are at most
 * this many times as many as the candidates; longer ones are searched for each candidate.
 */
const SEARCHED_SHARE = 8;

/** The first position from `from` on where the ascending `docs` reach `doc` (docs.length: none). */
function firstAtLeast(docs: Int32Array, from: number, doc: number): number {
  if (from >= docs.length || docs[from]! >= doc) return from;
  // Galloping: candidates are far apart in a long list, so the step doubles before halving.
  let [low, step] = [from, 1];
  while (low + step < docs.length && docs[low + step]! < doc) {
    low += step;
    step *= 2;
  }
  let high = Math.min(low + step, docs.length);
  // docs[low] < doc, and docs[high] >= doc or high is the end.
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (docs[middle]! < doc) low = middle;
    else high = middle;
  }
  return high;
}

/** A query term as the index reads it: the term and the terms it stands for, each with its weight. */
interface Derived {
  term: string;
  weight: number;
  data: FieldData;
}

export interface Matches {
  /**
   * Matching documents' short ids, in the order MiniSearch's results map holds them. Like `score`,
   * kept until the next search of the same index (whose buffers they are).
   */
  docs: Int32Array;
  /** A document's score (by short id), multiplied by the number of query terms it matched. */
  score: Float64Array;
  /**
   * The query terms a document matched, in MiniSearch's order (its result's `queryTerms`); the
   * same array for documents that matched the same terms (not to be changed).
   */
  queryTerms(doc: number): string[];
  /** The index terms a document matched (its result's `terms`). */
  terms(doc: number): string[];
  /** Every index term some scored document matched (the union of the results' `terms`). */
  matched: Set<string>;
}

export interface Scoring {
  /** The index's documents by short id: their ids and stored fields. */
  ids: unknown[];
  stored: (Record<string, unknown> | undefined)[];
  /** The terms MiniSearch searches for a query string (its tokenizer and term processing). */
  termsOf(query: string): string[];
  /**
   * Scores the documents that match `terms` as MiniSearch's search does (OR of the terms; each
   * document's boost from `boostOf`, 0 leaving it out; each term's from `boostTerm`).
   */
  match(
    terms: string[],
    boostOf: ((doc: number) => number) | undefined,
    boostTerm?: (term: string) => number,
    /** Every document `boostOf` keeps, in ascending order, when they are few: read faster. */
    within?: Int32Array,
  ): Matches;
  /** How many documents match `terms` (the length of MiniSearch's results), without scoring them. */
  count(terms: string[], boostOf: ((doc: number) => number) | undefined): number;
  /** Marks the documents that match `terms` with `mark` in `marks` (by short id). */
  mark(
    terms: string[],
    boostOf: ((doc: number) => number) | undefined,
    marks: Int32Array,
    mark: number,
  ): void;
  /** Whether a document that `boostOf` keeps holds `term` as it is (no prefix, no near spelling). */
  holds(term: string, boostOf: ((doc: number) => number) | undefined): boolean;
  /** Whether a document holds `term` as it is, in any field (looked up, not scored). */
  holder(term: string): (doc: number) => boolean;
  /** The documents that hold `term` as it is, in any field. */
  holding(term: string): Set<number>;
  /** Short ids run below this. */
  size: number;
}

export function createScoring(index: MiniSearch<never>, options: ScoringOptions): Scoring {
  const inner = index as unknown as Internals;
  if (
    !(inner._index && inner._documentIds instanceof Map && inner._fieldLength instanceof Map) ||
    typeof inner._nextId !== 'number' ||
    !Array.isArray(inner._avgFieldLength)
  )
    throw new Error('MiniSearch is not the version this scoring reads (7.x)');
  const { tokenize, processTerm } = inner._options;
  const size = inner._nextId;
  const documentCount = inner._documentCount;
  const fields = inner._options.fields.map((field) => ({
    id: inner._fieldIds[field]!,
    boost: Object.prototype.hasOwnProperty.call(options.boost, field)
      ? options.boost[field] || 1
      : 1,
  }));
  const fieldCount = Math.max(...fields.map((field) => field.id)) + 1;
  const ids: unknown[] = new Array(size);
  const stored: (Record<string, unknown> | undefined)[] = new Array(size);
  const alive = new Uint8Array(size);
  const lengths = new Float64Array(size * fieldCount);
  for (const [doc, id] of inner._documentIds) {
    ids[doc] = id;
    alive[doc] = 1;
    stored[doc] = inner._storedFields.get(doc);
    const length = inner._fieldLength.get(doc) ?? [];
    for (let f = 0; f < fieldCount; f++) lengths[doc * fieldCount + f] = length[f] ?? 0;
  }
  // Discarded documents stay in the postings until vacuumed; MiniSearch skips them as it meets
  // them (and then counts them out of the term's idf), so they are counted out here from the start.
  const dirty = inner._dirtCount > 0;
  /**
   * A term's postings in one field as two arrays, in the order the index iterates them: read once
   * (a kept index's postings are iterated by a generator, a built one's are a Map), then kept while
   * they total at most POSTINGS_KEPT. They are laid out in chunks made once and reused after a
   * clear: arrays made for each new term's postings grew the memory outside V8's heap by about
   * 200 KB an answer at 20,000 pages, and V8 answers that growth by collecting the whole heap (a
   * gigabyte there, seconds of one answer).
   */
  const packed = new Map<
    object,
    { docs: Int32Array; freqs: Int32Array; matching: number; ascending: boolean }
  >();
  let packedSize = 0;
  const chunkSize = Math.min(CHUNK_POSTINGS, Math.max(4096, 4 * size));
  const chunks: Int32Array[] = [];
  let [chunkAt, chunkUsed] = [0, 0];
  /** Room for `n` postings in the chunks (a longer list gets its own), or none when they are full. */
  const roomFor = (n: number): [Int32Array, Int32Array] | undefined => {
    if (n > chunkSize) {
      const own = new Int32Array(2 * n);
      return [own.subarray(0, n), own.subarray(n)];
    }
    if (chunkUsed + n > chunkSize) {
      if ((chunkAt + 2) * chunkSize > POSTINGS_KEPT) return undefined;
      [chunkAt, chunkUsed] = [chunkAt + 1, 0];
    }
    const chunk = (chunks[chunkAt] ??= new Int32Array(2 * chunkSize));
    const at = chunkUsed;
    chunkUsed += n;
    return [chunk.subarray(at, at + n), chunk.subarray(chunkSize + at, chunkSize + at + n)];
  };
  const packedOf = (postings: Frequencies) => {
    let found = packed.get(postings);
    if (found) return found;
    let room = packedSize + postings.size <= POSTINGS_KEPT ? roomFor(postings.size) : undefined;
    if (!room) {
      packed.clear();
      [packedSize, chunkAt, chunkUsed] = [0, 0, 0];
      room = roomFor(postings.size)!;
    }
    const [docs, freqs] = room;
    let n = 0;
    let matching = 0;
    const add = (freq: number, doc: number) => {
      docs[n] = doc;
      freqs[n++] = freq;
      matching += alive[doc] ?? 0;
    };
    // Not `for … of` its entries: a pair made for each posting was half of what a search
    // allocated at 20,000 pages. A kept index's postings give a key's frequency cheaply right
    // after giving the key.
    if (postings instanceof Map) postings.forEach(add);
    else for (const doc of postings.keys()) add(postings.get(doc)!, doc);
    let ascending = true;
    for (let i = 1; i < n && ascending; i++) ascending = docs[i - 1]! < docs[i]!;
    found = {
      docs: docs.subarray(0, n),
      freqs: freqs.subarray(0, n),
      matching: dirty ? matching : postings.size,
      ascending,
    };
    packed.set(postings, found);
    packedSize += n;
    return found;
  };

  const expansions = new Map<string, Derived[]>();
  /** A term and what it stands for, in MiniSearch's order: itself, its prefixes, its near spellings. */
  const derivedOf = (term: string): Derived[] => {
    let found = expansions.get(term);
    if (found) return found;
    found = [];
    const exact = inner._index.get(term);
    if (exact) found.push({ term, weight: 1, data: exact });
    const fuzzy = options.fuzzy(term);
    let near: Map<string, [FieldData, number]> | undefined;
    if (fuzzy !== false) {
      const distance = fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy;
      if (distance) near = inner._index.fuzzyGet(term, distance);
    }
    if (options.prefix(term))
      for (const [longer, data] of inner._index.atPrefix(term)) {
        const distance = longer.length - term.length;
        if (!distance) continue;
        near?.delete(longer);
        const weight = (PREFIX_WEIGHT * longer.length) / (longer.length + 0.3 * distance);
        found.push({ term: longer, weight, data });
      }
    if (near)
      for (const [other, [data, distance]] of near) {
        if (!distance) continue;
        found.push({
          term: other,
          weight: (FUZZY_WEIGHT * other.length) / (other.length + distance),
          data,
        });
      }
    if (expansions.size >= EXPANSIONS_KEPT) expansions.clear();
    expansions.set(term, found);
    return found;
  };

  // Buffers reused by every search (one search at a time: the server answers on one thread).
  const total = new Float64Array(size);
  const specScore = new Float64Array(size);
  const seen = new Int32Array(size);
  const inSpec = new Int32Array(size);
  let epoch = 0;
  let specEpoch = 0;
  /** The query terms each document matched, one bit per distinct term. */
  let masks = new Uint32Array(0);
  const counts = new Uint8Array(size);
  /** A search's matching documents, and the documents one of its terms matched. */
  const found = new Int32Array(size);
  const spec = new Int32Array(size);
  const marks = new Int32Array(size);
  let markEpoch = 0;

  const termsOf = (query: string) =>
    tokenize(query)
      .flatMap((term) => processTerm(term))
      .filter((term): term is string => !!term);

  /**
   * Calls `visit` for each scored posting of `terms`, in MiniSearch's order. `within`, when given,
   * lists (in ascending order) every document `boostOf` keeps: a term's postings much longer than
   * it are searched for those documents instead of read through, which visits the same postings in
   * the same order (postings run in ascending document order, checked when they are packed).
   */
  const each = (
    terms: string[],
    boostOf: ((doc: number) => number) | undefined,
    visit: (doc: number, term: number, derived: Derived, weight: number) => void,
    withScores: boolean,
    boostTerm?: (term: string) => number,
    within?: Int32Array,
  ) => {
    const { k, b, d } = options.bm25;
    terms.forEach((term, t) => {
      const termBoost = boostTerm ? boostTerm(term) : 1;
      for (const derived of derivedOf(term))
        for (const field of fields) {
          const postings = derived.data.get(field.id);
          if (postings == null) continue;
          const { docs, freqs, matching, ascending } = packedOf(postings);
          const avgFieldLength = inner._avgFieldLength[field.id]!;
          const invDocFreq = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
          const posting = (i: number) => {
            const doc = docs[i]!;
            const termFreq = freqs[i]!;
            if (!alive[doc]) return;
            const docBoost = boostOf ? boostOf(doc) : 1;
            if (!docBoost) return;
            if (!withScores) {
              visit(doc, t, derived, 0);
              return;
            }
            const fieldLength = lengths[doc * fieldCount + field.id]!;
            const rawScore =
              invDocFreq *
              (d +
                (termFreq * (k + 1)) /
                  (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)));
            visit(doc, t, derived, derived.weight * termBoost * field.boost * docBoost * rawScore);
          };
          if (within && ascending && within.length * SEARCHED_SHARE < docs.length) {
            let i = 0;
            for (let c = 0; c < within.length && i < docs.length; c++) {
              i = firstAtLeast(docs, i, within[c]!);
              if (docs[i] === within[c]) posting(i);
            }
          } else for (let i = 0; i < docs.length; i++) posting(i);
        }
    });
  };

  return {
    ids,
    stored,
    size,
    termsOf,
    match(terms, boostOf, boostTerm, within) {
      epoch++;
      let docsFound = 0;
      // Distinct query terms, numbered in the order they first come.
      const distinct: string[] = [];
      const numberOf = terms.map((term) => {
        const at = distinct.indexOf(term);
        return at >= 0 ? at : distinct.push(term) - 1;
      });
      const width = Math.ceil(distinct.length / 32);
      if (masks.length < size * width) masks = new Uint32Array(size * width);
      const matched = new Set<string>();
      const lists = new Map<number, string[]>();
      let specCount = 0;
      let current = -1;
      let lastDerived: Derived | undefined;
      // A term's own scores are summed first, then added to the document's, as MiniSearch sums
      // each term's results and then combines them.
      const flush = () => {
        const n = numberOf[current]!;
        const [word, bit] = [n >>> 5, 1 << (n & 31)];
        for (let i = 0; i < specCount; i++) {
          const doc = spec[i]!;
          if (seen[doc] !== epoch) {
            seen[doc] = epoch;
            total[doc] = specScore[doc]!;
            counts[doc] = 0;
            masks.fill(0, doc * width, doc * width + width);
            found[docsFound++] = doc;
          } else total[doc] = total[doc]! + specScore[doc]!;
          if (!(masks[doc * width + word]! & bit)) {
            masks[doc * width + word]! |= bit;
            counts[doc]!++;
          }
        }
        specCount = 0;
      };
      each(
        terms,
        boostOf,
        (doc, t, derived, weight) => {
          if (t !== current) {
            if (current >= 0) flush();
            current = t;
            specEpoch++;
          }
          if (derived !== lastDerived) matched.add((lastDerived = derived).term);
          if (inSpec[doc] !== specEpoch) {
            inSpec[doc] = specEpoch;
            specScore[doc] = weight;
            spec[specCount++] = doc;
          } else specScore[doc] = specScore[doc]! + weight;
        },
        true,
        boostTerm,
        within,
      );
      if (current >= 0) flush();
      const docs = found.subarray(0, docsFound);
      const score = total;
      for (const doc of docs) score[doc] = score[doc]! * (counts[doc]! || 1);
      return {
        docs,
        score,
        matched,
        queryTerms(doc) {
          if (seen[doc] !== epoch) return [];
          // MiniSearch adds a document's query terms as the terms' results are combined, each
          // once: the order the distinct terms first come in, a repeated term adding nothing.
          const pick = () =>
            distinct.filter((_term, n) => masks[doc * width + (n >>> 5)]! & (1 << (n & 31)));
          if (width !== 1) return pick();
          // Thousands of documents match the same few sets of terms: one list each.
          const mask = masks[doc]!;
          let list = lists.get(mask);
          if (!list) lists.set(mask, (list = pick()));
          return list;
        },
        terms(doc) {
          if (seen[doc] !== epoch) return [];
          // MiniSearch's `match` record: an object keyed by index term, so in its key order.
          const match: Record<string, true> = {};
          for (const term of terms)
            for (const derived of derivedOf(term))
              if (
                matched.has(derived.term) &&
                !Object.prototype.hasOwnProperty.call(match, derived.term) &&
                fields.some((field) => derived.data.get(field.id)?.has(doc))
              )
                match[derived.term] = true;
          return Object.keys(match);
        },
      };
    },
    count(terms, boostOf) {
      const mark = ++markEpoch;
      let count = 0;
      each(
        terms,
        boostOf,
        (doc) => {
          if (marks[doc] !== mark) {
            marks[doc] = mark;
            count++;
          }
        },
        false,
      );
      return count;
    },
    mark(terms, boostOf, into, mark) {
      each(terms, boostOf, (doc) => void (into[doc] = mark), false);
    },
    holder(term) {
      const data = inner._index.get(term);
      if (!data) return () => false;
      const postings = fields.flatMap((field) => data.get(field.id) ?? []);
      return (doc) => postings.some((byDoc) => byDoc.has(doc));
    },
    holding(term) {
      const held = new Set<number>();
      const data = inner._index.get(term);
      for (const field of fields)
        for (const doc of data?.get(field.id)?.keys() ?? []) if (alive[doc]) held.add(doc);
      return held;
    },
    holds(term, boostOf) {
      const data = inner._index.get(term);
      if (!data) return false;
      for (const field of fields)
        for (const doc of data.get(field.id)?.keys() ?? [])
          if (alive[doc] && (!boostOf || boostOf(doc))) return true;
      return false;
    },
  };
}
