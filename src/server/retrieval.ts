import MiniSearch from 'minisearch';
import type { Filter } from '../protocol/index.js';
import { normalizePagePath, type DocSection, type DocsSite } from './docs.js';

export interface SearchOptions {
  limit: number;
  filter?: Filter | null | undefined;
  currentPath?: string | undefined;
}

export interface SearchHit {
  section: DocSection;
  score: number;
  /** Query terms found in the section, so the answer can pick the sentences that carry them. */
  terms: string[];
}

export interface Retriever {
  search(query: string, options: SearchOptions): SearchHit[];
  /** The terms of a query as the index sees them (stop words dropped). */
  terms(query: string): string[];
}

// Question words carry no meaning for retrieval; without this list "how do I …" matches every page.
const STOP_WORDS = new Set(
  ('a an and are as at be but by can could do does for from has have how i if in into is it its me my of on or ' +
    'our should so that the their then there these this to was we what when where which who why will with would ' +
    'you your use using want get need tell about').split(' '),
);

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length < 2 || STOP_WORDS.has(lower) ? null : lower;
}

/**
 * Bounds on what reaches the index, whatever the question's size: MiniSearch's fuzzy matcher
 * allocates a matrix per term (quadratic in its length), so one 60,000-letter word took seconds and
 * gigabytes, and a longer one threw. No real word is longer than this; a cut term still matches
 * as a prefix.
 */
export const MAX_TERM_CHARS = 40;
/** Distinct terms searched per question (the first ones: the question comes before its context). */
export const MAX_QUERY_TERMS = 32;
/** Terms longer than this are matched exactly or as a prefix, not fuzzily. */
const MAX_FUZZY_TERM_CHARS = 20;

/** The distinct index terms of a query, capped in number and length, read in one linear pass. */
function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const [word] of query.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const term = processTerm(word.slice(0, MAX_TERM_CHARS));
    if (term) terms.add(term);
    if (terms.size >= MAX_QUERY_TERMS) break;
  }
  return [...terms];
}

/** Boost for sections of the page the reader is on (SPEC §2.1 `currentPath`). */
const CURRENT_PAGE_BOOST = 1.6;

/** Builds the full-text index once per site; each search is then an in-memory lookup. */
export function createRetriever(site: DocsSite): Retriever {
  const sections = new Map<string, DocSection>();
  const index = new MiniSearch<DocSection & { codeText: string }>({
    fields: ['pageTitle', 'heading', 'text', 'codeText'],
    idField: 'id',
    processTerm,
    // Fuzzy matching is the costly part of a search; short terms gain little from it.
    searchOptions: { boost: { pageTitle: 2, heading: 2.5, text: 1, codeText: 0.6 }, prefix: true, fuzzy: (term) => (term.length > 4 && term.length <= MAX_FUZZY_TERM_CHARS ? 0.15 : false) },
  });
  for (const page of site.pages) {
    for (const section of page.sections) {
      sections.set(section.id, section);
      index.add({ ...section, codeText: section.code.map((c) => c.value).join('\n') });
    }
  }
  return {
    terms: queryTerms,
    search(query, { limit, filter, currentPath }) {
      const current = currentPath ? normalizePagePath(currentPath) : undefined;
      const results = index.search(queryTerms(query).join(' '), {
        filter: (result) => {
          const section = sections.get(result.id as string);
          if (!section) return false;
          // A page without a version applies to every version; language always has a value.
          if (filter?.version && section.version && section.version !== filter.version) return false;
          if (filter?.language && section.language !== filter.language) return false;
          return true;
        },
        boostDocument: (id) => (current && sections.get(id as string)?.pagePath === current ? CURRENT_PAGE_BOOST : 1),
      });
      return results.slice(0, limit).flatMap((result) => {
        const section = sections.get(result.id as string);
        return section ? [{ section, score: result.score, terms: result.terms }] : [];
      });
    },
  };
}
