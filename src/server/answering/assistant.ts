import {
  createDataStreamResponse,
  formatDataStreamPart,
  type DataStreamWriter,
  type LanguageModelV1,
} from 'ai';
import type { DataStreamString } from '@ai-sdk/ui-utils';
import { newUlid } from '../ids.js';
import {
  DEFAULT_RETRIEVAL_PAGE_SIZE,
  type AssistantRequest,
  type ContextItem,
  type Message,
  SEARCH_TOOL_NAME,
  THREAD_ID_HEADER,
  type SearchHit,
  type SuggestionsAnnotation,
} from '../../protocol/index.js';
import { composeAnswer } from './answer.js';
import { phrasesFor } from './phrases.js';
import { normalizePagePath, type DocSection } from '../site/docs.js';
import { errorResponse } from '../http/middleware.js';
import type { Retriever } from './retrieval.js';
import type { DenseRetrieval } from './dense.js';
import { generateAnswer } from './llm/generate.js';
import type { LlmConfig } from './llm/model.js';
import type { ThreadRecord, ThreadStore } from '../stores/index.js';

export interface AssistantSite {
  domain: string;
  retriever: Retriever;
  /** The owner's embedding model over the site's sections (serve --embed-…), fused with keywords. */
  dense?: DenseRetrieval | undefined;
}

export interface AnswerDeps {
  threads: ThreadStore;
  /** Turns kept per thread (the oldest go first). */
  maxTurns: number;
  now: () => number;
  /** Absolute URL of a docs section (`…/docs/guides/x#anchor`). */
  pageUrl: (section: DocSection) => string;
  /**
   * The section with the links of its passages pointed at the reader's site (a page's URL there,
   * external links as written, none that runs script); always the same copy of a section.
   */
  linkedSection: (section: DocSection) => DocSection;
  /** Pause between text chunks, so a demo looks like streaming; 0 in tests. */
  chunkDelayMs: number;
  /** Answer with this language model instead of quoting the docs. */
  llm?: { model: LanguageModelV1; config: LlmConfig } | undefined;
  /** The client's request signal: when it aborts, the model call stops too. */
  signal?: AbortSignal | undefined;
  /** Timing points around the model call (request → model call, model's first part → our first byte). */
  trace?: (point: 'model_call' | 'model_first_part' | 'first_byte') => void;
}

/** A question is kept in its thread up to this length (turns stay small whatever was asked). */
const MAX_STORED_QUESTION_CHARS = 4000;
/** Context values longer than this are cut before they join the search query. */
const MAX_CONTEXT_QUERY_CHARS = 400;
const TEXT_CHUNK_CHARS = 48;

export function questionOf(message: Message): string {
  const fromParts = message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n');
  return (message.content || fromParts).trim();
}

function queryOf(question: string, context: ContextItem[] | undefined): string {
  const extra = (context ?? []).map((item) => item.value.slice(0, MAX_CONTEXT_QUERY_CHARS));
  return [question, ...extra].join('\n');
}

