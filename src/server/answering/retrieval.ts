import type MiniSearch from 'minisearch';
import type { Filter } from '../../protocol/index.js';
import {
  DEFAULT_LANGUAGE,
  isApiEntry,
  isNavigation,
  opensOnSignature,
  pageLabelOf,
  searchedSite,
  type DocPage,
  type DocSection,
  type DocsSite,
} from '../site/docs.js';
import type { PagePath } from '../site/page-path.js';
import { createScoring, type Matches } from './_scoring.js';
import { collectGarbage } from './collect.js';
import { fuseScores, type DenseScores } from './dense.js';
import { flatIndexOf, flatten, kept, type FlatIndex, type KeptIndex } from './flat-index.js';
import { Recent } from './recent.js';
import {
  compoundsOf,
  createTokenizer,
  MAX_FUZZY_TERM_CHARS,
  processTerm,
  queryWords,
  VERSION_TERM,
  type LeftOut,
  type Tokenize,
} from './terms.js';
import { WORD } from './words.js';

export interface SearchOptions {
  limit: number;
  filter?: Filter | null | undefined;
  /** The page the reader is on: its sections win ties. */
  currentPath?: PagePath | undefined;
  /**
   * The subject of a follow-up: the thread's earlier question. Its sections rank higher when they
   * also match it, so "what about the response?" stays on the page the thread was about.
   */
  earlier?: string | undefined;
  /**
   * The owner's embedding model's nearest sections to the question (dense.ts), fused with the
   * keyword ranking by withDense. Absent: keywords alone.
   */
  dense?: DenseScores | undefined;
}

export interface SearchHit {
  section: DocSection;
  score: number;
  /** Query terms found in the section, so the answer can pick the sentences that carry them. */
  terms: string[];
  /** The page's title as a citation shows it: same-titled pages of other versions say their version. */
  title: string;
  /**
   * The best score of the same section, word for word, on another page: left out of the hits, but
   * a page that ties with this one on what answers the question, for how sure the answer is.
   */
  copyScore?: number;
}

export interface SearchResult {
  hits: SearchHit[];
  /**
   * How much of the question the best section answers, 0–1: the share of the question's terms it
   * contains, each weighted by how rare the term is in the docs. Low means "not covered".
   */
  coverage: number;
  /** The question's own words that were searched, as the reader wrote them (stop words dropped). */
  words: string[];
  /** Those of `words` the docs never use: they found nothing and count against coverage. */
  unknown: string[];
  /**
   * The question's names the docs never mention, so neither is what the question is about: those
   * of `unknown` capitalised where the question does not start, or identifiers ("Docker",
   * `poolPrePing`), and mixed-case names the docs never use whole, whatever their parts match
   * ("MySQL" in docs that say "SQL").
   */
  unknownNames: string[];
  /**
   * What a long question's search left out past MAX_QUERY_TERMS: the first few words it did not
   * search, as written, and whether more words follow them. No words and no more: nothing was.
   */
  leftOut: LeftOut;
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
/**
 * Weight of a page's front-matter description in the page index, next to its title's 2: one
 * sentence its author wrote to say what the page is for ("Run a command from a local or remote npm
 * package" on a page titled `npx`), where a command's or an API's page has a title that is only its
 * name. Measured on the eval's dev halves (docs/answer-quality.md): from 3.5 to 6 the same, 2 no
 * gain.
 */
const DESCRIPTION_WEIGHT = 4;
/** Weight of a section's page next to the section's own match. */
const PAGE_WEIGHT = 0.5;
/** A section's score is scaled by the share of the question it carries, at least this share. */
const SHARE_FLOOR = 0.2;
/**
 * A page whose opening says its subject is deprecated ("Deprecated. See High Availability and
 * PyMongo", eslint-plugin-import's "❌ This rule is deprecated."): its sections rank at this share,
 * unless the question asks about deprecation. PyMongo's deprecated `MongoReplicaSetClient`, a copy
 * of `MongoClient`'s reference, came first for seven of a newcomer's twenty questions.
 */
const DEPRECATED_WEIGHT = 0.5;
const DEPRECATED_OPENING =
  /^[^\p{L}\p{N}]*(?:deprecated\b|this [\w-]+(?: [\w-]+)? (?:is|has been) deprecated\b)/iu;
const ASKS_ABOUT_DEPRECATION = /\b(?:deprecat\w*|obsolete|legacy)\b/i;
/** Whether a page opens by saying its subject is deprecated (its first paragraph, before any other). */
const isDeprecatedPage = (page: DocPage) => {
  const opening = page.sections[0]?.blocks.slice(0, 2).find((block) => block.kind === 'paragraph');
  return opening !== undefined && DEPRECATED_OPENING.test(opening.text);
};
/** Sections longer than this are read passage by passage when judging coverage. */
const LONG_SECTION_CHARS = 3000;
/** Size a long section's passages grow to. */
const PASSAGE_CHARS = 600;
/** Pages of a version the question names ("in v1") are what it asks about. */
const NAMED_VERSION_BOOST = 1.5;
/**
 * A question word in more than this share of the passages a search keeps, and in more than
 * COMMON_MIN_PASSAGES of them, is common: it counts in every score and in coverage, but does not
 * make a passage a candidate by itself (`searchPruned`).
 */
const COMMON_SHARE = 0.2;
const COMMON_MIN_PASSAGES = 2000;
/** Pages whose passages are all scored, whatever words they hold: the best by title and headings. */
const CANDIDATE_PAGES = 20;
/** Sections of one page among the hits at most, so they name several candidate pages. */
const SECTIONS_PER_PAGE = 2;
/** How many of the best pages are checked for how much of the question they carry. */
const COVERAGE_CANDIDATES = 10;
/** Weight of the earlier question next to the follow-up's own words. */
const EARLIER_WEIGHT = 0.6;

/** What a section says: an API entry's text without its signature line, else all of its text. */
const descriptionOf = (section: DocSection): string =>
  opensOnSignature(section)
    ? section.blocks
        .slice(1)
        .map((block) => block.text)
        .join('\n')
    : section.text;

/**
 * Weight of a question word's parts (an identifier's humps, a compound's halves, a language's
 * code) when the docs use the word itself: "JavaScript" also searched as "java" and "script" at
 * full weight made a question about JavaScript one about npm scripts, and counted three words in
 * coverage for one. Parts of a word the docs never use weigh in full (`statusCode` meets "status
 * code"). Measured on the eval's dev halves (docs/answer-quality.md): 0.5, 0.25 and 0 the same.
 */
const PART_WEIGHT = 0.5;
/**
 * How much more a section named after the question's words weighs: twice as much when the name is
 * the whole question, less as the name is a smaller share of it.
 */
const MEMBER_BOOST = 1;

/**
 * The first `k` of the numbers 0 … count - 1 in the order `compare` sorts them (a total order,
 * so the same as sorting them all and keeping the first `k`), without sorting the rest: a common
 * word matches thousands of pages and sections, of which a search reads a few.
 */
function firstOf(count: number, k: number, compare: (a: number, b: number) => number): number[] {
  const kept: number[] = [];
  if (k <= 0) return kept;
  for (let i = 0; i < count; i++) {
    if (kept.length === k && compare(i, kept[k - 1]!) >= 0) continue;
    let [low, high] = [0, kept.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(kept[middle]!, i) < 0) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, i);
    if (kept.length > k) kept.pop();
  }
  return kept;
}

