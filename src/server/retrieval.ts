import MiniSearch from 'minisearch';
import type { Filter } from '../protocol/index.js';
import { DEFAULT_LANGUAGE, normalizePagePath, type DocSection, type DocsSite } from './docs.js';

export interface SearchOptions {
  limit: number;
  filter?: Filter | null | undefined;
  currentPath?: string | undefined;
  /**
   * The subject of a follow-up: the thread's earlier question. Its sections rank higher when they
   * also match it, so "what about the response?" stays on the page the thread was about.
   */
  earlier?: string | undefined;
}

export interface SearchHit {
  section: DocSection;
  score: number;
  /** Query terms found in the section, so the answer can pick the sentences that carry them. */
  terms: string[];
  /** The page's title as a citation shows it: same-titled pages of other versions say their version. */
  title: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /**
   * How much of the question the best section answers, 0–1: the share of the question's terms it
   * contains, each weighted by how rare the term is in the docs. Low means "not covered".
   */
  coverage: number;
  /** The language and version the search kept to. */
  language: string;
  version?: string;
}

export interface Retriever {
  search(query: string, options: SearchOptions): SearchResult;
  /** The terms of a query as the index sees them (stop words dropped). */
  terms(query: string): string[];
  /** The sections of a page, in page order. */
  sectionsOf(pagePath: string): DocSection[];
}

// Question words carry no meaning for retrieval; without this list "how do I …" matches every page.
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can could do does did for from has have how i if in into is it its me my of on or ' +
    'our should so that the their them then there these this those to was we what when where which who why will with would ' +
    'you your use using used want get need tell about also any all some one just like make makes way ways possible many much ' +
    "am been being it's i'm don't doesn't can't isn't not no yes ok okay please thanks same again more other else " +
    'docs documentation'
  ).split(' '),
);

/**
 * A light English suffix stripper, applied to the index and to questions alike, so "validate",
 * "validation" and "validating" (or "logger" and "logging") meet. Prefix search then does the rest.
 */