/** Splits text into word-boundary chunks, the way a model streams tokens. */
export function chunkText(text: string, size = TEXT_CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > size) {
    let cut = rest.lastIndexOf(' ', size);
    if (cut <= 0) cut = size;
    chunks.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  if (rest) chunks.push(rest);
  return chunks;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Earlier questions, newest first: from the server's thread, else from the messages the client sent. */
function earlierQuestions(
  thread: ThreadRecord | undefined,
  messages: Message[],
  last: Message,
): string[] {
  if (thread?.turns.length) return thread.turns.map((turn) => turn.question).reverse();
  return messages
    .filter((m) => m.role === 'user' && m !== last)
    .map(questionOf)
    .filter(Boolean)
    .reverse();
}

// "And then?", "What about Vue?", "Can I do the same for the reply?": words that lean on what came before.
const CONTINUES = /^\s*(and|but|also|so|then|or|what about|how about|what if|same|ok|okay|now)\b/i;
const REFERS_BACK = /\b(it|that|this|those|these|them|there|one|same)\b/i;
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

/**
 * Answers one validated request: retrieves, composes, records the turn, then streams
 * (SPEC §4.1) with the SDK's own encoder. Two steps, as an agentic answer has: the search tool
 * call, then the answer with its reasoning and sources.
 */
export async function answer(
  site: AssistantSite,
  request: AssistantRequest,
  deps: AnswerDeps,
): Promise<Response> {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const question = lastUser ? questionOf(lastUser) : '';
  if (!lastUser || !question) {
    return errorResponse(
      'invalid_request',
      'messages: the conversation must end with a user message that has text.',
    );
  }

  let thread: ThreadRecord | undefined;
  if (request.threadId) {
    thread = await deps.threads.get(request.threadId);
    // A thread belongs to the reader who started it: another fp with the same id learns nothing of it.
    if (!thread || thread.domain !== site.domain || thread.fp !== request.fp) {
      return errorResponse(
        'thread_not_found',
        `Thread ${JSON.stringify(request.threadId.slice(0, 64))} does not exist. Start a new conversation without threadId.`,
      );
    }
  }

  const limit = request.retrievalPageSize ?? DEFAULT_RETRIEVAL_PAGE_SIZE;
  const query = queryOf(question, request.context);
  const earlier = followUpSubject(
    question,
    site.retriever.terms(question),
    earlierQuestions(thread, request.messages, lastUser),
  );
  // A follow-up is placed by the model together with the question it follows, as keywords do.
  const dense = await site.dense?.scores(earlier ? `${earlier}\n${query}` : query, deps.signal);
  const searchOptions = {
    limit,
    filter: request.filter,
    currentPath: request.currentPath,
    ...(earlier ? { earlier } : {}),
    ...(dense ? { dense } : {}),
  };
  const result = site.retriever.search(query, searchOptions);
  const { hits } = result;
  const terms = site.retriever.terms(query);
  const now = deps.now();
  const at = new Date(now).toISOString();
  const threadId = thread?.threadId ?? newUlid(now);
  const messageId = `msg_${newUlid(now)}`;
  // A thread id is handed out only once the thread is stored: a follow-up never meets a thread
  // that was announced and then lost.
  const startThread = async (): Promise<Response | undefined> => {
    if (thread) return undefined;
    try {
      await deps.threads.create({ threadId, domain: site.domain, fp: request.fp, createdAt: at });
      return undefined;
    } catch (error) {
      console.error('[docs-assistant] could not store a new thread:', error);
      return errorResponse(
        'storage_unavailable',
        'The server cannot store conversations right now. Please try again later.',
      );
    }
  };
  // A new thread whose first answer failed before it began was never announced, so nothing can
  // continue it: it goes now rather than sit empty until retention, counted against maxThreads.
  // The reader's client still holds the question and sends it again on retry.
  const discardThread = async () => {
    if (thread) return;
    await deps.threads.discard(threadId).catch((error: unknown) => {
      console.error('[docs-assistant] could not remove the unused thread', threadId, error);
    });
  };
  const saveTurn = (answerText: string, sources: string[]) =>
    deps.threads
      .appendTurn(
        threadId,
        {
          messageId,
          question: question.slice(0, MAX_STORED_QUESTION_CHARS),
          answer: answerText,
          sources,
          at,
        },
        { maxTurns: deps.maxTurns },
      )
      .then(
        (kept) => kept,
        (error: unknown) => {
          console.error('[docs-assistant] could not save thread', threadId, error);
          return false;
        },
      );
  // no-cache, not no-store: Chromium reports a no-store response whose body a page reads as a
  // stream (the SDK does) as "(canceled)" / net::ERR_ABORTED once it is read to the end, so every
  // completed answer looked cancelled in DevTools. A POST answer is never reused either way.
  const headers = { [THREAD_ID_HEADER]: threadId, 'Cache-Control': 'no-cache' };

  // Passages keep their links, pointed where the citations point: the page's relative paths, its
  // own anchors and its link definitions mean nothing where the widget shows them (and a model
  // copies the links it is given).
  const linked = deps.linkedSection;
  const withLinks = <T extends { section: DocSection }>(found: T[]) =>
    found.map((hit) => ({ ...hit, section: linked(hit.section) }));
  if (deps.llm) {
    const { config, model } = deps.llm;
    return generateAnswer({
      model,
      question,
      context: request.context,
      hits: withLinks(hits),
      currentPage: request.currentPath
        ? site.retriever.sectionsOf(normalizePagePath(request.currentPath)).map(linked)
        : undefined,
      history: thread?.turns ?? [],
      search: (text) =>
        withLinks(
          site.retriever.search(text, {
            limit,
            filter: request.filter,
            currentPath: request.currentPath,
          }).hits,
        ),
      pageUrl: deps.pageUrl,
      timeoutMs: config.timeoutMs ?? 60_000,
      apiKey: config.apiKey,
      maxSteps: config.maxSteps ?? 4,
      historyTokens: config.historyTokens ?? 2000,
      signal: deps.signal,
      headers,
      saveTurn,
      startThread,
      discardThread,
      threadId,
      trace: deps.trace,
    });
  }

  const composed = composeAnswer({ ...result, hits: withLinks(hits) }, terms, {
    pageUrl: deps.pageUrl,
    sectionsOf: (pagePath) => site.retriever.sectionsOf(pagePath).map(linked),
  });
  const threadFailure = await startThread();
  if (threadFailure) return threadFailure;
  // The disk write runs alongside the stream instead of delaying its first byte; the finish part
  // waits for it.
  const saved = saveTurn(
    composed.markdown,
    composed.cited.map((c) => c.path),
  );

  const toolCallId = `call_${newUlid(now)}`;
  const said = phrasesFor(result.language).reasoning;
  const reasoning =
    // The words as the reader wrote them, not their stems ("instal").
    said.searched(result.words) +
    (request.context?.length ? said.context(request.context.length) : '') +
    (earlier ? said.followsUp(earlier.slice(0, 120)) : '') +
    said.pages(result.language, result.version) +
    (request.filter?.version || request.filter?.language ? said.byFilter : '') +
    (request.currentPath ? said.currentPage(request.currentPath) : '') +
    said.kept(limit, hits.length) +
    ` ${composed.rationale}`;

  const results = hits.map(({ section, score, title }): SearchHit => ({
    url: deps.pageUrl(section),
    path: section.pagePath,
    title,
    section: section.heading,
    score: Math.round(score * 100) / 100,
    metadata: { title },
  }));

  const usage = {
    promptTokens: Math.ceil(query.length / 4),
    completionTokens: Math.ceil(composed.markdown.length / 4),
  };
  const execute = async (stream: DataStreamWriter) => {
    // Every line comes from the SDK's encoder. Unpaced, the lines before the finish go out as one
    // write: the answer is known up front, and one socket write per 48-character part made the
    // HTTP plumbing, not the search, the main cost of an answer.
    const lines: DataStreamString[] = [];
    const flush = () => {
      if (lines.length) stream.write(lines.splice(0).join('') as DataStreamString);
    };
    lines.push(
      formatDataStreamPart('start_step', { messageId }),
      formatDataStreamPart('tool_call', {
        toolCallId,
        toolName: SEARCH_TOOL_NAME,
        args: {
          query,
          ...searchOptions,
          filter: {
            language: result.language,
            ...(result.version ? { version: result.version } : {}),
          },
        },
      }),
      formatDataStreamPart('tool_result', { toolCallId, result: results }),
      formatDataStreamPart('finish_step', {
        finishReason: 'tool-calls',
        usage,
        isContinued: false,
      }),
      formatDataStreamPart('start_step', { messageId }),
      formatDataStreamPart('reasoning', reasoning),
      ...composed.cited.map((page) =>
        formatDataStreamPart('source', {
          sourceType: 'url',
          id: page.path,
          url: page.url,
          title: page.title,
        }),
      ),
    );
    for (const chunk of chunkText(composed.markdown)) {
      if (deps.chunkDelayMs > 0) {
        flush();
        await sleep(deps.chunkDelayMs);
      }
      lines.push(formatDataStreamPart('text', chunk));
    }
    // Follow-up questions ride in a message annotation (`8:`): a stock `useChat` keeps it on this
    // answer's `message.annotations`, where a `2:` data item would be shared by the whole chat.
    if (composed.followUps.length)
      lines.push(
        formatDataStreamPart('message_annotations', [
          { type: 'suggestions', questions: composed.followUps } satisfies SuggestionsAnnotation,
        ]),
      );
    lines.push(
      formatDataStreamPart('finish_step', { finishReason: 'stop', usage, isContinued: false }),
    );
    flush();
    // The turn is stored before the answer is declared finished, so it survives a restart. When it
    // could not be, the stream says so and the finish part names no thread to continue.
    if (!(await saved)) {
      stream.write(
        formatDataStreamPart(
          'error',
          'This answer could not be saved to the conversation. Start a new conversation to ask a follow-up.',
        ),
      );
      return;
    }
    // SPEC §6: the finish event carries threadId. The SDK type has no such key; the wire does.
    stream.write(
      formatDataStreamPart('finish_message', {
        finishReason: 'stop',
        usage,
        threadId,
      } as Parameters<typeof formatDataStreamPart<'finish_message'>>[1]),
    );
  };
  return createDataStreamResponse({
    status: 200,
    headers,
    execute,
    onError: () => 'The answer was cut short by a server error. Please ask again.',
  });
}
