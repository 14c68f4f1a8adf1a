import type { ConfidenceLevel } from '../../protocol/index.js';
import {
  citedAs,
  isApiEntry,
  isNavigation,
  isReleaseNotes,
  markdownWords,
  namesSomething,
  opensOnPrototype,
  opensOnSignature,
  type DocBlock,
  type DocSection,
} from '../site/docs.js';
import { sentencesOf } from '../site/sentences.js';
import type { AnswerOutcome, CitedPage } from './parts.js';
import { phrasesFor, type AnswerPhrases } from './phrases.js';
import type { SearchHit, SearchResult } from './retrieval.js';

export interface ComposedAnswer {
  markdown: string;
  /** Pages quoted in the answer, in citation order ([1], [2], …). */
  cited: CitedPage[];
  /** One sentence for the reasoning part: what was found and why it was chosen. */
  rationale: string;
  /**
   * How sure the answer is: `sure` quotes the section that answers, `unsure` shows the best places
   * to read, `refused` says the docs do not cover the question and offers the nearest pages.
   */
  level: ConfidenceLevel;
  /** Up to {@link FOLLOW_UP_QUESTIONS} questions a reader may ask next, each one the docs answer. */
  followUps: string[];
}

/** How many follow-up questions an answer offers. */
export const FOLLOW_UP_QUESTIONS = 3;
/** A heading of at most this many words is named with its page in a follow-up question. */
const SHORT_HEADING_WORDS = 2;
/** A heading longer than this many words is not offered as a follow-up question. */
const MAX_FOLLOW_UP_WORDS = 10;
/** A heading that names a release: a version number, after "Version", "Release" or "v" at most. */
const RELEASE_HEADING = /^(?:(?:version|release)\s+|v)?\d+(?:\.\d+)+(?![\w.])/i;
/** A page a project keeps about itself, by its title or file: code of conduct, licence, authors. */
const ABOUT_PROJECT =
  /^(?:code[-_ ]of[-_ ]conduct|licen[cs]e|copying|authors|contributors|contributing|credits|kudos|backers|sponsors|acknowledge?ments|who'?s[-_ ]using|whos[-_ ]using)$/i;

/**
 * A page or section listing who uses the project (Pygments' FAQ "Who uses Pygments?", Sphinx's
 * "Projects using Sphinx"): its project names hold every common word, and it was quoted "sure" for
 * "How do I highlight Python code and get HTML output in my Python program?".
 */
const WHO_USES =
  /^(?:who(?:'s|’s| is)? us(?:es|ing)\b|(?:projects|companies|organi[sz]ations|sites|products) (?:that )?us(?:e|ing)\b|used by\b|in the wild\b|showcase\b)/i;
/** Words that ask who uses a project: "Which projects use it?", "Who uses it?". */
const USERS_WORDS = /^(?:users?|uses|projects?|compan(?:y|ies)|organi[sz]ations?|adopters?)$/i;
const isAboutUsers = ({ pageTitle, heading }: Pick<DocSection, 'pageTitle' | 'heading'>) =>
  WHO_USES.test(pageTitle.trim()) || WHO_USES.test(heading.trim());

/**
 * A page beside the docs, not about using what they document: release notes (isReleaseNotes), or
 * a page about the project itself (marshmallow's "Code of Conduct › The Nope Case" was offered next
 * after a question about camelCase keys) or its users. Searched and quoted when asked about;
 * offered to read next, related, quoted as "See also" or named as a place to look only after an
 * answer from one.
 */
const isAside = (section: Pick<DocSection, 'pagePath' | 'pageTitle' | 'heading'>): boolean =>
  isReleaseNotes(section) ||
  isAboutUsers(section) ||
  ABOUT_PROJECT.test(section.pageTitle.trim()) ||
  ABOUT_PROJECT.test(section.pagePath.split('/').at(-1) ?? '');

/** Words that ask about releases and changes: "What changed in 2.0?", "Is it deprecated?". */
const CHANGE_WORDS =
  /^(?:v?\d+(?:\.\d+)+|v\d+|versions?|releases?|released|changelog|changed|new|upgrad\w*|migrat\w*|deprecat\w*|removed|history|fixed|bugs?|since|added|breaking)$/i;
/** Words of a changelog's own title ("Changes", "History") that usage questions use too. */
const TITLE_OF_CHANGES = /^(?:change[sd]?|changelog|history|news|releases?|notes)$/i;

/**
 * Whether a question is about an aside (isAside): it names a release or a change, or a word of the
 * page's title ("What is the nope case in the code of conduct?"). "…restart when my code
 * changes?" is not about a page titled "Changes". A list of users is asked about as such: the
 * project's name, in its title, is in most questions.
 */
function asksAbout(words: string[], section: Pick<DocSection, 'pageTitle' | 'heading'>): boolean {
  if (isAboutUsers(section)) return words.some((word) => USERS_WORDS.test(word));
  const title = new Set(
    section.pageTitle
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3 && !TITLE_OF_CHANGES.test(word)),
  );
  return words.some((word) => CHANGE_WORDS.test(word) || title.has(word.toLowerCase()));
}

/**
 * Questions about the sections a reader did not see yet: the rest of the quoted pages first, then
 * the related pages. Each names a heading of the docs, so asking it finds that section.
 */
function followUpsOf(
  quoted: SearchHit[],
  related: SearchHit[],
  sectionsOf: (pagePath: string) => DocSection[],
  phrases: AnswerPhrases,
  {
    shown = [],
    readBefore = () => false,
  }: {
    /** Sections the answer showed besides the quoted ones (those a page intro promised). */
    shown?: DocSection[];
    /** Whether the thread's previous answer quoted a section: the reader has read it. */
    readBefore?: (section: DocSection) => boolean;
  } = {},
): string[] {
  // A heading as a question names it: "Using 3rd party apps:" without its colon, "2. Paste the
  // tag" without its step number.
  const askable = (heading: string) =>
    heading
      .trim()
      .replace(/\s*:$/, '')
      .replace(/^\d+[.)]\s+/, '');
  // What the answer showed is not offered again: the quoted sections and those a page intro brought.
  const seen = new Set(
    [...quoted.map((hit) => hit.section), ...shown].map((section) =>
      askable(section.heading).toLowerCase(),
    ),
  );
  const headings: string[] = [];
  // A quoted section's neighbours first, the ones after it before the ones above it: after "Set a
  // Cookie" the reader's next question is "Delete a Cookie", three lines below, not the page's
  // first sections. A page's top (its intro, before its first heading) is never offered, nor an
  // API entry's neighbours: they are the next names in the reference's order (after Flask's
  // `register_blueprint`, `register_error_handler`, `request_class`, `request_context`).
  const neighbours = (section: DocSection) => {
    if (isApiEntry(section)) return [];
    const sections = sectionsOf(section.pagePath);
    const at = Math.max(
      0,
      sections.findIndex((other) => other.id === section.id),
    );
    return [...sections.slice(at + 1), ...sections.slice(0, at).reverse()].filter(
      (other) => other.anchor !== '',
    );
  };
  // A related page's API entry (`celery.backends.redis.RedisBackend.supports_autoexpire` after a
  // question about installing with Redis) is a reference's member, offered only to a reader who
  // was answered from a reference.
  const fromReference = quoted.some((hit) => isApiEntry(hit.section));
  // Release notes and pages about the project likewise, only after an answer that came from one.
  const fromAsides = quoted.some((hit) => isAside(hit.section));
  const unseen = [
    ...quoted.flatMap((hit) => neighbours(hit.section)),
    ...related
      .map((hit) => hit.section)
      .filter(
        (section) => (fromReference || !isApiEntry(section)) && (fromAsides || !isAside(section)),
      ),
  ];
  for (const section of unseen) {
    if (readBefore(section)) continue;
    const heading = askable(section.heading);
    if (!namesSomething(heading) || seen.has(heading.toLowerCase())) continue;
    // A changelog's entry ("Version 7.0", "1.7.1 (2019-04-21)") is no question a reader asks next,
    // nor a table of contents ("Contents:" and Sphinx's "Indices and tables" on peewee's index).
    if (RELEASE_HEADING.test(heading) || isNavigation(section)) continue;
    // Nor one that goes on from the heading above it ("… that's all?" under Pygments' Languages).
    if (/^(?:…|\.\.\.)/.test(heading)) continue;
    // A sentence-long heading is no question a reader would ask.
    if (heading.split(/\s+/).length > MAX_FOLLOW_UP_WORDS) continue;
    seen.add(heading.toLowerCase());
    // "Tell me about “Notes”" says nothing of which Notes, and asking it finds any page's: a short
    // heading is asked about in its page, or under the heading above it when the page repeats it.
    const page = (section.parent ?? section.pageTitle).trim();
    const short = heading.split(/\s+/).length <= SHORT_HEADING_WORDS;
    const inPage =
      short && page && !heading.toLowerCase().includes(page.toLowerCase()) ? page : undefined;
    headings.push(phrases.tellMeAbout(heading, inPage));
    if (headings.length === FOLLOW_UP_QUESTIONS) break;
  }
  return headings;
}

/**
 * Below this coverage (the idf-weighted share of the question's words that one of the best pages
 * carries) the question counts as not covered. Chosen from the curve `npm run eval` prints: the
 * highest-scoring out-of-scope question of both corpora scores 0.396 and the next answerable one
 * 0.407, so the threshold sits between them; 1 of 78 answerable questions scores under it and gets
 * the nearest pages instead of an answer (see README, "Answer quality").
 */
export const MIN_COVERAGE = 0.4;

/**
 * When the best section of another page scores at least this share of the best section, the search
 * has no clear winner: the answer says so and shows the best places instead of quoting one as the
 * answer. Chosen on the dev halves of the eval only, from the curve `npm run eval` prints
 * (docs/answer-quality.md, "Confidence").
 */
export const CLOSE_MARGIN = 0.7;

/**
 * How close the best section of another page comes to the best section: its score over the best.
 * A copy of the best section on another page counts: which page answers is as open.
 */
export function runnerUpShare(hits: SearchHit[]): number {
  const best = hits[0];
  if (!best || best.score <= 0) return 0;
  const other = hits.find((hit) => hit.section.pagePath !== best.section.pagePath);
  return Math.max(other?.score ?? 0, best.copyScore ?? 0) / best.score;
}

/**
 * How sure a search is that one section answers: `refused` when nothing matches (no hit, or the
 * best pages carry under MIN_COVERAGE of the question), `unsure` when the question names something
 * the docs never mention, another page comes within CLOSE_MARGIN of the best section or the best
 * is an aside the question is not about, else `sure`.
 */
export function confidenceOf(
  result: Pick<SearchResult, 'hits' | 'coverage' | 'words'> &
    Partial<Pick<SearchResult, 'unknownNames'>>,
  margin = CLOSE_MARGIN,
): ConfidenceLevel {
  if (result.hits.length === 0 || result.coverage < MIN_COVERAGE) return 'refused';
  // A question about something the docs never name is no sure answer, however well its other
  // words match: "How do I run PostgreSQL in a Docker container for my tests?" quoted
  // SQLAlchemy's PostgreSQL types as sure.
  if (result.unknownNames?.length) return 'unsure';
  // Release notes name every feature, often more times than its guide does: first for a question
  // about something else, they are no sure answer (werkzeug's "restart automatically" question,
  // answered "sure" from its changelog).
  if (offTopicAside(result)) return 'unsure';
  return runnerUpShare(result.hits) >= margin ? 'unsure' : 'sure';
}

/** Whether the best hit is an aside (release notes, a page about the project) the question is not about. */
const offTopicAside = ({ hits, words }: Pick<SearchResult, 'hits' | 'words'>) =>
  hits[0] !== undefined && isAside(hits[0].section) && !asksAbout(words, hits[0].section);

/** The turn's outcome (what insights count) of an answer given at a level. */
export const outcomeOf = (level: ConfidenceLevel): AnswerOutcome =>
  level === 'sure' ? 'answered' : level;

/** How many sections the answer quotes; the rest become follow-up suggestions. */
const QUOTED_SECTIONS = 3;
/** A section scoring under this share of the best one is not quoted (it is listed to read next). */
const QUOTE_RELATIVE_SCORE = 0.45;
const BLOCKS_PER_SECTION = 2;
/**
 * A quoted code block longer than MAX_CODE_LINES + CODE_CUT_SLACK lines shows MAX_CODE_LINES of
 * them (`codeShown`). One only a little longer is shown whole: cutting the last few lines of a
 * 36-line workflow hid the step that runs the tool, the line the reader came for.
 */
const MAX_CODE_LINES = 30;
const CODE_CUT_SLACK = 15;
const MAX_TABLE_ROWS = 15;
const MAX_LIST_ITEMS = 15;
const MAX_ITEM_CHARS = 1500;
/** How much of a code block a quote shows (codeShown). */
interface CodeLimits {
  codeLines: number;
  /** Code up to this many lines past `codeLines` is shown whole. */
  codeSlack: number;
}
/** How much of a section's lists and code a quote shows. */
interface QuoteLimits extends CodeLimits {
  listItems: number;
}
const ANSWER_LIMITS: QuoteLimits = {
  listItems: MAX_LIST_ITEMS,
  codeLines: MAX_CODE_LINES,
  codeSlack: CODE_CUT_SLACK,
};
/**
 * A "See also" section is there beside the answer: its lists show fewer items, and its code fewer
 * lines (factory_boy's "Django models with GenericForeignKeys" added 60 lines of code to an
 * answer about Django model factories).
 */
const SEE_ALSO_LIMITS: QuoteLimits = { listItems: 5, codeLines: 12, codeSlack: 3 };
const MAX_PARAGRAPH_CHARS = 700;
const NEAREST_PAGES = 3;
/** How many places an unsure answer shows: the best section of each of the best pages. */
const BEST_PLACES = 3;
/** How many of a place's sentences an unsure answer shows, and how long each may be. */
const PLACE_SENTENCES = 2;
const PLACE_SENTENCE_CHARS = 280;
/**
 * How much code a place shows after the lead-in that introduces it: the six lines that hold the
 * most of the question, "…" for the rest. Longer code left its lead-in out, and structlog's place
 * for `reset_contextvars` showed the first six lines of its example, which stop before the call.
 */
const PLACE_CODE: CodeLimits = { codeLines: 6, codeSlack: 0 };
/**
 * A sentence that introduces what follows it: it ends in ":", names "the following" things
 * ("TokenAuthentication provides the following credentials.", as Django REST framework writes), or
 * is labelled an example ("Example: Run the tasks.add task every 30 seconds.", as Celery writes).
 */
const LEADS_IN = /(?::|\bthe following\b[^.:!?]*\.)\s*$|^[*_]*(?:for )?example[*_]*:/i;
/**
 * A paragraph that stops on a word no sentence ends on is finished by the list or code below it
 * ("It is required to explicitly specify either", as xarray's plotting page writes over its two
 * options). A list item may end so ("…is called; or"): the next item goes on with it.
 */
const UNFINISHED =
  /\b(?:either|or|and|the|an?|of|to|for|with|by|from|as|like|including|namely)\s*$/i;
/** Whether a paragraph's text introduces the block after it. */
const paragraphLeadsIn = (text: string) => LEADS_IN.test(text) || UNFINISHED.test(text);
/** Whether a block introduces the block after it: a paragraph as above, a list by its ":". */
const blockLeadsIn = (block: DocBlock) =>
  block.kind === 'paragraph'
    ? paragraphLeadsIn(block.text)
    : block.kind !== 'code' && LEADS_IN.test(block.text);
/** A paragraph that goes on with the sentence before the code above it: it opens in lower case. */
const GOES_ON = /^[a-z]/;
/**
 * Where a block's lines break, its hard breaks with them: a `<br>` is "\\" at a line's end in
 * Markdown, and gettext's FAQ, joined onto one line, read "… \\ \\ …" in its excerpts.
 */
const LINE_BREAKS = /\s*(?:\\?\n\s*)+/g;
/** A block's Markdown on one line, as a sentence is cut from it. */
const oneLine = (markdown: string) => markdown.replace(LINE_BREAKS, ' ');
/** Where a list's next item starts, at any level. */
const LIST_ITEM = /\n(?=[ \t]*(?:[-*+]|\d+[.)]) )/;
/**
 * A sentence that leans on the one before it: "This can be…", and also after a short opening
 * clause, "Depending on the client, this can be a significant overhead…".
 */