export function stem(word: string): string {
  if (word.length <= 3 || word.length > MAX_FUZZY_TERM_CHARS || !/^[a-z]+$/.test(word)) return word;
  let stemmed = word.replace(/ies$/, 'y');
  const suffix = /(ations?|izations?|ings?|ers?|ed|es|ly|ments?)$/.exec(stemmed)?.[0];
  if (suffix && stemmed.length - suffix.length >= 3) stemmed = stemmed.slice(0, -suffix.length);
  else if (stemmed.endsWith('s') && !stemmed.endsWith('ss')) stemmed = stemmed.slice(0, -1);
  // "logg-ing", "shutt-ing": the doubled consonant belongs to the suffix.
  stemmed = stemmed.replace(/([b-df-hj-np-tv-z])\1$/, '$1');
  // "valid-ate", "serializ-e": the verb's last letters vary between its forms.
  const bare = stemmed.replace(/(ate|at|e)$/, '');
  return bare.length >= 3 ? bare : stemmed;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length < 2 || STOP_WORDS.has(lower) ? null : stem(lower);
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
/** Terms longer than this are matched exactly or as a prefix, not fuzzily (nor stemmed). */
const MAX_FUZZY_TERM_CHARS = 20;

/**
 * The words of a query that are searched: the first MAX_QUERY_TERMS distinct ones that are not stop
 * words, each cut to MAX_TERM_CHARS, read in one linear pass. Returned as written (the index's
 * own processing stems them once) and as the index terms they become.
 */
function queryWords(query: string): { words: string[]; terms: string[] } {
  const terms = new Map<string, string>();
  for (const [word] of query.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const cut = word.slice(0, MAX_TERM_CHARS);
    const term = processTerm(cut);
    if (term && !terms.has(term)) terms.set(term, cut);
    if (terms.size >= MAX_QUERY_TERMS) break;
  }
  return { words: [...terms.values()], terms: [...terms.keys()] };
}

const WORD = /[^\p{L}\p{N}_]+/u;
/**
 * Words as the index keeps them: an identifier is also split at its humps, so a question about
 * "status codes" meets `reply.statusCode` and one about "error handlers" meets `setErrorHandler`.
 */
function tokenize(text: string): string[] {
  const words = text.split(WORD).filter(Boolean);
  const parts = words.flatMap((word) =>
    /[a-z][A-Z]/.test(word) ? word.split(/(?<=[a-z])(?=[A-Z])/) : [],
  );
  // "HTTP/2" is also written http2.
  const joined = [...text.matchAll(/\b([A-Za-z]+)\/(\d)\b/g)].map((m) => `${m[1]}${m[2]}`);
  return [...words, ...parts, ...joined];
}
/** Words that tell a question's language: the first few hundred are plenty. */
const wordsOf = (text: string) =>
  text
    .slice(0, 4000)
    .toLowerCase()
    .split(WORD)
    .filter((word) => word.length >= 2);

/**
 * `currentPath` only breaks ties (SPEC §2.1 says it makes answers "more relevant", not that it
 * outranks a better match elsewhere): a few percent, enough to order near-equal sections.
 */
const CURRENT_PAGE_BOOST = 1.08;
/** Weight of a section's page next to the section's own match. */
const PAGE_WEIGHT = 0.5;
/** A section's score is scaled by the share of the question it carries, at least this share. */
const SHARE_FLOOR = 0.2;
/** Sections longer than this are read passage by passage when judging coverage. */
const LONG_SECTION_CHARS = 3000;
/** Pages of a version the question names ("in v1") are what it asks about. */
const NAMED_VERSION_BOOST = 1.5;
/** Sections of one page among the hits at most, so they name several candidate pages. */
const SECTIONS_PER_PAGE = 2;
/** How many of the best pages are checked for how much of the question they carry. */
const COVERAGE_CANDIDATES = 10;
/** Weight of the earlier question next to the follow-up's own words. */
const EARLIER_WEIGHT = 0.6;

const compareVersions = (a: string, b: string) =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

/**
 * Words are stemmed, so prefix search only helps a word cut short; a whole word as prefix would
 * make "fastify" match every `fastifyPluginAsync` of a reference page. Fuzzy matching is the
 * costly part of a search; short terms gain little from it.
 */
const SEARCH_DEFAULTS = (boost: Record<string, number>) => ({
  boost,
  prefix: (term: string) => term.length >= 4 && term.length <= 6,
  fuzzy: (term: string) => (term.length > 5 && term.length <= MAX_FUZZY_TERM_CHARS ? 0.15 : false),
});

interface Ranked {
  score: number;
  /** Words of the section that matched (for picking passages). */
  terms: string[];
}

/** Builds the full-text index once per site; each search is then an in-memory lookup. */
export function createRetriever(site: DocsSite): Retriever {
  const sections = new Map<string, DocSection>();
  const index = new MiniSearch<DocSection & { codeText: string }>({
    fields: ['pageTitle', 'heading', 'text', 'codeText'],
    idField: 'id',
    processTerm,
    tokenize,
    searchOptions: { ...SEARCH_DEFAULTS({ pageTitle: 2, heading: 2.5, text: 1, codeText: 0.6 }) },
  });
  // Pages are indexed by their outline too: a question is usually about a page's topic, and the
  // page's title and headings say what that topic is better than one small section can. (Bodies
  // stay out: a long page that mentions everything would win every question.)
  const pageIndex = new MiniSearch<{ id: string; title: string; headings: string }>({
    fields: ['title', 'headings'],
    processTerm,
    tokenize,
    searchOptions: SEARCH_DEFAULTS({ title: 2, headings: 1 }),
  });
  // Words of each language's pages, to tell which language a question is written in.
  const vocabulary = new Map<string, Set<string>>();
  const versions = new Set<string>();
  const titleCount = new Map<string, number>();
  for (const page of site.pages) {
    titleCount.set(page.title, (titleCount.get(page.title) ?? 0) + 1);
    if (page.version) versions.add(page.version);
    let words = vocabulary.get(page.language);
    if (!words) vocabulary.set(page.language, (words = new Set()));
    for (const word of `${page.title}\n${page.markdown}`.toLowerCase().split(WORD))
      if (word.length >= 2) words.add(word);
    pageIndex.add({
      id: page.path,
      title: page.title,
      headings: page.sections.map((section) => section.heading).join('\n'),
    });
    for (const section of page.sections) {
      sections.set(section.id, section);
      index.add({ ...section, codeText: section.code.map((c) => c.value).join('\n') });
    }
  }
  const newestVersion = [...versions].sort(compareVersions).at(-1);
  const languageCounts = new Map<string, number>();
  for (const page of site.pages)
    languageCounts.set(page.language, (languageCounts.get(page.language) ?? 0) + 1);
  const siteLanguage = languageCounts.has(DEFAULT_LANGUAGE)
    ? DEFAULT_LANGUAGE
    : ([...languageCounts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? DEFAULT_LANGUAGE);

  /** The language whose pages alone contain most of the question's words; none when unclear. */
  function languageOf(query: string): string | undefined {
    if (vocabulary.size < 2) return undefined;
    let best: string | undefined;
    let bestCount = 0;
    let tie = false;
    const words = wordsOf(query);
    for (const [language, own] of vocabulary) {
      const count = words.filter(
        (word) =>
          own.has(word) &&
          ![...vocabulary].some(([other, set]) => other !== language && set.has(word)),
      ).length;
      if (count > bestCount) [best, bestCount, tie] = [language, count, false];
      else if (count === bestCount && count > 0) tie = true;
    }
    return tie ? undefined : best;
  }

  /** A version the question names ("in v1", "version 1"), so a follow-up can switch versions. */
  function versionNamed(query: string): string | undefined {
    return [...versions].find((label) => {
      const number = label.replace(/^v/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`(^|[^\\p{L}\\p{N}])(v|version\\s*)${number}(?![\\p{L}\\p{N}])`, 'iu').test(
        query,
      );
    });
  }

  const units = new WeakMap<DocSection, Set<string>[]>();
  /** The terms of each passage of a section, with its heading and page title. */
  const unitsOf = (section: DocSection) => {
    let found = units.get(section);
    if (!found) {
      const context = `${section.pageTitle}\n${section.heading}`;
      // A section is one passage; only a long one (a catalogue, a reference table) is read per
      // block and per list item or row, since it contains every word somewhere.
      const whole = section.blocks.map((block) => block.text).join('\n');
      const texts =
        whole.length <= LONG_SECTION_CHARS
          ? [whole]
          : section.blocks.flatMap((block) =>
              block.kind === 'list' || block.kind === 'table'
                ? block.text.split('\n')
                : [block.text],
            );
      found = (texts.length ? texts : ['']).map(
        (text) =>
          new Set(tokenize(`${context}\n${text}`).flatMap((word) => processTerm(word) ?? [])),
      );
      units.set(section, found);
    }
    return found;
  };
  const titleOf = (section: DocSection) =>
    (titleCount.get(section.pageTitle) ?? 0) > 1 && section.version
      ? `${section.pageTitle} (${section.version})`
      : section.pageTitle;

  return {
    sectionsOf: (pagePath) => site.byPath.get(pagePath)?.sections ?? [],
    terms: (query) => queryWords(query).terms,
    search(query, { limit, filter, currentPath, earlier }) {
      const current = currentPath ? normalizePagePath(currentPath) : undefined;
      const currentPage = current ? site.byPath.get(current) : undefined;
      const language =
        filter?.language ||
        languageOf(query) ||
        (earlier && languageOf(earlier)) ||
        currentPage?.language ||
        siteLanguage;
      // The newest version wins unless the request pins one or the question names one.
      const namedVersion = versionNamed(query) || (earlier && versionNamed(earlier)) || undefined;
      const version = filter?.version || namedVersion || newestVersion;
      const keepSection = (section: DocSection | undefined) =>
        // A page without a version applies to every version.
        !!section &&
        section.language === language &&
        (!section.version || !version || section.version === version);
      const keepPage = (path: string) => keepSection(site.byPath.get(path)?.sections[0]);
      const tieBreak = (path: string | undefined) =>
        current && path === current ? CURRENT_PAGE_BOOST : 1;
      const pageOptions = {
        filter: (r: { id: unknown }) => keepPage(r.id as string),
        boostDocument: (id: unknown) => tieBreak(id as string),
      };
      const sectionOptions = {
        filter: (r: { id: unknown }) => keepSection(sections.get(r.id as string)),
        boostDocument: (id: unknown) => tieBreak(sections.get(id as string)?.pagePath),
      };

      const idf = new Map<string, number>();
      const weightOf = (term: string) => {
        let weight = idf.get(term);
        if (weight === undefined) {
          const df = index.search(term, { filter: sectionOptions.filter }).length;
          idf.set(term, (weight = Math.log(1 + index.documentCount / (df + 0.5))));
        }
        return weight;
      };
      /** The idf-weighted share of a text's terms that a result matched. */
      const shareOf = (allTerms: string[], matched: string[]) => {
        const total = allTerms.reduce((sum, term) => sum + weightOf(term), 0);
        return total
          ? [...new Set(matched)].reduce((sum, term) => sum + weightOf(term), 0) / total
          : 0;
      };

      /**
       * Sections scored by their own match plus their page's (both relative to the best), times
       * how much of the question they carry: one rare word matched many times should not beat a
       * section that answers the whole question.
       */
      const rank = (text: string, weight: number, into: Map<string, Ranked>) => {
        const { words, terms: textTerms } = queryWords(text);
        const pages = pageIndex.search(words.join(' '), pageOptions);
        const pageTop = pages[0]?.score ?? 0;
        const pageScore = new Map(
          pages.map((r) => [r.id as string, pageTop ? r.score / pageTop : 0]),
        );
        const own = index.search(words.join(' '), sectionOptions);
        const top = own[0]?.score ?? 0;
        for (const r of own) {
          const section = sections.get(r.id as string)!;
          const relevance =
            (top ? r.score / top : 0) + PAGE_WEIGHT * (pageScore.get(section.pagePath) ?? 0);
          const named = namedVersion && section.version === namedVersion ? NAMED_VERSION_BOOST : 1;
          const score =
            weight * named * relevance * Math.max(SHARE_FLOOR, shareOf(textTerms, r.queryTerms));
          const entry = into.get(r.id as string) ?? { score: 0, terms: [] };
          into.set(r.id as string, {
            score: entry.score + score,
            terms: [...new Set([...entry.terms, ...r.terms])],
          });
        }
      };
      const scores = new Map<string, Ranked>();
      rank(query, 1, scores);
      if (earlier) rank(earlier, EARLIER_WEIGHT, scores);
      const ranked = [...scores].sort((a, b) => b[1].score - a[1].score);
      // At most a few sections per page, so the hits name several candidate pages.
      const perPage = new Map<string, number>();
      const hits: SearchHit[] = [];
      for (const [id, { score, terms }] of ranked) {
        if (hits.length >= limit) break;
        const section = sections.get(id)!;
        const count = perPage.get(section.pagePath) ?? 0;
        if (count >= SECTIONS_PER_PAGE) continue;
        perPage.set(section.pagePath, count + 1);
        hits.push({ section, score, terms, title: titleOf(section) });
      }

      // Coverage: the share of the question's own terms that one of the best pages carries, each
      // term weighted by how rare it is (a question's rarest word is usually its subject). A long
      // section (a catalogue, a big table) counts only its best passage: it contains every word
      // somewhere, which says nothing about whether it answers the question.
      const queryTerms = queryWords(query).terms;
      let coverage = 0;
      if (queryTerms.length > 0) {
        const total = queryTerms.reduce((sum, term) => sum + weightOf(term), 0);
        const weigh = (found: Set<string>) =>
          [...found].reduce((sum, term) => sum + weightOf(term), 0);
        const byPage = new Map<string, Set<string>>();
        for (const [id] of ranked) {
          const section = sections.get(id)!;
          if (!byPage.has(section.pagePath) && byPage.size >= COVERAGE_CANDIDATES) continue;
          const page = byPage.get(section.pagePath) ?? new Set<string>();
          let best = new Set<string>();
          for (const unit of unitsOf(section)) {
            const found = new Set(queryTerms.filter((term) => unit.has(term)));
            if (weigh(found) > weigh(best)) best = found;
          }
          for (const term of best) page.add(term);
          byPage.set(section.pagePath, page);
        }
        for (const found of byPage.values())
          coverage = Math.max(coverage, total ? weigh(found) / total : 0);
      } else if (earlier && hits.length > 0) {
        // "And then?" has no words of its own: it is as covered as the question it follows.
        coverage = this.search(earlier, { limit: 1, filter, currentPath }).coverage;
      }
      return { hits, coverage, language, ...(version ? { version } : {}) };
    },
  };
}
