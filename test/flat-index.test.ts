import MiniSearch, { type Options } from 'minisearch';
import { join, resolve } from 'node:path';
import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { flatIndexOf, flatten, kept } from '../src/server/answering/flat-index.js';
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
const options: Options<Doc> & Required<Pick<Options<Doc>, 'tokenize' | 'processTerm'>> = {
  fields: ['heading', 'text', 'code'],
  storeFields: ['page', 'version'],
  // Words, then each camelCase word's humps again (so a word can be read twice in one field).
  tokenize: (text) => {
    const words = text.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
    return [...words, ...words.flatMap((w) => (/[a-z][A-Z]/.test(w) ? w.split(/(?=[A-Z])/) : []))];
  },
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

describe('an index built straight into its kept form', () => {
  it.each(Object.entries(SETS))(
    'is what MiniSearch builds, term order and field lengths included (%s)',
    async (_name, dir) => {
      const docs = docsOf(await loadDocsSite(dir));
      expect(docs.length).toBeGreaterThan(20);
      const built = new MiniSearch<Doc>(options);
      built.addAll(docs);
      const flat = flatIndexOf(docs, options);
      const expected = flatten(built);
      expect(flat.terms).toEqual(expected.terms);
      expect(flat.documents).toEqual(expected.documents);
      expect(Buffer.from(flat.postings.buffer)).toEqual(
        Buffer.from(
          expected.postings.buffer,
          expected.postings.byteOffset,
          expected.postings.byteLength,
        ),
      );

      // Loaded (as a warm start loads it), it searches exactly as the built index: the same
      // hits, scores to the last bit, matched terms in the same order.
      const loaded = kept(flat).load<Doc>(options);
      for (const query of QUERIES) expect(loaded.search(query)).toEqual(built.search(query));
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