const REFERS_BACK = /^(?:[^.,;:]{1,40},\s+)?(?:it|this|that|these|those|they)\b/i;
/** A page intro this short is a promise ("There are two ways…") that the next sections keep. */
const SHORT_INTRO_CHARS = 200;
const INTRO_SECTIONS = 3;

function matchesTerm(text: string, term: string): boolean {
  // Prefix match on words, the same leniency as the index (install ~ installation). A stem's last
  // "i" may be the word's "y" (body → bodi, yyyy → yyyi): a four-letter word ending in "y" never
  // matched its own stem.
  const base = term.endsWith('i') ? term.slice(0, -1) : term;
  const stem = base.slice(0, Math.max(4, base.length - 2));
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .some((word) => word.startsWith(stem));
}

const termsIn = (text: string, terms: string[]) =>
  terms.filter((term) => matchesTerm(text, term)).length;

/**
 * Code as quoted: whole, or the `codeLines` lines (MAX_CODE_LINES in an answer) that hold the most
 * of the question's words, "…" marking what is left out. The first lines were kept, so a 50-line
 * example stopped at `const resolvers = {`, before the `throw new ErrorWithProps(…)` a question
 * about error extensions came for.
 */
function codeShown(
  value: string,
  terms: string[],
  { codeLines, codeSlack }: CodeLimits = ANSWER_LIMITS,
): string {
  const lines = value.split('\n');
  if (lines.length <= codeLines + codeSlack) return value;
  // Each line's question words, by their index in `terms`; a window is worth the distinct words it
  // holds (the one `redis` line counts beside twenty about subscriptions), then its matching lines.
  const held = lines.map((line) =>
    terms.flatMap((term, t) => (matchesTerm(line, term) ? [t] : [])),
  );
  const counts = new Int32Array(terms.length);
  let [distinct, matching] = [0, 0];
  const add = (line: number, by: 1 | -1) => {
    for (const t of held[line]!) {
      const before = counts[t]!;
      counts[t] = before + by;
      if ((by > 0 && before === 0) || (by < 0 && before === 1)) distinct += by;
    }
    if (held[line]!.length) matching += by;
  };
  for (let line = 0; line < codeLines; line++) add(line, 1);
  let [from, best] = [0, [distinct, matching]];
  for (let start = 1; start + codeLines <= lines.length; start++) {
    add(start - 1, -1);
    add(start + codeLines - 1, 1);
    if (distinct > best[0]! || (distinct === best[0] && matching > best[1]!))
      [from, best] = [start, [distinct, matching]];
  }
  // Centred on the lines it holds, so what comes after them shows as well as what comes before.
  const inWindow = held.slice(from, from + codeLines).map((found) => found.length > 0);
  const [first, last] = [inWindow.indexOf(true), inWindow.lastIndexOf(true)];
  if (first >= 0) {
    const middle = from + Math.round((first + last) / 2);
    from = Math.min(Math.max(0, middle - codeLines / 2), lines.length - codeLines);
  }
  const to = from + codeLines;
  return [
    ...(from > 0 ? ['…'] : []),
    ...lines.slice(from, to),
    ...(to < lines.length ? ['…'] : []),
  ].join('\n');
}

