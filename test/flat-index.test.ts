import MiniSearch, { type Options } from 'minisearch';
import { join, resolve } from 'node:path';
import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import {
  flatIndexOf,
  flatten,
  kept,
  Pairs,
  type FlatIndex,
} from '../src/server/answering/flat-index.js';
import { loadDocsSite, type DocsSite } from '../src/server/site/docs.js';
import { liveHeap } from './helpers/heap.js';
import { FASTIFY_DOCS_DIR } from './helpers/server.js';

/**
 * A first start builds its index straight into the kept form (src/server/answering/flat-index.ts)
 * instead of through MiniSearch's maps; the kept form must be what MiniSearch's own build gives,
 * to the order of its terms and the last bit of its average field lengths, or a first start would
 * answer differently from a warm one. Compared here on real docs sets, with options shaped like the
 * retriever's: several fields, one often empty and one sometimes missing, stored fields some
 * documents lack, a tokenizer that repeats words, a term processing that drops words and turns
 * some into several terms.
 */
interface Doc {
  id: string;
  page: string;
  version: string | undefined;
  heading: string;
  text: string;
  code: string | undefined;
}

const SETS = {
  'project docs': resolve(import.meta.dirname, '..', 'docs'),
  fastify: FASTIFY_DOCS_DIR,
  npm: join(import.meta.dirname, 'fixtures', 'corpus', 'npm'),
};

const QUERIES = [
  'How do I register a plugin?',
  'logger level',
  'decorateRequest',
  'npm install --save-dev',
];

const STOP = new Set(['the', 'a', 'of', 'and', 'to', 'is']);
// Words, then each camelCase word's humps again (so a word can be read twice in one field), then
// "HTTP/2" as http2 (a token read across words).
const words = (text: string) => text.split(/[^\p{L}\p{N}_]+/u);
const humps = (word: string) => (/[a-z][A-Z]/.test(word) ? word.split(/(?=[A-Z])/) : []);
const joined = (text: string) =>
  [...text.matchAll(/\b([A-Za-z]+)\/(\d)\b/g)].map((match) => `${match[1]}${match[2]}`);
const tokenize = (text: string) => {
  const found = words(text).filter(Boolean);
  return [...found, ...found.flatMap(humps), ...joined(text)];
};
const options: Options<Doc> & Required<Pick<Options<Doc>, 'tokenize' | 'processTerm'>> = {
  fields: ['heading', 'text', 'code'],
  storeFields: ['page', 'version'],
  tokenize,
  processTerm: (term) => {
    const lower = term.toLowerCase();
    if (lower.length < 2 || STOP.has(lower)) return null;
    // snake_case: the whole and its words.
    if (lower.includes('_')) return [lower, ...lower.split('_').filter((w) => w.length > 1)];
    return stemmer(lower);
  },
  searchOptions: { boost: { heading: 2 }, prefix: true, fuzzy: 0.2 },
};

function docsOf(site: DocsSite): Doc[] {
  return site.pages.flatMap((page, n) =>
    page.sections.map((section) => {
      const code = section.blocks.filter((b) => b.kind === 'code').map((b) => b.text);
      return {
        id: section.id,
        page: page.path,
        // Every third page unversioned: stored fields that are undefined are left out.
        version: n % 3 === 0 ? undefined : 'v1',
        heading: section.heading,
        text: section.blocks
          .filter((b) => b.kind !== 'code')
          .map((b) => b.text)
          .join('\n'),
        // Missing (not empty) where a section has no code: the field is skipped, not counted.
        code: code.length > 0 ? code.join('\n') : undefined,
      };
    }),
  );
}

/**
 * The same tokenizer saying how it makes its tokens (flat-index.ts `WordTokenize`, as the
 * retriever's does): the build then reads the words itself (words.ts, the same `split` as `words`
 * above) and each distinct word's tokens once.
 */
const byWords = {
  ...options,
  tokenize: Object.assign((text: string) => tokenize(text), { parts: humps, joined }),
};

