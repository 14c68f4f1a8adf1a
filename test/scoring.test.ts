import MiniSearch from 'minisearch';
import { resolve } from 'node:path';
import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { createScoring, type Matches } from '../src/server/answering/_scoring.js';
import { loadDocsSite } from '../src/server/site/docs.js';

/**
 * The retriever scores MiniSearch's index itself (src/server/answering/_scoring.ts) and must give
 * what MiniSearch's own search gives, to the last bit: here on this repository's docs, indexed with
 * options shaped like the retriever's (fields with boosts, stemming, prefix and fuzzy matching,
 * firm BM25), some passages discarded as an edit leaves them.
 */
const options = {
  boost: { heading: 2.5, text: 1, code: 0.6 },
  bm25: { k: 1.2, b: 0.9, d: 0 },
  prefix: (term: string) => term.length >= 4 && term.length <= 6,
  fuzzy: (term: string) => (term.length > 5 && term.length <= 20 ? 0.15 : false),
};
const QUERIES = [
  'How do I configure the answer cache?',
  'serve --docs data folder warm start',
  'embeding modle retreival', // misspelt: found by near spellings
  'configur configure configures', // prefixes, and a term repeated after stemming
  'error error error',
  'limits error rate error limits', // repeated apart: each counted once, where it first comes
  'the of and', // nothing but stop-like words, kept here: this index drops none
  'rate limits per key 429',
  'quuxbarnotaword',
];

async function indexOfDocs() {
  const site = await loadDocsSite(resolve(import.meta.dirname, '..', 'docs'));
  const index = new MiniSearch<{
    id: string;
    page: string;
    heading: string;
    text: string;
    code: string;
  }>({
    fields: ['heading', 'text', 'code'],
    storeFields: ['page'],
    processTerm: (term) => (term.length < 2 ? null : stemmer(term.toLowerCase())),
    searchOptions: options,
  });
  for (const page of site.pages)
    for (const section of page.sections)
      index.add({
        id: section.id,
        page: page.path,
        heading: section.heading,
        text: section.blocks
          .filter((b) => b.kind !== 'code')
          .map((b) => b.text)
          .join('\n'),
        code: section.blocks
          .filter((b) => b.kind === 'code')
          .map((b) => b.text)
          .join('\n'),
      });
  return { site, index };
}

describe('scoring MiniSearch’s index', () => {
  it('gives the scores, query terms and matched terms of MiniSearch’s own search', async () => {
    const { site, index } = await indexOfDocs();
    // A search that keeps only some pages, and boosts one (as the retriever's scope and current page do).
    const kept = new Set<string>(site.pages.filter((_, n) => n % 3 !== 0).map((page) => page.path));
    const favourite = [...kept][0]!;
    const boostDocument = (_id: unknown, _term: string, stored?: Record<string, unknown>) =>
      kept.has(stored?.page as string) ? (stored?.page === favourite ? 1.08 : 1) : 0;
    for (const discard of [false, true]) {
      if (discard)
        for (const page of site.pages.slice(0, 2))
          for (const s of page.sections) index.discard(s.id);
      const scoring = createScoring(index, options);
      const boostOf = (doc: number) => boostDocument(undefined, '', scoring.stored[doc]);
      for (const query of QUERIES)
        for (const [theirs, ours] of [
          [{}, undefined],
          [{ boostDocument }, boostOf],
        ] as const) {
          const matches = scoring.match(scoring.termsOf(query), ours);
          const got = Array.from(matches.docs, (doc) => ({
            id: scoring.ids[doc],
            score: matches.score[doc],
            queryTerms: matches.queryTerms(doc),
            terms: matches.terms(doc),
          })).sort((a, b) => b.score! - a.score!);
          const expected = index.search(query, theirs);
          expect(got, query).toEqual(
            expected.map((r) => ({
              id: r.id,
              score: r.score,
              queryTerms: r.queryTerms,
              terms: r.terms,
            })),
          );
          expect(scoring.count(scoring.termsOf(query), ours)).toBe(expected.length);
          expect([...matches.matched].sort()).toEqual(
            [...new Set(expected.flatMap((r) => r.terms))].sort(),
          );
        }
      if (!discard) expect(index.search('embeding modle').length).toBeGreaterThan(0);
    }
  });

  it('scores the same when the caller lists the documents it keeps, so long postings are searched for them', async () => {
    const { index } = await indexOfDocs();
    const scoring = createScoring(index, options);
    // Every 12th document: far fewer than a common word's postings ("the", "server"), which are
    // then searched for them instead of read through.
    const kept = Int32Array.from({ length: scoring.size }, (_, doc) => doc).filter(
      (doc) => doc % 12 === 3,
    );
    const keeps = new Set(kept);
    const boostOf = (doc: number) => (keeps.has(doc) ? (doc % 2 ? 1.08 : 1) : 0);
    // Read before the next search, which reuses the buffers.
    const told = (matches: Matches) =>
      Array.from(matches.docs, (doc) => ({
        id: scoring.ids[doc],
        score: matches.score[doc],
        queryTerms: matches.queryTerms(doc),
        terms: matches.terms(doc),
        matched: [...matches.matched],
      }));
    for (const query of [
      ...QUERIES,
      'the server and the docs of the widget',
      'server the config',
    ]) {
      const terms = scoring.termsOf(query);
      const read = told(scoring.match(terms, boostOf));
      expect(told(scoring.match(terms, boostOf, undefined, kept)), query).toEqual(read);
    }
    expect(told(scoring.match(['the'], boostOf)).length).toBeGreaterThan(5);
  });

  it('tells whether a kept document holds a term as it is', async () => {
    const { index } = await indexOfDocs();
    const scoring = createScoring(index, options);
    expect(scoring.holds('configur', undefined)).toBe(true);
    expect(scoring.holds('configu', undefined)).toBe(false);
    expect(scoring.holds('configur', () => 0)).toBe(false);
  });
});
