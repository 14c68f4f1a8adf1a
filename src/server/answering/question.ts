import type { LanguageModelV1 } from 'ai';
import type { DenseRetrieval, DenseScores } from './dense.js';
import type { ContextItem, Filter, Message } from '../../protocol/index.js';
import type { DocSection } from '../site/docs.js';
import type { PagePath } from '../site/page-path.js';
import type { ThreadTurn } from '../stores/index.js';
import type { LlmConfig, SilenceTimer } from './llm/model.js';
import type { Retriever, SearchHit, SearchResult } from './retrieval.js';

/** One question as an answerer gets it: the turn (http/turn.ts) has read it from the request and the thread. */
export interface Question {
  /** The reader's question, as they wrote it. */
  text: string;
  /** The owner's embedding model's nearest sections to the question (dense.ts), when it has one. */
  dense?: DenseScores | undefined;
  context: ContextItem[] | undefined;
  filter: Filter | null | undefined;
  /** The page the reader is on, already a page path. */
  currentPath: PagePath | undefined;
  /** How many passages a search keeps (SPEC §2.1 `retrievalPageSize`). */
  limit: number;
  /** Earlier questions of the conversation, newest first. */
  earlier: string[];
  /** Earlier turns of the thread, oldest first (from the server's store, not from the client). */
  history: ThreadTurn[];
  /** Id of the answer's message (SPEC §4.1 `start_step`). */
  messageId: string;
  /** When the turn began (ms since the epoch): ids made for the answer are made at this time. */
  at: number;
}

/** Timing points around the model call (request → model call, model's first part → our first byte). */
export type Trace = (point: 'model_call' | 'model_first_part' | 'first_byte') => void;

/** What an answerer needs of the docs site, made for each request (links use its origin). */
export interface AnswerSite {
  retriever: Retriever;
  /** The owner's embedding model over the site's sections (serve --embed-…), fused with keywords. */
  dense?: DenseRetrieval | undefined;
  /** Absolute URL of a docs section (`…/docs/guides/x#anchor`). */
  pageUrl: (section: Pick<DocSection, 'pagePath' | 'anchor'>) => string;
  /**
   * The section with the links of its passages pointed at the reader's site (a page's URL there,
   * external links as written, none that runs script); always the same copy of a section.
   */
  linkedSection: (section: DocSection) => DocSection;
  /** Pause between text chunks of a quoted answer, so a demo looks like streaming; 0 in tests. */
  chunkDelayMs: number;
  /** Answer with this language model instead of quoting the docs. */
  model?:
    | { model: LanguageModelV1; config: LlmConfig; silenceTimer?: SilenceTimer | undefined }
    | undefined;
  /** The client's request signal: when it aborts, the answer stops (and the model call with it). */
  signal?: AbortSignal | undefined;
  trace?: Trace | undefined;
}

export function questionOf(message: Message): string {
  const fromParts = message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n');
  return (message.content || fromParts).trim();
}

/**
 * Hits with their passages' links pointed where the citations point: the page's relative paths,
 * its own anchors and its link definitions mean nothing where the widget shows them (and a model
 * copies the links it is given).
 */
export const withLinks = <T extends { section: DocSection }>(site: AnswerSite, found: T[]) =>
  found.map((hit) => ({ ...hit, section: site.linkedSection(hit.section) }));

/**
 * What a search tool call shows of its query: the reader already has the question, and a query
 * built from a long question plus attached context must not make every answer carry it again.
 */
export const SHOWN_QUERY_CHARS = 500;

/** A query as a tool call's arguments show it: cut at a word within SHOWN_QUERY_CHARS, with "…". */
export function shownQuery(query: string): string {
  if (query.length <= SHOWN_QUERY_CHARS) return query;
  const cut = query.lastIndexOf(' ', SHOWN_QUERY_CHARS - 1);
  return `${query.slice(0, cut > SHOWN_QUERY_CHARS / 2 ? cut : SHOWN_QUERY_CHARS - 1)}…`;
}

/** Context values longer than this are cut before they join the search query. */
const MAX_CONTEXT_QUERY_CHARS = 400;

/** What the first search looks for: the question and its context items. */
export function queryOf(question: Pick<Question, 'text' | 'context'>): string {
  const extra = (question.context ?? []).map((item) =>
    item.value.slice(0, MAX_CONTEXT_QUERY_CHARS),
  );
  return [question.text, ...extra].join('\n');
}

/**
 * The search every answer starts with: the question and its context items, within the question's
 * filter and page, with the subject of the thread when the question leans on it.
 */