describe('an index built straight into its kept form', () => {
  it.each(
    Object.entries(SETS).flatMap(([name, dir]) => [
      [name, 'tokens', dir],
      [name, 'words', dir],
    ]),
  )(
    'is what MiniSearch builds, term order and field lengths included (%s, read as %s)',
    async (_name, read, dir) => {
      const docs = docsOf(await loadDocsSite(dir));
      expect(docs.length).toBeGreaterThan(20);
      const built = new MiniSearch<Doc>(options);
      built.addAll(docs);
      const flat = flatIndexOf(docs, read === 'words' ? byWords : options);
      const expected = flatten(built);
      expectSame(flat, expected);

      // Loaded (as a warm start loads it), it searches exactly as the built index: the same
      // hits, scores to the last bit, matched terms in the same order.
      const loaded = kept(flat).load<Doc>(options);
      for (const query of QUERIES) expect(loaded.search(query)).toEqual(built.search(query));
    },
  );

  it('is what MiniSearch builds for more postings than a block, or a chunk of blocks, holds', () => {
    // 1,600 documents of 450 words from 6,000: a few in every document (lists of a thousand pairs,
    // over several blocks), most in about a hundred; over a million postings, more than a chunk.
    let seed = 1;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const vocabulary = Array.from({ length: 6000 }, (_, n) => `w${n.toString(36)}x`);
    const docs = Array.from({ length: 1600 }, (_, n) => ({
      id: `d${n}`,
      page: `p${n % 40}`,
      version: undefined,
      heading: `always ${vocabulary[n % 6000]}`,
      text: Array.from({ length: 450 }, () => vocabulary[next() % 6000]).join(' ') + ' always',
      code: undefined,
    }));
    const built = new MiniSearch<Doc>(options);
    built.addAll(docs);
    const flat = flatIndexOf(docs, byWords);
    expectSame(flat, flatten(built));
    expect(flat.postings.length).toBeGreaterThan(1.3 * 2 ** 20);
  });

  it.each([12, 13, 17, 64, 4098, 2 ** 22])(
    "keeps each term's documents as appended, over blocks and chunks of %i bytes",
    (size) => {
      // 300 lists, documents 0 to 999 in order, each using a few lists a few times: the lists fill
      // their blocks, blocks fill chunks to the last integer or leave a few over.
      let seed = size;
      const next = () => (seed = (seed * 48271) % 2147483647);
      const pairs = new Pairs(size);
      const expected: number[][] = [];
      for (let n = 0; n < 300; n++) expect(pairs.list()).toBe(expected.push([]) - 1);
      for (let document = 0; document < 1000; document++)
        for (let use = next() % 6; use > 0; use--) {
          const n = next() % (1 + (document % 300));
          const list = expected[n]!;
          if (list.at(-2) === document) list[list.length - 1]! += 1;
          else list.push(document, 1);
          pairs.add(n, document);
        }
      for (const [n, list] of expected.entries()) {
        expect(pairs.size(n)).toBe(list.length / 2);
        const into = new Uint32Array(list.length + 2);
        expect(pairs.copy(n, into, 1)).toBe(list.length + 1);
        expect([...into.subarray(1, -1)]).toEqual(list);
      }
    },
  );

  it("holds none of the documents' text while it builds, through their long words", () => {
    // 32 documents of 1 MB each, made one at a time as the build reads them (as the retriever's
    // passages are), every one with a word of its own of 13 letters or more: V8 makes a piece cut
    // from a string that long a view that keeps the whole string alive.
    const before = liveHeap();
    let held = Number.NaN;
    function* documents() {
      for (let n = 0; n < 32; n++)
        yield {
          id: `d${n}`,
          page: 'p',
          version: undefined,
          heading: 'H',
          text: `${'plugin route handler '.repeat(50_000)}extraordinarily${n}longword`,
          code: undefined,
        };
      // Every document read: what the build holds now.
      held = liveHeap() - before;
    }
    // Terms as the words are (lowercase already: `toLowerCase` gives the same string back).
    const index = flatIndexOf(documents(), {
      ...options,
      processTerm: (term) => term.toLowerCase(),
    });
    expect(index.terms).toContain('extraordinarily0longword');
    // The text was 32 MB; its few distinct words are a few kilobytes.
    expect(held).toBeLessThan(4 * 2 ** 20);
  });

  it('refuses a document without an id or with one already used, as MiniSearch does', () => {
    const doc = {
      id: 'a',
      page: 'p',
      version: undefined,
      heading: 'H',
      text: 't',
      code: undefined,
    };
    expect(() => flatIndexOf([doc, { ...doc }], options)).toThrow(/duplicate ID a/);
    expect(() => flatIndexOf([{ ...doc, id: undefined as unknown as string }], options)).toThrow(
      /does not have ID field "id"/,
    );
  });
});

/** Two kept indexes alike: documents, terms in order, postings to the bit. */
function expectSame(actual: FlatIndex, expected: FlatIndex) {
  expect(actual.terms).toEqual(expected.terms);
  expect(actual.documents).toEqual(expected.documents);
  const bytes = ({ postings }: FlatIndex) =>
    Buffer.from(postings.buffer, postings.byteOffset, postings.byteLength);
  expect(bytes(actual)).toEqual(bytes(expected));
}