const compareVersions = (a: string, b: string) =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

/**
 * Plain BM25 with firm length normalisation, not MiniSearch's default BM25+ (b 0.7, d 0.5): BM25+'s
 * floor of d for every matched word and the milder b let a long passage that mentions a word in
 * passing (an option of a big reference page, a catalogue) score like a short one about it.
 * Measured on both eval sets and on the held-out questions (README, "Answer quality").
 */
const BM25 = { k: 1.2, b: 0.9, d: 0 };

/**
 * Words are stemmed, so prefix search only helps a word cut short; a whole word as prefix would
 * make "fastify" match every `fastifyPluginAsync` of a reference page. Fuzzy matching is the
 * costly part of a search; short terms gain little from it.
 */
const SEARCH_DEFAULTS = (boost: Record<string, number>) => ({
  boost,
  bm25: BM25,
  prefix: (term: string) => term.length >= 4 && term.length <= 6,
  fuzzy: (term: string) => (term.length > 5 && term.length <= MAX_FUZZY_TERM_CHARS ? 0.15 : false),
});
const PASSAGE_SEARCH = SEARCH_DEFAULTS({ pageTitle: 3, heading: 2.5, text: 1, codeText: 0.6 });
const PAGE_SEARCH = SEARCH_DEFAULTS({ title: 2, description: DESCRIPTION_WEIGHT, headings: 1 });

/**
 * The spellings of a word that a question writes in two cases past its first letter ("What is the
 * difference between yyyy and YYYY?"): the question says case carries meaning there, though the
 * index folds it. None for a capital that only starts a sentence ("Install" and "install").
 */
export function caseContrasts(query: string): string[] {
  // A word, lower-cased → its spellings, each keyed as written but for its first letter.
  const spellings = new Map<string, Map<string, string>>();
  for (const [word] of query.matchAll(/[\p{L}\p{N}_]{2,}/gu)) {
    const lower = word.toLowerCase();
    let found = spellings.get(lower);
    if (!found) spellings.set(lower, (found = new Map()));
    found.set(word[0]!.toLowerCase() + word.slice(1), word);
  }
  return [...spellings.values()].flatMap((found) => (found.size > 1 ? [...found.values()] : []));
}

/**
 * The ranked sections that hold every spelling of `contrasts` as written, first, from the sections
 * of the first `pages` pages (`firstWhere`): only a section showing both `yyyy` and `YYYY` can say
 * how they differ.
 */
function holdersFirst(ranked: Ranked[], contrasts: string[], pages: number): Ranked[] {
  const patterns = contrasts.map(
    (spelling) => new RegExp(`(?<![\\p{L}\\p{N}_])${spelling}(?![\\p{L}\\p{N}_])`, 'u'),
  );
  const holds = ({ section }: Ranked) => {
    const text = [section.heading, section.text, ...section.code.map((code) => code.value)].join(
      '\n',
    );
    return patterns.every((pattern) => pattern.test(text));
  };
  return firstWhere(ranked, holds, onFirstPages(ranked, pages));
}

/**
 * The sections of the first `count` pages of `ranked`, in rank order (a page ranks where its best
 * section does): the sections the fast search reads (`sectionsRead`), whatever the mode.
 */
function onFirstPages(ranked: Ranked[], count: number): Ranked[] {
  const pages = new Set<number>();
  for (const { page } of ranked) if (pages.size < count) pages.add(page);
  return pages.size < count ? ranked : ranked.filter(({ page }) => pages.has(page));
}

/**
 * `ranked` with the sections `chosen` picks among `onFirst` (those of its first pages) first, each
 * group in its order. Only those: a section far down that happens to qualify is no
 * answer, and the full sort (the exhaustive search, a model's fusion) once put first one that
 * scored a twelfth of the best, which the fast search never read.
 */
function firstWhere(
  ranked: Ranked[],
  chosen: (hit: Ranked) => boolean,
  onFirst: Ranked[],
): Ranked[] {
  const first = new Set(onFirst.filter(chosen));
  return first.size ? [...first, ...ranked.filter((hit) => !first.has(hit))] : ranked;
}

/** At most this many members a question names are looked for (a hostile one names thousands). */
const MEMBERS_READ = 8;
/** Names that are files or products, not members, though written with a dot. */
const NOT_MEMBERS =
  /^(?:[\w-]+\.(?:json|js|ts|md|mdx|html?|ya?ml|toml|lock|txt|cfg|ini|py|sh)|node\.js|next\.js|vue\.js|e\.g|i\.e)$/i;

/**
 * The API members a question names with a dot (`CliRunner.invoke`, `reply.code`): not files
 * (`package.json`) or products (`Node.js`).
 */
export function memberNames(query: string): string[] {
  const names = new Set<string>();
  // Only from a word's start: tried from inside each word too, a 100,000-letter word took
  // quadratic time to find no dot.
  for (const [name] of query.matchAll(/(?<![\w$])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+/g)) {
    if (!NOT_MEMBERS.test(name)) names.add(name);
    if (names.size === MEMBERS_READ) break;
  }
  return [...names];
}

/**
 * The candidate sections headed by a member the question names ("What parameters does
 * CliRunner.invoke take?" → `click.testing.CliRunner.invoke`; `reply.code` → `reply.code(statusCode)`)
 * first, in their order: the reader named the entry. Case decides when a heading has it as written
 * (`click.option`, the decorator, not the class `click.Option`); else any case does. Read from
 * headings only.
 */