function fence(lang: string, value: string, terms: string[] = [], limits?: CodeLimits): string {
  const body = codeShown(value, terms, limits);
  // A fence longer than any backtick run inside keeps the code intact.
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

/**
 * A sentence that points at an example shown before it ("In the example above", "the previous
 * snippet", "With this configuration:", "In the example, …", "As you can see, …", "as shown
 * above", "the variable `air` defined above"; not "in the example below", nor a cross-reference in
 * brackets, "(described above)").
 */
const POINTS_BACK =
  /\b(?:as (?:you|we) can see(?! below)|(?<!\()(?:as |been )?(?:shown|defined|described|created|made|given|explained) above|(?:example|snippet|code|sample)s? above|above (?:example|snippet|code|sample)s?|previous (?:example|snippet|code sample)s?|preceding (?:example|snippet|code)s?|(?:with|in|using) th(?:is|ese) (?:configuration|config|example|snippet|setup|settings)s?|in the (?:example|snippet|code sample)s?(?! below))\b/i;

/**
 * A long sentence cut at a space within PLACE_SENTENCE_CHARS, and never inside an inline code span
 * or a link: cut there, "`npm run build:packages && …" showed its backtick as text.
 */
function cutMarkdown(sentence: string): string {
  let cut = sentence.slice(0, sentence.lastIndexOf(' ', PLACE_SENTENCE_CHARS));
  if ((cut.match(/`/g) ?? []).length % 2) cut = cut.slice(0, cut.lastIndexOf('`'));
  const opened = cut.lastIndexOf('[');
  const tail = cut.slice(Math.max(0, opened));
  if (opened >= 0 && (!tail.includes(']') || (tail.includes('](') && !tail.includes(')'))))
    cut = cut.slice(0, opened);
  return cut.trimEnd();
}

/**
 * The one or two sentences of a section that carry the most of the question, in page order, for an
 * unsure answer's list of places, else the section's first sentence. Prose only, but for the short
 * code right after a paragraph, which the first chosen paragraph's last sentence brings: "we
 * recommend installing it locally:" says nothing without its `npm install …`, and a lead-in with
 * nothing after it, or a sentence about an example not shown, is not chosen. A sentence opening on "It" or "This" brings the sentence it refers to.
 */
function placeOf(section: DocSection, terms: string[]): string[] {
  const { blocks } = section;
  const units = blocks.flatMap((block, at) => {
    let sentences: string[];
    if (block.kind === 'paragraph') sentences = sentencesOf(oneLine(block.markdown));
    else if (block.kind === 'list' || block.kind === 'quote')
      sentences = block.markdown
        .replace(/^[ \t]*>[ \t]?/gm, '')
        // An item's code block is no part of its sentence (a place shows prose): requests' "API
        // Changes" item read "… not a property of a response. ```python import requests …".
        .replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, '')
        // Each item a sentence, nested ones too: "Parameters: * **name** – … * **path** – …" on
        // one line, its markers in the text, was no sentence (aiohttp's `del_cookie`).
        .split(LIST_ITEM)
        .map((item) =>
          item
            .replace(/^\s*(?:[-*+]|\d+[.)]) /, '')
            .replace(LINE_BREAKS, ' ')
            .trim(),
        );
    else return [];
    const next = blocks[at + 1];
    const leadsTo = block.kind === 'paragraph' && next?.kind === 'code' ? next : undefined;
    return sentences.map((sentence, i) => ({
      sentence,
      at,
      item: block.kind === 'list',
      // A paragraph's last sentence brings the code right after it, though it ends in a full stop:
      // Tenacity's "…so let's just wait 2 seconds between retries." stood without its
      // `@retry(wait=wait_fixed(2))`, the line the reader asked for.
      code: i === sentences.length - 1 ? leadsTo : undefined,
    }));
  });
  const kept = units
    .map((unit, index) => ({ ...unit, index }))
    .filter(
      ({ sentence, code, item }) =>
        sentence &&
        (code || !(item ? LEADS_IN.test(sentence) : paragraphLeadsIn(sentence))) &&
        !POINTS_BACK.test(sentence),
    )
    .map((unit) => ({
      ...unit,
      sentence:
        unit.sentence.length > PLACE_SENTENCE_CHARS
          ? `${cutMarkdown(unit.sentence)} …`
          : unit.sentence,
    }));
  // A place shows one code block: a second lead-in (":") would stand without the code it
  // introduces (xarray's "…store arbitrary metadata in the form of attributes:" after another
  // example), so it is not chosen.
  const introduces = (i: number) => !!kept[i]!.code && paragraphLeadsIn(kept[i]!.sentence);
  const chosen: number[] = [];
  for (const { i } of kept
    .map((unit, i) => ({ i, n: termsIn(unit.sentence, terms) }))
    .filter((s) => s.n > 0)
    .sort((a, b) => b.n - a.n || a.i - b.i)) {
    if (chosen.length === PLACE_SENTENCES) break;
    if (!(introduces(i) && chosen.some(introduces))) chosen.push(i);
  }
  // No sentence holds a word of the question: the section's first, shown as a chosen one is (a
  // lead-in with its code: structlog's "This would result among other the following lines to be
  // printed:" stood alone).
  if (!chosen.length && kept[0]) chosen.push(0);
  if (!chosen.length) {
    // A section that is a table (Pygments' Languages) shows its rows that match.
    const table = blocks.find((block) => block.kind === 'table');
    if (table) return [quote(cutTable(table.markdown, terms, PLACE_SENTENCES))];
    // A section of code alone (an example under its heading) shows how its code begins.
    const code = blocks.find((block) => block.kind === 'code');
    if (!code) return [];
    return [fence(code.lang ?? '', code.text, [], PLACE_CODE)];
  }
  for (const i of [...chosen]) {
    const before = kept[i - 1];
    if (
      REFERS_BACK.test(kept[i]!.sentence) &&
      before?.at === kept[i]!.at &&
      !chosen.includes(i - 1)
    )
      chosen.push(i - 1);
  }
  chosen.sort((a, b) => a - b);
  // The code shown is a lead-in's, else the first chosen sentence's that has code after it.
  const withItsCode = chosen.find(introduces) ?? chosen.find((i) => kept[i]!.code);
  // In page order, the code right after its lead-in. Sentences that are not next to each other in
  // the docs are not read as if they were: a "…" marks the gap, a lead-in left out included
  // (cmd2's "`poutput()` adds two conveniences:" before its list). Sentences of one paragraph
  // run on; another paragraph starts a line, and a list item is an item: run on, cmd2's
  // "hide commands from the help menu" and "disable and re-enable commands at runtime" read as
  // one sentence.
  const pieces: string[] = [];
  let lines: { text: string; item: boolean }[] = [];
  const flush = () => {
    if (lines.length)
      pieces.push(
        lines
          .map(({ text, item }, n) =>
            n && !(item && lines[n - 1]!.item) ? `>\n> ${text}` : `> ${text}`,
          )
          .join('\n'),
      );
    lines = [];
  };
  chosen.forEach((i, n) => {
    const unit = kept[i]!;
    const before = n > 0 ? kept[chosen[n - 1]!]! : undefined;
    const apart = before && unit.index > before.index + 1 && !before.sentence.endsWith('…');
    const sentence = apart ? `… ${unit.sentence}` : unit.sentence;
    const last = lines.at(-1);
    if (before && !unit.item && before.at === unit.at && last) last.text += ` ${sentence}`;
    else lines.push({ text: unit.item ? `- ${sentence}` : sentence, item: unit.item });
    if (!unit.code || i !== withItsCode) return;
    flush();
    pieces.push(fence(unit.code.lang ?? '', unit.code.text, terms, PLACE_CODE));
  });
  flush();
  return pieces;
}

/**
 * A paragraph as quoted: whole when short, else the three sentences that carry most of the
 * question (and a sentence one of them leans on), "…" where sentences are left out.
 */
function cutProse(markdown: string, terms: string[]): string {
  if (markdown.length <= MAX_PARAGRAPH_CHARS) return markdown;
  const sentences = sentencesOf(oneLine(markdown));
  const chosen = sentences
    .map((s, i) => ({ i, n: termsIn(s, terms) }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, 3)
    .map((b) => b.i);
  // "This can be a significant overhead" brings what "this" is.
  for (const i of [...chosen])
    if (i > 0 && REFERS_BACK.test(sentences[i]!) && !chosen.includes(i - 1)) chosen.push(i - 1);
  chosen.sort((a, b) => a - b);
  // Neighbours read on; a "…" stands only where sentences are left out.
  return chosen
    .map((i, at) => (at > 0 && i > chosen[at - 1]! + 1 ? `… ${sentences[i]}` : sentences[i]))
    .join(' ');
}

/**
 * The indexes of the items or rows of a long list or table that carry the most of the question's
 * words, in order, at most `max`: "serve static files" keeps the one plugin "for serving static
 * files", not the fifteen of a catalogue that say "server". The first `max` when none carries any.
 */
function mostMatching(lines: string[], terms: string[], max: number): number[] {
  const counts = lines.map((line) => termsIn(line, terms));
  const most = Math.max(0, ...counts);
  const kept = most ? counts.flatMap((count, i) => (count === most ? [i] : [])) : [...lines.keys()];
  return kept.slice(0, max);
}

/**
 * The kept lines of `lines` (by index, in order) with `gap` wherever lines are left out: a list's
 * item 3 then item 21 was read as if one followed the other.
 */
function withGaps(lines: string[], kept: number[], gap: string): string[] {
  return kept.flatMap((index, at) => [
    ...(index > (at ? kept[at - 1]! + 1 : 0) ? [gap] : []),
    lines[index]!,
    ...(at === kept.length - 1 && index < lines.length - 1 ? [gap] : []),
  ]);
}

/**
 * A list cut to the `max` items that carry the most of the question, level by level: Sphinx's
 * "Parameters:" is one item whose twenty parameters are nested under it (aiohttp's
 * `ClientSession`, about a hundred lines quoted whole).
 */
function cutList(markdown: string, terms: string[], max: number): string {
  const indent = /^ */.exec(markdown)![0];
  // Items start at the list's own indentation; nested lines stay with their item.
  const items = markdown.split(new RegExp(`\\n(?=${indent}(?:[-*+]|\\d+[.)]) )`));
  if (items.length > max) {
    const kept = mostMatching(items, terms, max);
    // "…" between items left out ends the list there; the next one starts at its own number.
    return withGaps(items, kept, `\n${indent}…\n`)
      .join('\n')
      .replace(/^\n+|\n+$/g, '');
  }
  return items
    .map((item) => {
      const nested = item.search(new RegExp(`\\n${indent} +(?:[-*+]|\\d+[.)]) `));
      return cutItem(
        nested < 0
          ? item
          : `${item.slice(0, nested)}\n${cutList(item.slice(nested + 1), terms, max)}`,
      );
    })
    .join('\n');
}

/**
 * A list item longer than MAX_ITEM_CHARS is cut after the paragraphs that fit in that length (an
 * API entry's signature, summary and first example), "…" marking the rest. SQLAlchemy's `ARRAY`
 * entry, its comparator's methods nested in it, was quoted whole: 8 KB of one answer's 22.
 */
function cutItem(item: string): string {
  if (item.length <= MAX_ITEM_CHARS) return item;
  // Parts end at blank lines, but not inside a fence: code keeps its own blank lines.
  const parts: string[] = [];
  for (const piece of item.split(/\n[ \t]*\n/)) {
    const last = parts.at(-1);
    if (last !== undefined && (last.match(/^[ \t]*(?:```|~~~)/gm) ?? []).length % 2)
      parts[parts.length - 1] = `${last}\n\n${piece}`;
    else parts.push(piece);
  }
  let length = 0;
  const kept = parts.filter(
    (part, index) => (length += part.length) <= MAX_ITEM_CHARS || index < 2,
  );
  // A lead-in ("E.g.:") whose code did not fit goes too.
  while (kept.length > 1 && LEADS_IN.test(kept.at(-1)!.trimEnd())) kept.pop();
  const indent = ' '.repeat(/^ *(?:[-*+]|\d+[.)]) /.exec(item)?.[0].length ?? 2);
  return [...kept, `${indent}…`].join('\n\n');
}

/**
 * A table cut to the `max` rows that carry the most of the question: its header and delimiter rows
 * keep it a table, and a row of "…" stands where rows are left out.
 */
function cutTable(markdown: string, terms: string[], max: number): string {
  const rows = markdown.split('\n');
  if (rows.length - 2 <= max) return markdown;
  const body = rows.slice(2);
  const kept = mostMatching(body, terms, max);
  const columns = rows[1]!.split('|').length - 2;
  const gap = `| … |${' |'.repeat(Math.max(0, columns - 1))}`;
  // Without the padding that lined each column up with its widest cell: the rows left out set it,
  // and Pygments' Languages table quoted a few rows hundreds of spaces wide.
  return [...rows.slice(0, 2), ...withGaps(body, kept, gap)]
    .map((row) => row.replace(/ {2,}\|/g, ' |').replace(/-{4,}/g, '---'))
    .join('\n');
}

/** A block as quoted: whole, or cut to what a reader needs while keeping its Markdown shape. */
function quoteBlock(block: DocBlock, terms: string[], limits = ANSWER_LIMITS): string {
  switch (block.kind) {
    case 'code':
      return fence(block.lang ?? '', block.text, terms, limits);
    case 'table':
      return cutTable(block.markdown, terms, MAX_TABLE_ROWS);
    case 'list':
      return cutList(block.markdown, terms, limits.listItems);
    case 'paragraph':
      return cutProse(block.markdown, terms);
    case 'quote': {
      // A callout ("> ⚠ Warning: …") stays a quote: its own markers come off, each of its
      // paragraphs is cut like any other, and the markers go back on. Cut with its markers, a long
      // one ran its paragraphs together with stray ">" in the text.
      const inner = block.markdown.replace(/^[ \t]*>[ \t]?/gm, '');
      return quote(
        inner
          .split(/\n[ \t]*\n/)
          .map((part) =>
            /^\s*(?:```|~~~|[-*+] |\d+[.)] )/.test(part) ? part : cutProse(part, terms),
          )
          .join('\n\n'),
      );
    }
    default:
      return block.kind satisfies never;
  }
}

/**
 * The blocks of a section worth quoting: those that carry the most query terms, in page order,
 * each with what belongs to it: a sentence that introduces something (ends with ":") keeps the
 * list, table or code that follows it, and quoted prose keeps the code sample right after it.
 */
export function passageOf(
  section: DocSection,
  terms: string[],
  {
    /** Show the section's example when the chosen blocks have none: the answer's own section. */
    example = false,
    /** Blocks the reader has just been shown: others that match come first, when there are some. */
    seen,
  }: { example?: boolean; seen?: ((block: DocBlock) => boolean) | undefined } = {},
): DocBlock[] {
  const { blocks } = section;
  const scored = blocks.map((block, index) => ({
    index,
    score: termsIn(block.text, terms) * (block.kind === 'code' ? 0.5 : 1),
  }));
  // In a section of questions and answers, the quote is one of them: the best-matching block's
  // question and its answer. pexpect's FAQ answered "Is there a mailing list?" with that answer
  // and then another question's code, matched for "list".
  const item = faqItemOf(blocks, scored);
  const within = (index: number) => !item || (index >= item.start && index < item.end);
  // An API entry's signature and summary (the paragraph under it) say what the entry is: a quote of
  // the entry keeps them, whatever words they match (below), so the blocks chosen for the
  // question's words are among the rest. psycopg2's `mogrify` was quoted from its example on,
  // without "Return a query string after arguments binding."; JsonCpp's `write()`, chosen for
  // its prototype and summary, left out "Returns zero on success … check the stream instead".
  const entry =
    (opensOnSignature(section) || opensOnPrototype(section)) &&
    blocks[1]?.kind === 'paragraph' &&
    !item;
  const matching = scored.filter((s) => s.score > 0 && within(s.index) && !(entry && s.index < 2));
  const unseen = seen ? matching.filter((s) => !seen(blocks[s.index]!)) : [];
  let chosen = (unseen.length ? unseen : matching)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, BLOCKS_PER_SECTION)
    .map((s) => s.index);
  if (chosen.length === 0) chosen = blocks.length ? [0] : [];
  if (item) chosen = [...new Set([item.start, item.start + 1, ...chosen])].filter(within);
  // The sentences that match a "how do I…" often describe; the code after them shows how ("For
  // styling a string, the style() function can be used:" and its code, after Click's paragraphs
  // on colours). The first code block after the first chosen block, else before it, comes too.
  if (example && !chosen.some((index) => blocks[index]!.kind === 'code')) {
    const first = Math.min(...chosen);
    const code = blocks.findIndex(
      (block, index) => index > first && within(index) && block.kind === 'code',
    );
    const fallback = blocks.findIndex((block, index) => within(index) && block.kind === 'code');
    const at = code >= 0 ? code : fallback;
    if (at >= 0 && !chosen.includes(at - 1) && !chosen.includes(at)) chosen = [...chosen, at];
  }
  const picked = new Set(chosen);
  if (entry) for (const index of [0, 1]) picked.add(index);
  // In page order, so what a pulled-in block introduces comes too: "1. … 2. Set the option:", its
  // code, "3. It also takes options:", and that code.
  for (let index = 0; index < blocks.length; index++) {
    if (!picked.has(index)) continue;
    const block = blocks[index]!;
    const next = blocks[index + 1];
    if (!next) continue;
    // A sentence the code interrupts goes on after it: "…you can use print statements for
    // debugging:", the code, "and running this module will show you precisely the output…".
    if (block.kind === 'code') {
      if (next.kind === 'paragraph' && GOES_ON.test(next.markdown)) picked.add(index + 1);
      continue;
    }
    const introduces = blockLeadsIn(block);
    if (introduces || next.kind === 'code') picked.add(index + 1);
    // "…three chart values:" then a code sample, then the list that explains it.
    const after = blocks[index + 2];
    if (introduces && next.kind === 'code' && after && after.kind === 'list') picked.add(index + 2);
  }
  // A code block chosen alone keeps the sentence that introduces it, and so does a list or table
  // whose lead-in ("With this configuration:") ends in ":".
  for (const index of chosen) {
    const { kind } = blocks[index]!;
    const before = blocks[index - 1];
    if (!before || before.kind !== 'paragraph') continue;
    if (kind === 'code' || ((kind === 'list' || kind === 'table') && paragraphLeadsIn(before.text)))
      picked.add(index - 1);
  }
  // A paragraph that opens by pointing back ("Depending on the client, this can be…") brings the
  // paragraph it points at; after code, it brings the code and the sentence that introduces it
  // ("This will present to you a series of questions…" after `sphinx-quickstart docs`). So does a
  // sentence the code interrupted, chosen for its end ("will print the file test.py to standard
  // output…" after Pygments' `$ pygmentize test.py`).
  for (const index of chosen) {
    const block = blocks[index]!;
    const before = blocks[index - 1];
    if (block.kind !== 'paragraph' || !before) continue;
    const goesOn = GOES_ON.test(block.markdown);
    if (!goesOn && !REFERS_BACK.test(block.text)) continue;
    if (before.kind === 'paragraph' && !goesOn) picked.add(index - 1);
    if (before.kind !== 'code') continue;
    picked.add(index - 1);
    const start = blocks[index - 2];
    if (start?.kind === 'paragraph' && paragraphLeadsIn(start.text)) picked.add(index - 2);
  }
  // "In the example above…" brings the example: the code just before it.
  for (const index of [...picked]) {
    if (!POINTS_BACK.test(blocks[index]!.text)) continue;
    const example = [index - 1, index - 2].find((i) => blocks[i]?.kind === 'code');
    if (example !== undefined) picked.add(example);
  }
  const order = [...picked].sort((a, b) => a - b);
  const shown = order.flatMap((index, position): { index: number; block: DocBlock }[] => {
    const block = blocks[index]!;
    if (block.kind !== 'paragraph') return [{ index, block }];
    // A sentence about an example that is not shown, or a lead-in (":") whose list is not there
    // (a list of links read as a table of contents, the end of the section), would mislead: it goes.
    const example = [index - 1, index - 2].some(
      (i) => order.includes(i) && blocks[i]!.kind === 'code',
    );
    const followed = order[position + 1] === index + 1;
    const kept = sentencesOf(oneLine(block.markdown)).filter(
      (sentence, i, all) =>
        !(POINTS_BACK.test(sentence) && !example) &&
        !(i === all.length - 1 && paragraphLeadsIn(sentence) && !followed),
    );
    if (kept.length === 0) return [];
    const markdown = kept.join(' ');
    if (markdown === oneLine(block.markdown)) return [{ index, block }];
    const { links: _, ...cut } = block;
    return [{ index, block: { ...cut, markdown, text: markdown } }];
  });
  // Blocks left out between two shown ones are marked, as a place's sentences are: the quote of
  // pytest's skip decorator went on with "The imperative method is useful…" as if it came next,
  // without the `pytest.skip()` paragraph and code it speaks of.
  return shown.flatMap(({ index, block }, at) =>
    at > 0 && index > shown[at - 1]!.index + 1 ? [GAP, block] : [block],
  );
}

/**
 * A paragraph that asks one of an FAQ's questions: it opens "Q:" (pexpect: "Q: Why not just use
 * Expect?"), or it is bold throughout and ends in "?".
 */
const ASKS = (block: DocBlock) =>
  block.kind === 'paragraph' &&
  (/^Q\s*[:.]\s/.test(block.text) || /^(\*\*|__)[^]*\?\1$/.test(block.markdown.trim()));

/**
 * The question and answer (from its question to the next one) that holds a section's best-matching
 * block, when the section is questions and answers (two questions or more); else undefined.
 */
function faqItemOf(
  blocks: DocBlock[],
  scored: { index: number; score: number }[],
): { start: number; end: number } | undefined {
  const questions = blocks.flatMap((block, index) => (ASKS(block) ? [index] : []));
  if (questions.length < 2) return undefined;
  const best = scored.reduce((a, b) => (b.score > a.score ? b : a), { index: -1, score: 0 });
  if (best.index < questions[0]!) return undefined;
  const start = questions.findLast((index) => index <= best.index)!;
  const end = questions.find((index) => index > best.index) ?? blocks.length;
  return { start, end };
}

/** Where a quote leaves blocks out. */
const GAP: DocBlock = { kind: 'paragraph', markdown: '…', text: '…' };

/**
 * How a section begins, as a promised section shows it: its first two blocks, and what the second
 * introduces when it ends in ":" (the code after "…say what time zone to use:"); a lead-in whose
 * block is not there is left out.
 */
function beginningOf(section: DocSection): DocBlock[] {
  const shown = section.blocks.slice(0, 2);
  const last = shown.at(-1);
  if (last && blockLeadsIn(last)) {
    const introduced = section.blocks[shown.length];
    if (introduced) shown.push(introduced);
    else shown.pop();
  }
  return shown;
}

const quote = (markdown: string) =>
  markdown
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');

function escapeLinkText(text: string): string {
  return markdownWords(text.replace(/([\\[\]*_`])/g, '\\$1'));
}

const labelOf = (hit: SearchHit) => citedAs(hit.section, hit.title);

/**
 * Builds an extractive answer: the best passages of the top sections, quoted with their Markdown
 * intact and linked to their pages. No model, so nothing is invented; and when the docs do not
 * cover the question it says so and points at the nearest pages instead of quoting them.
 */
export function composeAnswer(
  result: SearchResult,
  terms: string[],
  {
    pageUrl,
    sectionsOf,
    quotedBefore = () => false,
    shownBefore,
    readBefore = quotedBefore,
  }: {
    pageUrl: (section: DocSection) => string;
    sectionsOf: (pagePath: string) => DocSection[];
    /** Whether the thread's previous answer quoted this section (a follow-up's answer moves on). */
    quotedBefore?: (section: DocSection) => boolean;
    /** Whether the thread's previous answer showed this block (with quotedBefore). */
    shownBefore?: (block: DocBlock) => boolean;
    /** Whether the reader has just read this section (the thread's previous answer quoted it). */
    readBefore?: (section: DocSection) => boolean;
  },
): ComposedAnswer {
  const { hits } = result;
  const phrases = phrasesFor(result.language);
  // Each page once, at its best section, or at its best one the previous answer did not quote.
  const pages = hits
    .filter(
      (hit, i) => hits.findIndex((other) => other.section.pagePath === hit.section.pagePath) === i,
    )
    .map(
      (hit) =>
        hits.find(
          (other) =>
            other.section.pagePath === hit.section.pagePath && !quotedBefore(other.section),
        ) ?? hit,
    );
  const level = confidenceOf(result);
  if (level === 'refused') {
    // Release notes name every feature once, and a project's pages about itself answer no usage
    // question: neither is a place to look for what the docs lack.
    const guides = pages.filter((hit) => !isAside(hit.section));
    const nearest = (guides.length ? guides : pages).slice(0, NEAREST_PAGES);
    // Docs of one or two pages (Beautiful Soup's manual is one page of 150 sections) are no help
    // as pages: their nearest sections are offered instead, each at its anchor.
    const looks =
      nearest.length < NEAREST_PAGES
        ? hits
            .filter((hit) => nearest.some((page) => page.section.pagePath === hit.section.pagePath))
            .slice(0, NEAREST_PAGES)
            .map((hit) => `- [${escapeLinkText(labelOf(hit))}](${pageUrl(hit.section)})`)
        : nearest.map(
            (hit) => `- [${escapeLinkText(hit.title)}](${pageUrl({ ...hit.section, anchor: '' })})`,
          );
    return {
      markdown:
        `${phrases.refusal} ${phrases.noGuess}` +
        (looks.length
          ? `\n\n${phrases.lookAt}\n\n${looks.join('\n')}`
          : `\n\n${phrases.tryOtherWords}`),
      cited: [],
      rationale: hits.length
        ? phrases.reasoning.notCovered(Math.round(result.coverage * 100))
        : phrases.reasoning.nothing,
      level,
      followUps: [],
    };
  }
  const cited: CitedPage[] = [];
  const citationOf = (hit: SearchHit): number => {
    let index = cited.findIndex((page) => page.path === hit.section.pagePath);
    if (index < 0)
      index =
        cited.push({
          path: hit.section.pagePath,
          title: hit.title,
          url: pageUrl({ ...hit.section, anchor: '' }),
        }) - 1;
    return index + 1;
  };
  if (level === 'unsure') {
    // No clear winner: say so, and show where to read, each place with the sentences that match.
    // What is unsure is which page answers (runnerUpShare compares pages), so each place is the
    // best section of one of the best pages, not a second section of the same page.
    // Release notes and pages about the project are no place to read about something else: only
    // the best page may be one, or a list of users asked about ("Which projects use it?").
    const candidates = pages.filter(
      (hit, i) =>
        i === 0 ||
        !isAside(hit.section) ||
        (isAboutUsers(hit.section) && asksAbout(result.words, hit.section)),
    );
    // An aside the question is not about comes after the pages that may answer it.
    const places = offTopicAside(result)
      ? [...candidates.slice(1, BEST_PLACES), candidates[0]!]
      : candidates.slice(0, BEST_PLACES);
    const items = places.map((hit) => {
      const n = citationOf(hit);
      const place = placeOf(hit.section, [...new Set([...terms, ...hit.terms])]);
      return [`- **[${escapeLinkText(labelOf(hit))}](${pageUrl(hit.section)})** [${n}]`, ...place]
        .map((piece, at) => (at ? piece.replace(/^/gm, '  ') : piece))
        .join('\n\n');
    });
    const others = pages.filter(
      (hit) => !places.some((place) => place.section.pagePath === hit.section.pagePath),
    );
    return {
      markdown:
        (result.unknownNames.length ? `${phrases.neverNamed(result.unknownNames)} ` : '') +
        `${phrases.unsure}\n\n${items.join('\n\n')}`,
      cited,
      rationale: phrases.reasoning.close(places.length),
      level,
      followUps: followUpsOf(places, others, sectionsOf, phrases, { readBefore }),
    };
  }
  const best = hits[0]!.score;
  // What each section would show: its passage, and the sections it promises. "There are two ways
  // to start:" above a list of links (left out as a table of contents) is all promise: the sections
  // after it are shown instead. A section with nothing to show is not quoted ("See also …:" and
  // then nothing), unless no section has anything.
  // Release notes are no "See also" or related page to an answer from elsewhere: pytest's skipif
  // answer went on with the eleven bullets of "py.test 2.0.2: bug fixes…", and MkDocs' answers
  // listed its release notes to read next nine times in twenty.
  const fromAsides = isAside(hits[0]!.section);
  const candidates = hits
    .slice(0, QUOTED_SECTIONS)
    .filter(
      (hit, i) =>
        i === 0 ||
        (hit.score >= QUOTE_RELATIVE_SCORE * best && (fromAsides || !isAside(hit.section))),
    );
  // A follow-up is answered with what the reader has not just read, when the search found some:
  // "and when the beta is ready?" repeated the previous answer's quote word for word.
  const fresh = candidates.filter((hit) => !quotedBefore(hit.section));
  const shown = (fresh.length ? fresh : candidates).map((hit, position) => {
    const passage = passageOf(hit.section, [...new Set([...terms, ...hit.terms])], {
      example: position === 0,
      // Back at a section the previous answer quoted: what it did not show, when that matches.
      seen: quotedBefore(hit.section) ? shownBefore : undefined,
    });
    const sections = sectionsOf(hit.section.pagePath);
    const promises =
      passage.length === 0 ||
      (hit.section.anchor === '' && hit.section.text.length <= SHORT_INTRO_CHARS);
    const at = sections.findIndex((section) => section.id === hit.section.id);
    const following = promises && at >= 0 ? sections.slice(at + 1, at + 1 + INTRO_SECTIONS) : [];
    return { hit, passage, following };
  });
  const withSomething = shown.filter((s) => s.passage.length > 0 || s.following.length > 0);
  const quotedShown = withSomething.length ? withSomething : shown.slice(0, 1);
  const quoted = quotedShown.map((s) => s.hit);
  const blocks: string[] = [];
  const shownIntro: DocSection[] = [];
  // Prose is quoted; code stays outside the quote, as a plain fence a reader can copy.
  const quotedPassage = (passage: DocBlock[], limits = ANSWER_LIMITS) => {
    const parts: string[] = [];
    let prose: string[] = [];
    for (const block of passage) {
      if (block.kind !== 'code') {
        prose.push(quoteBlock(block, terms, limits));
        continue;
      }
      if (prose.length) parts.push(quote(prose.join('\n\n')));
      prose = [];
      parts.push(quoteBlock(block, terms, limits));
    }
    if (prose.length) parts.push(quote(prose.join('\n\n')));
    return parts;
  };
  // A section a page intro promises that is quoted too is shown under the intro, where the page
  // has it, not after it as "See also" (below).
  const done = new Set<DocSection>();
  let position = 0;
  for (const { hit, passage, following: promised } of quotedShown) {
    if (done.has(hit.section)) continue;
    done.add(hit.section);
    const n = citationOf(hit);
    const first = position++ === 0;
    const parts = [
      `${first ? phrases.from : phrases.seeAlso} **[${escapeLinkText(labelOf(hit))}](${pageUrl(hit.section)})** [${n}]:`,
      ...quotedPassage(passage, first ? ANSWER_LIMITS : SEE_ALSO_LIMITS),
    ];
    // "There are two ways to install it." A short page intro promises the sections after it:
    // show how each begins, rather than leave the reader with the promise. When the search also
    // quotes one of them ("How do I record a video?": the page's intro, then Basic Recording),
    // that one is the answer: it is shown whole, and the others the intro promised are not.
    const answering = quotedShown.filter(
      (s) => promised.includes(s.hit.section) && !done.has(s.hit.section),
    );
    for (const { hit: next, passage: own } of answering) {
      done.add(next.section);
      parts.push(`**${escapeLinkText(next.section.heading)}**`, ...quotedPassage(own));
    }
    if (!answering.length)
      for (const next of promised.filter((section) => !quoted.some((q) => q.section === section))) {
        shownIntro.push(next);
        parts.push(`**${escapeLinkText(next.heading)}**`);
        for (const block of beginningOf(next))
          parts.push(
            block.kind === 'code' ? quoteBlock(block, terms) : quote(quoteBlock(block, terms)),
          );
      }
    blocks.push(parts.join('\n\n'));
  }
  const related = pages.filter(
    (hit) =>
      !quoted.some((q) => q.section.pagePath === hit.section.pagePath) &&
      (fromAsides || !isAside(hit.section)),
  );
  // Follow-up pages go in a `suggestions` block using the inverted link form `(Title)[/path]`, as
  // other services of this API answer, so clients written for them show them too.
  if (related.length) {
    blocks.push(
      fence(
        'suggestions',
        related.map((hit) => `(${labelOf(hit)})[${pageUrl(hit.section)}]`).join('\n'),
      ),
    );
  }
  const top = quoted[0]!;
  return {
    markdown: blocks.join('\n\n'),
    cited,
    rationale: phrases.reasoning.best(
      top.section.heading,
      top.title,
      top.section.pagePath,
      quoted.length,
      related.length,
    ),
    level,
    followUps: followUpsOf(quoted, related, sectionsOf, phrases, {
      shown: shownIntro,
      readBefore,
    }),
  };
}