export function firstSearch(site: AnswerSite, question: Question) {
  const query = queryOf(question);
  const { retriever } = site;
  const earlier = followUpSubject(question.text, retriever.terms(question.text), question.earlier);
  const options = {
    limit: question.limit,
    filter: question.filter,
    currentPath: question.currentPath,
    ...(earlier ? { earlier } : {}),
    ...(question.dense ? { dense: question.dense } : {}),
  };
  let found = { query, result: retriever.search(query, options) };
  // "And how do I remove it again?" after "How do I create a database?": the docs name the undoing
  // of an action by its own word (`drop_database`, `npm uninstall`), which the question does not
  // use. Each of those words the docs know is searched in its place; the best-scored search wins.
  const best = (tried: SearchResult) => tried.hits[0]?.score ?? 0;
  // The earlier question's action is what the follow-up undoes: its subject ("an empty JSON
  // array") still counts, its verb ("create … and append") no longer does. json-c's
  // `json_object_set_userdata` ("…created…deleted") had come before `json_object_array_del_idx`.
  const undoings = earlier ? undoingsOf(question.text, earlier) : [];
  const subject = earlier && undoings.length ? withoutActions(earlier) : earlier;
  if (subject)
    for (const word of undoings)
      if (!retriever.search(word, { limit: 1 }).unknown.length) {
        const asked = queryOf({ ...question, text: question.text.replace(UNDOES, word) });
        const result = retriever.search(asked, { ...options, earlier: subject });
        if (best(result) > best(found.result)) found = { query: asked, result };
      }
  const { result } = found;
  return { query: found.query, earlier, options, result, hits: withLinks(site, result.hits) };
}

/** Words that ask to undo what the thread did: "and how do I remove it again?" */
const UNDOES =
  /\b(?:remove|undo|revert|reverse|delete|get rid of|uninstall|unset|disable|(?:turn|switch) (?:(?:it|that|this|them) )?off)\b/i;
/**
 * Actions and the words docs name their undoing by. Verbs only that are seldom nouns: "link" or
 * "load" read as an action would bring `unlink` to a question about links.
 */
const UNDOINGS: [RegExp, string[]][] = [
  [/\b(?:add|append|insert)(?:s|ed|ing)?\b/i, ['remove', 'delete']],
  [/\bcreat(?:e|es|ed|ing)\b/i, ['drop', 'delete', 'destroy', 'remove']],
  [/\binstall(?:s|ed|ing)?\b/i, ['uninstall', 'remove']],
  [/\bregister(?:s|ed|ing)?\b/i, ['unregister', 'deregister']],
  [/\benabl(?:e|es|ed|ing)\b|\b(?:turn|switch)(?:s|ed|ing)? on\b/i, ['disable']],
  [
    /\bset(?:s|ting)? (?:up )?(?:a|an|the|my)\b|\boverrid(?:e|es|ing)\b/i,
    ['unset', 'clear', 'reset'],
  ],
  [/\bstart(?:s|ed|ing)?\b/i, ['stop']],
  [/\bconnect(?:s|ed|ing)?\b/i, ['disconnect', 'close']],
  [/\battach(?:es|ed|ing)?\b/i, ['detach']],
  [/\bsubscrib(?:e|es|ed|ing)\b/i, ['unsubscribe']],
  [/\bmount(?:s|ed|ing)?\b/i, ['unmount']],
  [/\block(?:s|ed|ing)?\b/i, ['unlock']],
  [/\bbind(?:s|ing)?\b/i, ['unbind']],
];

/** A question without the actions an undoing follow-up undoes. */
const withoutActions = (question: string) =>
  UNDOINGS.reduce((text, [action]) => text.replace(new RegExp(action.source, 'gi'), ' '), question);

/** The words an undoing follow-up may mean, from the actions of the question it follows. */
function undoingsOf(question: string, earlier: string): string[] {
  const undoes = UNDOES.exec(question)?.[0].toLowerCase();
  if (!undoes) return [];
  const words = UNDOINGS.flatMap(([action, undoings]) => (action.test(earlier) ? undoings : []));
  return [...new Set(words)].filter((word) => word !== undoes);
}

/** A search for `text` within the question's filter and page. */
export const searchFor = (site: AnswerSite, question: Question, text: string): SearchHit[] =>
  withLinks(
    site,
    site.retriever.search(text, {
      limit: question.limit,
      filter: question.filter,
      currentPath: question.currentPath,
    }).hits,
  );

// "And then?", "What about Vue?", "Can I do the same for the reply?": words that lean on what came before.
const CONTINUES = /^\s*(and|but|also|so|then|or|what about|how about|what if|same|ok|okay|now)\b/i;
const REFERS_BACK = /\b(it|that|this|those|these|them|there|one|same)\b/i;
/**
 * Words that point at something named before whatever else the question says: "Does the second
 * one also add format suffix routes?" after a question about two routers.
 */
const POINTS_AT_EARLIER =
  /\bthe (?:first|second|third|last|other|former|latter) ones?\b|\bthe (?:former|latter)\b|\b(?:both|either|neither) of (?:them|those|these)\b/i;
/** Content words at most this many, plus a word pointing back, and a question leans on the thread. */
const FEW_TERMS = 2;

/**
 * The subject a follow-up depends on, or undefined when the question stands on its own. A
 * question that depends on the thread brings the earlier question's words into the search (as a
 * weaker second query); one that stands alone is searched alone, so an unrelated new question is
 * not answered with the previous topic.
 */
export function followUpSubject(
  question: string,
  terms: string[],
  earlier: string[],
): string | undefined {
  if (earlier.length === 0) return undefined;
  const depends =
    CONTINUES.test(question) ||
    POINTS_AT_EARLIER.test(question) ||
    terms.length === 0 ||
    (terms.length <= FEW_TERMS && REFERS_BACK.test(question));
  if (!depends) return undefined;
  // The previous question may itself have been a follow-up ("and in v1?" after "and then?").
  const subject: string[] = [];
  for (const before of earlier) {
    subject.unshift(before);
    if (!CONTINUES.test(before) || subject.length >= 2) break;
  }
  return subject.join('\n');
}