function namedFirst(ranked: Ranked[], members: string[], pages: number): Ranked[] {
  const headed = (fold: (text: string) => string) => {
    const names = members.map(fold);
    return ({ section }: Ranked) => {
      const heading = fold(section.heading.replace(/\(.*$/s, '').trim());
      return names.some((name) => heading === name || heading.endsWith(`.${name}`));
    };
  };
  const exact = headed((text) => text);
  const onFirst = onFirstPages(ranked, pages);
  const fold = onFirst.some(exact) ? exact : headed((text) => text.toLowerCase());
  return firstWhere(ranked, fold, onFirst);
}

interface Ranked {
  section: DocSection;
  /** Its page's number (`pageNumber`). */
  page: number;
  score: number;
  /**
   * Its best passage (by the index's short id), whose matched words a hit names (for picking
   * sentences); -1: none.
   */
  passage: number;
}

/** A piece of a section as the index holds it: the whole section, or a part of a long one. */
interface Passage extends Scope {
  id: string;
  pageTitle: string;
  heading: string;
  text: string;
  codeText: string;
}

/**
 * What a search keeps or boosts a passage or page by, stored with it in the index: the search's
 * `boostOf` reads it there (no lookup per match) and returns 0 for what the search leaves out, so
 * those matches are never scored or allocated (a filter only drops them afterwards).
 */
interface Scope {
  pagePath: string;
  language: string;
  version: string | undefined;
}
const SCOPE_FIELDS = ['pagePath', 'language', 'version'];

/**
 * A section as passages: whole when short; a long one (a catalogue of plugins, a table of error
 * codes, a list of options) in pieces of a few blocks, list items or rows each, so it is judged by
 * its best piece rather than by containing every word somewhere.
 */
function passagesOf(section: DocSection): Pick<Passage, 'text' | 'codeText'>[] {
  const size = section.blocks.reduce((sum, block) => sum + block.text.length, 0);
  if (size <= LONG_SECTION_CHARS)
    return [{ text: section.text, codeText: section.code.map((c) => c.value).join('\n') }];
  const pieces = section.blocks.flatMap((block) =>
    block.kind === 'code'
      ? [{ text: '', codeText: block.text }]
      : (block.kind === 'list' || block.kind === 'table'
          ? block.text.split('\n')
          : [block.text]
        ).map((text) => ({ text, codeText: '' })),
  );
  const passages: { text: string; codeText: string }[] = [];
  let current = { text: '', codeText: '' };
  for (const piece of pieces) {
    if (current.text.length + current.codeText.length >= PASSAGE_CHARS) {
      passages.push(current);
      current = { text: '', codeText: '' };
    }
    current = {
      text: [current.text, piece.text].filter(Boolean).join('\n'),
      codeText: [current.codeText, piece.codeText].filter(Boolean).join('\n'),
    };
  }
  if (current.text || current.codeText) passages.push(current);
  return passages;
}

/**
 * What a section is named after when its heading is one name (an API member such as
 * `.header(key, value)` or `decorateRequest`, or a single word): the terms of that name, its humps
 * apart. Reference pages have one such section per method or option, and a question that names
 * the member is about that section more than about any other that mentions it in passing.
 */
function nameTermsOf(heading: string, tokenize: Tokenize): string[] {
  const name = /^\s*\.?([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:\(.*\))?\s*$/u.exec(heading)?.[1];
  if (!name) return [];
  const words = tokenize(name);
  // An identifier's humps without the whole (decorateRequest → decorate, request).
  return (words.length > 1 ? words.slice(1) : words).flatMap((word) => processTerm(word) ?? []);
}

/** Letters of a word the docs might write as two: lowercase, six or more. */
const JOINED_WORD = /^\p{Ll}{6,}$/u;
/** Letters of each half of such a word, at the least. */
const HALF_LETTERS = 3;
/**
 * Words of a question read for halves, at most: each is looked for in the docs' sections, and a
 * hostile question has dozens.
 */
const JOINED_WORDS_READ = 4;

/**
 * A question's words, with each lowercase word the docs never use that they write as two words in
 * a row ("whitespace": the docs' "white space") also searched as those two, its parts: diffutils
 * writes "white space" and "white-space" only, and "ignore whitespace differences" was searched
 * without its subject. Of the cuts into two words the docs use, the one whose shorter half is
 * longest, if they write it. Two words the docs only use apart are no such pair: "mongodump" is
 * not PyMongo's "mongo" and "dump".
 */
function withHalves<T extends { words: string[]; terms: string[]; parts: Map<string, string> }>(
  query: T,
  known: (term: string) => boolean,
  writtenInRow: (pair: string[], pairTerms: string[]) => boolean,
): T & { halves: Map<string, string[]> } {
  const halves = new Map<string, string[]>();
  const terms = [...query.terms];
  const parts = new Map(query.parts);
  const joined = query.words.flatMap((word) => {
    const whole = JOINED_WORD.test(word) ? processTerm(word) : null;
    return whole && !known(whole) ? [{ word, whole }] : [];
  });
  for (const { word, whole } of joined.slice(0, JOINED_WORDS_READ)) {
    let best: { pair: string[]; pairTerms: string[] } | undefined;
    let bestShorter = 0;
    for (let at = HALF_LETTERS; at <= word.length - HALF_LETTERS; at++) {
      const shorter = Math.min(at, word.length - at);
      if (shorter <= bestShorter) continue;
      const pair = [word.slice(0, at), word.slice(at)];
      // A stop word is no half: it is in no index.
      const pairTerms = pair.flatMap((half) => processTerm(half) ?? []);
      if (pairTerms.length === 2 && pairTerms.every(known)) {
        best = { pair, pairTerms };
        bestShorter = shorter;
      }
    }
    if (!best || !writtenInRow(best.pair, best.pairTerms)) continue;
    halves.set(word, best.pair);
    for (const term of best.pairTerms) {
      if (!terms.includes(term)) terms.push(term);
      if (!parts.has(term)) parts.set(term, whole);
    }
  }
  return { ...query, terms, parts, halves };
}

/**
 * The keyword ranking fused with the embedding model's (on a fixed scale, dense.ts), over the
 * sections the search keeps. Scores become the fused ones relative to the best, so the answer's
 * "quote the hits close to the best" rule reads them the same way; a section only the model found
 * has no matched words.
 */
function withDense(
  keyword: Ranked[],
  dense: DenseScores,
  kept: (id: string) => boolean,
  sectionOf: (id: string) => { section: DocSection; page: number },
): Ranked[] {
  const passageOf = new Map(keyword.map((r) => [r.section.id, r.passage]));
  const fused = fuseScores(
    new Map(keyword.map((r) => [r.section.id, r.score])),
    new Map([...dense].filter(([id]) => kept(id))),
  );
  const top = Math.max(...fused.values());
  return [...fused]
    .sort((a, b) => b[1] - a[1])
    .map(([id, score]) => ({
      ...sectionOf(id),
      score: score / top,
      passage: passageOf.get(id) ?? -1,
    }));
}

/**
 * Coverage the model vouches for: the best kept section's cosine, from nothing at DENSE_UNRELATED
 * to full at DENSE_COVERED. all-MiniLM-L6-v2 places unrelated questions on the same docs at cosines
 * up to about 0.47 (the dev halves' out-of-scope questions: 0.14–0.47; answerable ones mostly
 * 0.38–0.81), so below that the model's word adds nothing and keyword coverage decides alone. The
 * first scale (cosine / 0.6, so 0.24 already passed MIN_COVERAGE) answered most out-of-scope
 * questions. Chosen on the dev halves only (docs/answer-quality.md).
 */
const DENSE_UNRELATED = 0.4;
const DENSE_COVERED = 0.6;
function denseCoverage(dense: DenseScores, kept: (id: string) => boolean): number {
  for (const [id, similarity] of dense)
    if (kept(id))
      return Math.min(
        1,
        Math.max(0, (similarity - DENSE_UNRELATED) / (DENSE_COVERED - DENSE_UNRELATED)),
      );
  return 0;
}

/**
 * A retriever's indexes, kept between starts by an IndexStore (index-cache.ts) for a site's
 * `stamp`, and loaded instead of built.
 */
export interface SavedIndexes {
  compounds: [string, string[]][];
  pages: FlatIndex;
  passages: FlatIndex;
  /** Each page's stamp when indexed (DocsSite `pageStamps`), so a later state can be updated. */
  stamps?: [string, string][];
}

/** Kept indexes as a store loads them. */
export type LoadedIndexes = Omit<SavedIndexes, 'pages' | 'passages'> & {
  pages: KeptIndex;
  passages: KeptIndex;
};

/**
 * Where built indexes are kept: `load` hands what it kept for the site to `restore`, `exact` when
 * it was kept for the site's stamp, else for an earlier state of its pages (`restore` may update
 * it, or return undefined to have it built).
 */
export interface IndexStore {
  load<T>(
    site: DocsSite,
    restore: (saved: LoadedIndexes, exact: boolean) => T | undefined,
  ): T | undefined;
  save(site: DocsSite, saved: () => SavedIndexes): void;
}

/**
 * The two indexes of a site, loaded from `store` when it kept them for these pages, else built
 * (and kept). What the search reads beside them (sections, name terms, titles) is cheap and
 * always made from the pages. `collectAtEnd`: built for a large site, whose start collects its
 * garbage once more when the retriever is made.
 */
function indexesOf(site: DocsSite, store: IndexStore | undefined) {
  const options = (tokenize: Tokenize) => ({
    passages: {
      fields: ['pageTitle', 'heading', 'text', 'codeText'],
      idField: 'id',
      storeFields: SCOPE_FIELDS,
      processTerm,
      tokenize,
      searchOptions: PASSAGE_SEARCH,
    },
    // Pages are indexed by their outline too: a question is usually about a page's topic, and the
    // page's title, front-matter description and headings say what that topic is better than one
    // small section can. (Bodies stay out: a long page that mentions everything would win every
    // question.)
    pages: {
      fields: ['title', 'description', 'headings'],
      storeFields: SCOPE_FIELDS,
      processTerm,
      tokenize,
      searchOptions: PAGE_SEARCH,
    },
  });
  const pageEntryOf = (page: DocPage): PageEntry => ({
    id: page.path,
    pagePath: page.path,
    language: page.language,
    version: page.version,
    title: page.title,
    description: page.description ?? '',
    headings: page.sections
      .filter((section) => !isApiEntry(section))
      .map((section) => section.heading)
      .join('\n'),
  });
  function* passagesOfPage(page: DocPage): Generator<Passage> {
    for (const section of page.sections)
      for (const [n, piece] of passagesOf(section).entries())
        yield {
          ...piece,
          id: `${section.id}~${n}`,
          pagePath: section.pagePath,
          language: section.language,
          version: section.version,
          pageTitle: section.pageTitle,
          heading: section.heading,
        };
  }
  const add = (index: MiniSearch<Passage>, pageIndex: MiniSearch<PageEntry>, page: DocPage) => {
    pageIndex.add(pageEntryOf(page));
    index.addAll([...passagesOfPage(page)]);
  };
  const stamps = site.pageStamps ?? new Map<string, string>();
  const save = (compounds: Map<string, string[]>, passages: FlatIndex, pages: FlatIndex) =>
    store?.save(site, () => ({
      compounds: [...compounds],
      pages,
      passages,
      stamps: [...stamps],
    }));
  let fresh: Map<string, string[]> | undefined;
  const loaded = store?.load(site, (saved, exact) => {
    if (!exact) {
      // Kept for other pages: only worth updating when the words written as one or two are the
      // same (they shape every page's terms) and each page says what it was built from.
      fresh = compoundsOf(site);
      if (!saved.stamps || !sameCompounds(fresh, saved.compounds)) return undefined;
    }
    const compounds = new Map(saved.compounds);
    const tokenize = createTokenizer(compounds);
    const { passages, pages } = options(tokenize);
    const index = saved.passages.load<Passage>(passages);
    const pageIndex = saved.pages.load<PageEntry>(pages);
    if (!exact) {
      // The pages edited, added or removed since: their passages out, their new ones in.
      const before = new Map(saved.stamps);
      const stale = new Set(
        [...before].filter(([path, stamp]) => stamps.get(path) !== stamp).map(([path]) => path),
      );
      for (const id of saved.passages.ids)
        if (stale.has(id.slice(0, id.indexOf('#')))) index.discard(id);
      for (const path of stale) pageIndex.discard(path);
      for (const page of site.pages)
        if (stale.has(page.path) || !before.has(page.path)) add(index, pageIndex, page);
      save(compounds, flatten(index), flatten(pageIndex));
    }
    return { tokenize, index, pageIndex, collectAtEnd: false };
  });
  if (loaded) return loaded;
  const compounds = fresh ?? compoundsOf(site);
  const tokenize = createTokenizer(compounds);
  const { passages, pages } = options(tokenize);
  // Built as it is kept, then loaded as a warm start loads it (flat-index.ts).
  // On a large site, the build's garbage is collected at once (collect.ts): at half and three
  // quarters of the passages' read (V8 let it grow to about twice what is alive, the first start's
  // peak), when the passages are read and their tokens let go, and when both indexes are built and
  // written.
  const large = site.pages.length >= COLLECT_AFTER_PAGES;
  const flatPassages = flatIndexOf(
    (function* () {
      for (const [n, page] of site.pages.entries()) {
        if (large && (n === site.pages.length >> 1 || n === (3 * site.pages.length) >> 2))
          collectGarbage();
        yield* passagesOfPage(page);
      }
    })(),
    passages,
    large ? collectGarbage : undefined,
  );
  const flatPages = flatIndexOf(site.pages.map(pageEntryOf), pages);
  save(compounds, flatPassages, flatPages);
  if (large) collectGarbage();
  const index = kept(flatPassages).load<Passage>(passages);
  const pageIndex = kept(flatPages).load<PageEntry>(pages);
  return { tokenize, index, pageIndex, collectAtEnd: large };
}

/**
 * Sections whose terms a retriever keeps for coverage, and terms whose weight and presence it keeps
 * per scope (recent.ts): the last few dozen questions' worth, not every one ever asked.
 */
const SECTIONS_KEPT = 4000;
const TERMS_KEPT = 50_000;

/** Sites from which a first start collects the index build's garbage at once (collect.ts). */
const COLLECT_AFTER_PAGES = 1000;

/** Whether two sets of words written as one or two are the same. */
function sameCompounds(a: Map<string, string[]>, b: [string, string[]][]): boolean {
  return (
    a.size === b.length && b.every(([word, parts]) => a.get(word)?.join(' ') === parts.join(' '))
  );
}

type PageEntry = Scope & { id: string; title: string; description: string; headings: string };

/** Builds the full-text index once per site; each search is then an in-memory lookup. */
export function createRetriever(
  wholeSite: DocsSite,
  {
    store,
    exhaustive = false,
  }: {
    /** Keeps the built index between starts (`serve`: in its data folder). */
    store?: IndexStore | undefined;
    /**
     * Sort every matched section, read each common word's postings through and each section's
     * text for coverage, instead of the shortcuts that give the same results faster: what tests
     * compare the shortcuts with.
     * @default false
     */
    exhaustive?: boolean;
  } = {},
): Retriever {
  // Pages kept out of the site's search are out of its index: every index is of these pages, so a
  // kept one (by the site's stamp) is too.
  const site = searchedSite(wholeSite);
  const { tokenize, index, pageIndex, collectAtEnd } = indexesOf(site, store);
  const sections = new Map<string, DocSection>();
  const nameTerms = new Map<string, string[]>();
  // Words of each language's pages, to tell which language a question is written in: only read
  // when the site has pages in more than one language.
  const vocabulary = new Map<string, Set<string>>();
  const languages = new Set(site.pages.map((page) => page.language));
  const versions = new Set<string>();
  const titleCount = new Map<string, number>();
  for (const page of site.pages) {
    titleCount.set(page.title, (titleCount.get(page.title) ?? 0) + 1);
    if (page.version) versions.add(page.version);
    let words = vocabulary.get(page.language);
    if (!words) vocabulary.set(page.language, (words = new Set()));
    if (languages.size > 1)
      for (const word of `${page.title}\n${page.markdown}`.toLowerCase().split(WORD))
        if (word.length >= 2) words.add(word);
    for (const section of page.sections) {
      sections.set(section.id, section);
      nameTerms.set(section.id, nameTermsOf(section.heading, tokenize));
    }
  }
  /** A passage's section: its id is the section's and `~` and its number. */
  const scoring = createScoring(index, PASSAGE_SEARCH);
  const pageScoring = createScoring(pageIndex, PAGE_SEARCH);
  // Sections and pages by number, and each passage's section by the index's short id (a passage's
  // id is its section's, `~` and a number), so a search's per-match work reads arrays, not maps.
  const sectionList = [...sections.values()];
  const sectionNumber = new Map(sectionList.map((section, n) => [section.id, n]));
  const namesOf = sectionList.map((section) => nameTerms.get(section.id)!);
  const pageNumber = new Map<string, number>(site.pages.map((page, n) => [page.path, n]));
  const pageOfSection = Int32Array.from(sectionList, (s) => pageNumber.get(s.pagePath) ?? -1);
  const deprecatedPage = Uint8Array.from(site.pages, (page) => (isDeprecatedPage(page) ? 1 : 0));
  const pageOfPageDoc = Int32Array.from({ length: pageScoring.size }, (_, doc) => {
    const id = pageScoring.ids[doc];
    return typeof id === 'string' ? (pageNumber.get(id) ?? -1) : -1;
  });
  const sectionOfDoc = Int32Array.from({ length: scoring.size }, (_, doc) => {
    const id = scoring.ids[doc];
    return typeof id === 'string'
      ? (sectionNumber.get(id.slice(0, id.lastIndexOf('~'))) ?? -1)
      : -1;
  });
  /** Each section's first passage (`~0`), by the index's short id; -1: none. */
  const firstPassage = new Int32Array(sectionList.length).fill(-1);
  sectionOfDoc.forEach((n, doc) => {
    if (n >= 0 && (scoring.ids[doc] as string).endsWith('~0')) firstPassage[n] = doc;
  });
  /** Whether each section is short (read whole, as one passage): 0 not known yet, 1 yes, 2 no. */
  const short = new Uint8Array(sectionList.length);
  /** A short section's one passage in the index; -1 for a long one, read unit by unit. */
  const wholePassageOf = (section: DocSection) => {
    const n = sectionNumber.get(section.id);
    if (n === undefined) return -1;
    if (!short[n]) {
      // The length unitsOf joins: the blocks' text and a line break between each two.
      let length = section.blocks.length - 1;
      for (const block of section.blocks) length += block.text.length;
      short[n] = section.blocks.length && length <= LONG_SECTION_CHARS ? 1 : 2;
    }
    return short[n] === 1 ? firstPassage[n]! : -1;
  };
  // Per search, reused: each page's score, each section's best passage, pages covered.
  const pageScores = new Float64Array(site.pages.length);
  const bestDoc = new Int32Array(sectionList.length);
  const bestAt = new Int32Array(sectionList.length);
  const sectionSeen = new Int32Array(sectionList.length);
  const pageSeen = new Int32Array(site.pages.length);
  let searchNumber = 0;
  // A search's matched sections, their scores, and their pages, in buffers made once: at 20,000
  // pages a common word matched tens of thousands of sections, and arrays that size made each
  // search leave megabytes for the garbage collector.
  const touchedSections = new Int32Array(sectionList.length);
  const finalScores = new Float64Array(sectionList.length);
  const sectionsToRead = new Int32Array(sectionList.length);
  const pagesFound = new Int32Array(site.pages.length);
  const pageBest = new Int32Array(site.pages.length);
  const pageMark = new Int32Array(site.pages.length);
  const pageChosen = new Int32Array(site.pages.length);
  /**
   * Of the matched sections (`touched`, numbers into it ranked by `compare`), those a search
   * reads, in rank order: every section of the first `pageCount` pages in rank order (a page
   * ranks where its best section does). The hits come from the first `limit` of those pages and
   * coverage reads the first COVERAGE_CANDIDATES, so this is what sorting every matched section
   * gives them, without sorting the sections of the thousands of pages a common word is on.
   */
  function sectionsRead(
    touched: Int32Array,
    compare: (a: number, b: number) => number,
    search: number,
    pageCount: number,
  ): Int32Array {
    let pageCountFound = 0;
    for (let i = 0; i < touched.length; i++) {
      const page = pageOfSection[touched[i]!]!;
      // A section of no page (none is): every section is read.
      if (page < 0) return Int32Array.from(touched.keys()).sort(compare);
      if (pageMark[page] !== search) {
        pageMark[page] = search;
        pageBest[page] = i;
        pagesFound[pageCountFound++] = page;
      } else if (compare(i, pageBest[page]!) < 0) pageBest[page] = i;
    }
    for (const at of firstOf(pageCountFound, pageCount, (a, b) =>
      compare(pageBest[pagesFound[a]!]!, pageBest[pagesFound[b]!]!),
    ))
      pageChosen[pagesFound[at]!] = search;
    let readCount = 0;
    for (let i = 0; i < touched.length; i++)
      if (pageChosen[pageOfSection[touched[i]!]!] === search) sectionsToRead[readCount++] = i;
    return sectionsToRead.subarray(0, readCount).sort(compare);
  }
  /** The passages of each page, by short id. */
  const docsOfPage = new Map<string, number[]>();
  scoring.stored.forEach((stored, doc) => {
    const path = stored?.pagePath as string;
    const docs = docsOfPage.get(path);
    if (docs) docs.push(doc);
    else docsOfPage.set(path, [doc]);
  });
  /**
   * The passages a pruned search scores (holding one of its rarer words, or on one of its best
   * pages), marked with that search's number.
   */
  const candidates = new Int32Array(scoring.size);
  const candidateList = new Int32Array(scoring.size);
  let candidateMark = 0;
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

  /**
   * Idf of each term among the passages a search keeps, by language and version. The index never
   * changes, so it is counted once per term while the term is asked about, not on every question:
   * counting it is a search of its own, and these searches were a third of the time a question
   * took.
   */
  const idfs = new Map<string, Recent<string, number>>();

  /** Whether a kept passage holds a term exactly, by search scope and term. */
  const exactly = new Recent<string, boolean>(TERMS_KEPT);
  /**
   * The passages of a search, without scoring every passage a common word is in. On a large site
   * a docs word ("configure", "error", "request") is in a fixed share of all passages, so scoring
   * each of them made the work of one question grow with the site. When the question also has
   * rarer words, only the passages holding one of those are candidates: every question word is
   * scored on them (their scores are the full search's, since BM25 scores each passage on its own),
   * and the passages holding only common words are skipped, except on the pages whose title and
   * headings match the question best (a page about the question's common words). A question of
   * common words alone is searched in full. Small sites, where no word reaches
   * COMMON_MIN_PASSAGES, are always searched in full. `common` names the common terms the kept passages hold as they are (the full search
   * would have found them), for the words-never-used check.
   */
  function searchPruned(
    terms: string[],
    allTerms: string[],
    boostOf: ((doc: number) => number) | undefined,
    boostTerm: (term: string) => number,
    weightOf: (term: string) => number,
    scopeKey: string,
    /** The best pages by title and headings: all their passages are candidates too. */
    { pages }: { pages: string[] },
  ): { matches: Matches; common: string[] } {
    // weightOf is the idf of a term among the kept passages: log(1 + N / (df + 0.5)).
    const limit = Math.max(COMMON_MIN_PASSAGES, COMMON_SHARE * index.documentCount);
    const commonWeight = Math.log(1 + index.documentCount / (limit + 0.5));
    const common = allTerms.filter((term) => weightOf(term) < commonWeight);
    const rare = allTerms.filter((term) => !common.includes(term));
    if (common.length === 0 || rare.length === 0)
      return { matches: scoring.match(terms, boostOf, boostTerm), common: [] };
    const mark = ++candidateMark;
    scoring.mark(rare, boostOf, candidates, mark);
    for (const page of pages) for (const doc of docsOfPage.get(page) ?? []) candidates[doc] = mark;
    const admitted = (doc: number) => (candidates[doc] === mark ? (boostOf ? boostOf(doc) : 1) : 0);
    // The candidates in order, so a common word's long postings are searched for them.
    let count = 0;
    for (let doc = 0; doc < candidates.length; doc++)
      if (candidates[doc] === mark) candidateList[count++] = doc;
    const matches = scoring.match(
      terms,
      admitted,
      boostTerm,
      exhaustive ? undefined : candidateList.subarray(0, count),
    );
    const present = common.filter((term) => {
      const key = `${scopeKey}\n${term}`;
      let found = exactly.get(key);
      if (found === undefined) exactly.set(key, (found = scoring.holds(term, boostOf)));
      return found;
    });
    return { matches, common: present };
  }

  const units = new Recent<DocSection, Set<string>[]>(SECTIONS_KEPT);
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
      found = (texts.length ? texts : ['']).map((text) => {
        const terms = new Set<string>();
        tokenize.termsInto(`${context}\n${text}`, terms);
        return terms;
      });
      units.set(section, found);
    }
    return found;
  };
  const titleOf = (section: DocSection) => {
    // A root index.md without a title is cited by the site's name, as the sidebar shows it.
    const title = pageLabelOf(site, { path: section.pagePath, title: section.pageTitle });
    return (titleCount.get(section.pageTitle) ?? 0) > 1 && section.version
      ? `${title} (${section.version})`
      : title;
  };

  /** Whether a section has the two words in a row ("white space", "white-space"), as written. */
  const writtenInRow = ([first, second]: string[], terms: string[]) => {
    const [fewer, more] = terms
      .map((term) => scoring.holding(term))
      .sort((a, b) => a.size - b.size) as [Set<number>, Set<number>];
    const inRow = new RegExp(`(?<![\\p{L}\\p{N}])${first}[\\s-]+${second}`, 'iu');
    for (const doc of fewer) {
      const n = sectionOfDoc[doc]!;
      if (n < 0 || !more.has(doc)) continue;
      const section = sectionList[n]!;
      if (inRow.test(`${section.heading}\n${section.text}`)) return true;
    }
    return false;
  };

  // And once more now, on a large site's first start (with the collections while building): a
  // collection by V8 of what the start left, begun in the first answers, slowed them (answer p99
  // 97-210 ms at 20,000 pages, 71-87 ms with this).
  if (collectAtEnd) collectGarbage();
  return {
    sectionsOf: (pagePath) => site.byPath.get(pagePath)?.sections ?? [],
    terms: (query) => queryWords(query, tokenize).terms,
    search(query, { limit, filter, currentPath, earlier, dense }) {
      const currentPage = currentPath ? site.byPath.get(currentPath) : undefined;
      const language =
        filter?.language ||
        languageOf(query) ||
        (earlier && languageOf(earlier)) ||
        currentPage?.language ||
        siteLanguage;
      // The newest version wins unless the request pins one or the question names one.
      const namedVersion = versionNamed(query) || (earlier && versionNamed(earlier)) || undefined;
      const version = filter?.version || namedVersion || newestVersion;
      // A page without a version applies to every version.
      const keep = (scope: Scope) =>
        scope.language === language && (!scope.version || !version || scope.version === version);
      // One language and no versions: everything is kept, and without a current page there is
      // nothing to boost, so the index is searched with no per-match callback at all.
      const keepsAll = vocabulary.size === 1 && versions.size === 0 && language === siteLanguage;
      const boostOfScope =
        keepsAll && !currentPath
          ? undefined
          : (stored: Record<string, unknown> | undefined) => {
              const scope = stored as unknown as Scope;
              if (!keep(scope)) return 0;
              return currentPath && scope.pagePath === currentPath ? CURRENT_PAGE_BOOST : 1;
            };
      const boostOf = boostOfScope && ((doc: number) => boostOfScope(scoring.stored[doc]));
      const pageBoostOf = boostOfScope && ((doc: number) => boostOfScope(pageScoring.stored[doc]));

      const idfKey = `${language}\n${version ?? ''}`;
      let idf = idfs.get(idfKey);
      if (!idf) idfs.set(idfKey, (idf = new Recent(TERMS_KEPT)));
      const weightOf = (term: string) => {
        let weight = idf.get(term);
        if (weight === undefined) {
          const df = scoring.count(scoring.termsOf(term), boostOf);
          idf.set(term, (weight = Math.log(1 + index.documentCount / (df + 0.5))));
        }
        return weight;
      };
      // A follow-up is searched together with the question it follows, whose words count less: a
      // section about both ("validate" + "response") beats one about the new word alone.
      const own = withHalves(
        queryWords(query, tokenize),
        (term) => scoring.holds(term, boostOf),
        writtenInRow,
      );
      const ownTerms = new Set(own.terms);
      const before = earlier
        ? queryWords(earlier, tokenize)
        : { words: [], terms: [], parts: new Map<string, string>() };
      // A word's parts weigh less when the docs use the word itself: "JavaScript" is about
      // JavaScript, not about every npm script.
      const partWeights = new Map<string, number>();
      for (const { terms, parts } of [before, own])
        for (const term of terms) {
          const whole = parts.get(term);
          if (whole === undefined) partWeights.set(term, 1);
          else if (partWeights.get(term) !== 1)
            partWeights.set(term, scoring.holds(whole, boostOf) ? PART_WEIGHT : 1);
        }
      const termWeight = (term: string) =>
        (partWeights.get(term) ?? 1) * (ownTerms.has(term) ? 1 : EARLIER_WEIGHT);
      const allTerms = [...new Set([...own.terms, ...before.terms])];
      const allTermSet = new Set(allTerms);
      const asksDeprecation = ASKS_ABOUT_DEPRECATION.test(query);
      const words = [
        ...own.words.flatMap((word) => [word, ...(own.halves.get(word) ?? [])]),
        ...before.words.filter((word) =>
          tokenize(word).some((token) => {
            const term = processTerm(token);
            return term && !ownTerms.has(term);
          }),
        ),
      ].join(' ');
      /** The share of the question's terms a result matched, each weighted by rarity and origin. */
      const weighTerms = (terms: Iterable<string>) => {
        let sum = 0;
        for (const term of terms) sum += termWeight(term) * weightOf(term);
        return sum;
      };
      const totalWeight = weighTerms(allTerms);
      // Thousands of sections match the same few sets of terms: each set is weighed once.
      const shares = new Map<string, number>();
      const sharesOfLists = new Map<string[], number>();
      const shareOf = (matched: string[]) => {
        let share = sharesOfLists.get(matched);
        if (share === undefined) sharesOfLists.set(matched, (share = shareOfTerms(matched)));
        return share;
      };
      const shareOfTerms = (matched: string[]) => {
        const key = matched.join('\n');
        let share = shares.get(key);
        if (share === undefined)
          shares.set(key, (share = totalWeight ? weighTerms(new Set(matched)) / totalWeight : 0));
        return share;
      };

      /**
       * Sections scored by their own match plus their page's (both relative to the best), times
       * how much of the question they carry: one rare word matched many times should not beat a
       * section that answers the whole question.
       */
      const boostTerm = (term: string) => termWeight(term);
      const pageMatches = pageScoring.match(pageScoring.termsOf(words), pageBoostOf, boostTerm);
      // Best first; equal scores in the order they matched, as MiniSearch's (stable) sort leaves them.
      const pageDocs = pageMatches.docs;
      const pageScoreOf = (at: number) => pageMatches.score[pageDocs[at]!]!;
      // Only the best few are read (the candidate pages), and the best score.
      const byPageScore = (a: number, b: number) => pageScoreOf(b) - pageScoreOf(a) || a - b;
      const pages = exhaustive
        ? [...pageDocs.keys()].sort(byPageScore).slice(0, CANDIDATE_PAGES)
        : firstOf(pageDocs.length, CANDIDATE_PAGES, byPageScore);
      const pageTop = pages.length ? pageScoreOf(pages[0]!) : 0;
      const search = ++searchNumber;
      pageScores.fill(0);
      for (const doc of pageMatches.docs) {
        const page = pageOfPageDoc[doc]!;
        if (page >= 0) pageScores[page] = pageTop ? pageMatches.score[doc]! / pageTop : 0;
      }
      // The index terms some kept passage holds as they are: the search looked each question term
      // up exactly (besides its prefixes and near spellings), so a term missing here is one the
      // docs never use, found without searching each word again.
      const matchedTerms = new Set<string>();
      const searched = searchPruned(
        scoring.termsOf(words),
        allTerms,
        boostOf,
        boostTerm,
        weightOf,
        idfKey,
        {
          pages: pages.map((at) => pageScoring.ids[pageDocs[at]!] as string),
        },
      );
      const { matches } = searched;
      for (const term of searched.common) matchedTerms.add(term);
      for (const term of matches.matched) matchedTerms.add(term);
      // A section is as good as its best passage: the first of the highest, in the order they matched.
      let touchedCount = 0;
      let top = 0;
      const { docs, score: passageScore } = matches;
      for (let at = 0; at < docs.length; at++) {
        const doc = docs[at]!;
        const score = passageScore[doc]!;
        if (score > top) top = score;
        const n = sectionOfDoc[doc]!;
        if (sectionSeen[n] !== search) {
          sectionSeen[n] = search;
          touchedSections[touchedCount++] = n;
        } else if (!(score > passageScore[bestDoc[n]!]!)) continue;
        bestDoc[n] = doc;
        bestAt[n] = at;
      }
      const touched = touchedSections.subarray(0, touchedCount);
      const finalScore = finalScores.subarray(0, touchedCount);
      for (let i = 0; i < touched.length; i++) {
        const n = touched[i]!;
        const section = sectionList[n]!;
        const passage = passageScore[bestDoc[n]!]!;
        const relevance = (top ? passage / top : 0) + PAGE_WEIGHT * pageScores[pageOfSection[n]!]!;
        const named = namedVersion && section.version === namedVersion ? NAMED_VERSION_BOOST : 1;
        // A section named after words of the question, by the share of the question they are.
        const name = namesOf[n]!;
        const member =
          name.length && name.every((term) => allTermSet.has(term))
            ? 1 + MEMBER_BOOST * shareOf(name)
            : 1;
        const stale = deprecatedPage[pageOfSection[n]!] && !asksDeprecation ? DEPRECATED_WEIGHT : 1;
        finalScore[i] =
          named *
          member *
          stale *
          relevance *
          Math.max(SHARE_FLOOR, shareOf(matches.queryTerms(bestDoc[n]!)));
      }
      const keptSection = (id: string) => {
        const { pagePath, language, version } = sections.get(id)!;
        return keep({ pagePath, language, version });
      };
      // Ties in the order of the sections' best passages (by score, then as they matched), as
      // sorting MiniSearch's results and then the sections, both stable, left them.
      const compare = (a: number, b: number) =>
        finalScore[b]! - finalScore[a]! ||
        passageScore[bestDoc[touched[b]!]!]! - passageScore[bestDoc[touched[a]!]!]! ||
        bestAt[touched[a]!]! - bestAt[touched[b]!]!;
      // The pages whose sections the search reads: the hits' and coverage's.
      const shortlist = Math.max(limit, COVERAGE_CANDIDATES);
      const byRank =
        dense || exhaustive
          ? Int32Array.from(touched.keys()).sort(compare)
          : sectionsRead(touched, compare, search, shortlist);
      const byScore = Array.from(byRank, (i): Ranked => {
        const doc = bestDoc[touched[i]!]!;
        return {
          section: sectionList[touched[i]!]!,
          page: pageOfSection[touched[i]!]!,
          score: finalScore[i]!,
          passage: doc,
        };
      });
      const contrasts = caseContrasts(query);
      const members = memberNames(query);
      const byMember = members.length ? namedFirst(byScore, members, shortlist) : byScore;
      const byContrast = contrasts.length ? holdersFirst(byMember, contrasts, shortlist) : byMember;
      // A follow-up asks something new: the sections holding its own words come first. The
      // thread's words, four to its one, put attrs' hashing section first again for "and can I
      // make them ordered?" after a question about hashing, and the answer repeated itself.
      const keywordRanked =
        earlier && ownTerms.size
          ? firstWhere(
              byContrast,
              ({ passage }) =>
                passage >= 0 && matches.terms(passage).some((term) => ownTerms.has(term)),
              onFirstPages(byContrast, shortlist),
            )
          : byContrast;
      const ranked = dense
        ? withDense(keywordRanked, dense, keptSection, (id) => {
            const section = sections.get(id)!;
            return { section, page: pageNumber.get(section.pagePath) ?? -1 };
          })
        : keywordRanked;
      // At most a few sections per page, so the hits name several candidate pages; and a section
      // a reference repeats word for word on many pages (npm's `global` option, on every command
      // that takes it) once, at its best copy: three copies were all three places of an answer.
      // When the matched pages are too few to fill the hits that way, their next sections fill
      // them, in rank order: Beautiful Soup's manual is one page, and a question about it had two
      // places to look at most.
      const perPage = new Map<string, number>();
      const hits: SearchHit[] = [];
      const rankOf = new Map<SearchHit, number>();
      const shown = new Map<string, SearchHit>();
      // An API entry under two names with one description (pyparsing's `setDefaultWhitespaceChars`
      // and `set_default_whitespace_chars`) once: both were quoted, one after the other.
      const aliases = new Set<string>();
      for (const cap of [SECTIONS_PER_PAGE, Infinity]) {
        for (let at = 0; at < ranked.length && hits.length < limit; at++) {
          const { section, score, passage } = ranked[at]!;
          const count = perPage.get(section.pagePath) ?? 0;
          if (count >= cap) continue;
          if (isNavigation(section)) continue;
          const key = `${section.heading}\n${section.text}`;
          const original = shown.get(key);
          const description = descriptionOf(section);
          const alias = description && `${section.pagePath}\n${description}`;
          if (!original && alias && aliases.has(alias)) continue;
          if (original) {
            if (original.section.pagePath !== section.pagePath)
              original.copyScore = Math.max(original.copyScore ?? 0, score);
            continue;
          }
          perPage.set(section.pagePath, count + 1);
          const terms = passage >= 0 ? matches.terms(passage) : [];
          const hit: SearchHit = { section, score, terms, title: titleOf(section) };
          shown.set(key, hit);
          if (alias) aliases.add(alias);
          rankOf.set(hit, at);
          hits.push(hit);
        }
        if (hits.length >= limit) break;
      }
      hits.sort((a, b) => rankOf.get(a)! - rankOf.get(b)!);

      // Coverage: the share of the question's terms that one of the best pages carries, each term
      // weighted by how rare it is (a question's rarest word is usually its subject). A long
      // section (a catalogue, a big table) counts only its best passage: it contains every word
      // somewhere, which says nothing about whether it answers the question. A follow-up's terms
      // are the thread's, the earlier question's weighing less as in the ranking: "what if I don't
      // want it copied?" after a question about buffers is covered by the buffers page, and
      // "and then?" is as covered as the question it follows.
      const queryTerms = allTerms;
      const coverageWeight = (term: string) => termWeight(term) * weightOf(term);
      let coverage = 0;
      if (queryTerms.length > 0) {
        const total = queryTerms.reduce((sum, term) => sum + coverageWeight(term), 0);
        const weigh = (found: Set<string>) =>
          [...found].reduce((sum, term) => sum + coverageWeight(term), 0);
        const byPage = new Map<string, Set<string>>();
        // A short section is one passage of the index and one unit here: the same words (the
        // passage's fields are the section's title, heading, prose and code, read apart; the unit
        // is them joined by line breaks), so the same terms but for "version 5" (v5) written
        // across two of them, which only the unit joins. Unless the question has such a term, its
        // terms are looked up in the index instead of reading the section's text (a question's
        // best pages were 50 sections and 50 KB of text to split and stem, mostly for the first
        // time). A long section's units are not its passages: read as before.
        const heldFromIndex = !exhaustive && !queryTerms.some((term) => VERSION_TERM.test(term));
        const holders = heldFromIndex ? queryTerms.map((term) => scoring.holder(term)) : [];
        for (const { section, page } of ranked) {
          if (pageSeen[page] !== search) {
            if (byPage.size >= COVERAGE_CANDIDATES) continue;
            pageSeen[page] = search;
          }
          const covered = byPage.get(section.pagePath) ?? new Set<string>();
          let best = new Set<string>();
          const passage = heldFromIndex ? wholePassageOf(section) : -1;
          if (passage >= 0) {
            const found = new Set(queryTerms.filter((_term, t) => holders[t]!(passage)));
            if (weigh(found) > 0) best = found;
          } else
            for (const unit of unitsOf(section)) {
              const found = new Set(queryTerms.filter((term) => unit.has(term)));
              if (weigh(found) > weigh(best)) best = found;
            }
          for (const term of best) covered.add(term);
          byPage.set(section.pagePath, covered);
        }
        for (const found of byPage.values())
          coverage = Math.max(coverage, total ? weigh(found) / total : 0);
      }
      // Words the docs never use still count against coverage above (at the highest weight); they
      // are also named, so the reasoning can say which words found nothing.
      const unknown = own.words.filter((word) => {
        const terms = [...tokenize(word), ...(own.halves.get(word) ?? [])].flatMap(
          (token) => processTerm(token) ?? [],
        );
        return terms.length > 0 && terms.every((term) => !matchedTerms.has(term));
      });
      // A follow-up whose own words the docs never use asks what they do not cover: its thread's
      // words alone covered "and how do I make them sortable?" after a question about hashing,
      // and quoted the hashing answer again, word for word.
      if (earlier && own.words.length > 0 && unknown.length === own.words.length) coverage = 0;
      const opening = /^[^\p{L}\p{N}]*([\p{L}\p{N}_]+)/u.exec(query)?.[1];
      // A name written in mixed case is never mentioned when the docs never use it whole, whatever
      // its parts match: "MySQL" met psycopg2's "SQL", and a question about MySQL was quoted
      // "sure". Not other words: "snake_case" and "French" (the docs' `fr`) are matched as read.
      const unknownNames = own.words.filter((word) =>
        unknown.includes(word)
          ? /\p{Ll}\p{Lu}|\d|_/u.test(word) || (/^\p{Lu}/u.test(word) && word !== opening)
          : /\p{Ll}\p{Lu}/u.test(word) && !matchedTerms.has(processTerm(word) ?? word),
      );
      // A question the model places close to a section is covered, whatever words it uses.
      if (dense) coverage = Math.max(coverage, denseCoverage(dense, keptSection));
      return {
        hits,
        coverage,
        words: own.words,
        unknown,
        unknownNames,
        leftOut: own.leftOut,
        language,
        ...(version ? { version } : {}),
      };
    },
  };
}
