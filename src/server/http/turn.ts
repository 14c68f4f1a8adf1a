import {
  DEFAULT_RETRIEVAL_PAGE_SIZE,
  THREAD_ID_HEADER,
  type AssistantRequest,
  type ErrorBody,
  type Message,
} from '../../protocol/index.js';
import { modelAnswer } from '../answering/llm/generate.js';
import type { AnswerOutcome, AnswerPart, TurnPart } from '../answering/parts.js';
import {
  followUpSubject,
  questionOf,
  queryOf,
  type AnswerSite,
  type Question,
} from '../answering/question.js';
import { quoteAnswer } from '../answering/quote-answer.js';
import { newUlid } from '../ids.js';
import type { PagePath } from '../site/page-path.js';
import type { ThreadRecord, ThreadStore } from '../stores/index.js';
import { dataStreamResponse } from './data-stream.js';
import { errorResponse } from './middleware.js';

/**
 * One turn of a conversation: a question in, an answer out. The turn is the one owner of
 * everything around the answer, so the answerers only answer:
 *
 * - `startTurn` reads the request (the route has already parsed `currentPath` into a
 *   `PagePath`) and the thread it continues; a thread that is not the reader's is an error value;
 * - `turn.stream(parts)` takes an answerer's `AsyncIterable<AnswerPart>` (answering/parts.ts),
 *   creates a new thread while the answerer prepares its first part (discarding it again when
 *   that part is an error), stores the answer, and hands a writer the reader's parts (`TurnPart`),
 *   ending with `finish` and the thread id, with the X-Thread-Id header;
 * - when the turn settles it emits one `TurnSummary` to the `InsightsSink` the app was made with
 *   (`AppOptions.insights`).
 *
 * The writer is a parameter of `stream`: `dataStreamResponse` (data-stream.ts) writes v1,
 * `uiMessageStreamResponse` (ui-message-stream.ts) writes v2.
 */

/** How a turn ended, as insights count it. `'unsure'` comes from an answerer that doubts its answer. */
export type TurnOutcome = AnswerOutcome | 'failed' | 'stopped';

/** What one turn was, for insights: emitted once when the turn settles, whatever its outcome. */
export interface TurnSummary {
  outcome: TurnOutcome;
  /** Quoted from the docs, or a language model's answer. */
  mode: 'quoted' | 'model';
  question: string;
  domain: string;
  currentPath: PagePath | undefined;
  /** Page paths the answer cites, in citation order (none when it failed). */
  cited: string[];
  /** The thread a follow-up continues; undefined when none was handed out. */
  threadId: string | undefined;
  /** When the turn began (ISO 8601, the app's clock). */
  at: string;
  /** Milliseconds from the turn's start to its first part, when one was sent. */
  firstByteMs: number | undefined;
  /** Milliseconds from the turn's start to its end. */
  totalMs: number;
}

/**
 * Where turn summaries go (an insights recorder, given as `AppOptions.insights`). Called once per
 * turn after the reader has the answer; whatever it throws or rejects with is logged, never seen
 * by the reader.
 */
export type InsightsSink = (summary: TurnSummary) => void | Promise<void>;

/** The default sink: summaries are not kept. */
export const noInsights: InsightsSink = () => {};

/** A request whose `currentPath` was parsed at the edge. */
export type TurnRequest = Omit<AssistantRequest, 'currentPath'> & {
  currentPath?: PagePath | undefined;
};

/** A docs site as a turn answers for it. */
export interface TurnSite extends AnswerSite {
  domain: string;
}

/** What a turn needs of the app. */
export interface TurnDeps {
  threads: ThreadStore;
  /** Turns kept per thread (the oldest go first). */
  maxTurns: number;
  now: () => number;
  insights: InsightsSink;
}

/** Encodes the reader's parts as one protocol's streaming response. */
export type StreamWriter = (
  parts: AsyncIterable<TurnPart>,
  headers: Record<string, string>,
) => Response;

export interface Turn {
  question: Question;
  /** Streams the answer `parts` with `write`; an answer that failed before its first part is an error response. */
  stream(parts: AsyncIterable<AnswerPart>, write?: StreamWriter): Promise<Response>;
}

/** A question is kept in its thread up to this length (turns stay small whatever was asked). */
const MAX_STORED_QUESTION_CHARS = 4000;

/** What a request without a question is told, by the route's check and by the turn. */
export const NO_QUESTION = 'messages: the conversation must end with a user message that has text.';

const INTERNAL = 'Something went wrong on the server. Please try again.';
const SAVE_FAILED =
  'This answer could not be saved to the conversation. Start a new conversation to ask a follow-up.';

/** Answers one validated request: the turn, the answerer the site has, the writer (v1's by default). */
export async function answer(
  site: TurnSite,
  request: TurnRequest,
  deps: TurnDeps,
  write: StreamWriter = dataStreamResponse,
) {
  const started = await startTurn(site, request, deps);
  if (!started.ok) return errorResponse(started.error.error, started.error.message);
  const { turn } = started;
  const parts = site.model
    ? modelAnswer(site.model, site, turn.question)
    : quoteAnswer(site, turn.question);
  return turn.stream(parts, write);
}

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

export async function startTurn(
  site: TurnSite,
  request: TurnRequest,
  deps: TurnDeps,
): Promise<{ ok: true; turn: Turn } | { ok: false; error: ErrorBody }> {
  const lastUser = request.messages.findLast((m) => m.role === 'user');
  const text = lastUser ? questionOf(lastUser) : '';
  if (!lastUser || !text)
    return {
      ok: false,
      error: {
        error: 'invalid_request',
        message: NO_QUESTION,
      },
    };
  let thread: ThreadRecord | undefined;
  if (request.threadId) {
    thread = await deps.threads.get(request.threadId);
    // A thread belongs to the reader who started it: another fp with the same id learns nothing of it.
    if (!thread || thread.domain !== site.domain || thread.fp !== request.fp)
      return {
        ok: false,
        error: {
          error: 'thread_not_found',
          message: `Thread ${JSON.stringify(request.threadId.slice(0, 64))} does not exist. Start a new conversation without threadId.`,
        },
      };
  }

  const startedAt = performance.now();
  const now = deps.now();
  const at = new Date(now).toISOString();
  const threadId = thread?.threadId ?? newUlid(now);
  const question: Question = {
    text,
    context: request.context,
    filter: request.filter,
    currentPath: request.currentPath,
    limit: request.retrievalPageSize ?? DEFAULT_RETRIEVAL_PAGE_SIZE,
    earlier: earlierQuestions(thread, request.messages, lastUser),
    history: thread?.turns ?? [],
    messageId: `msg_${newUlid(now)}`,
    at: now,
  };
  // The owner's embedding model places the question first; without it (or when it fails) the
  // search is by keywords alone. A follow-up is placed with the thread's question it leans on, as the
  // keyword search takes it (firstSearch).
  if (site.dense) {
    const earlier = followUpSubject(text, site.retriever.terms(text), question.earlier);
    question.dense = await site.dense.scores(queryOf(question), site.signal, earlier);
  }
  // no-cache, not no-store: Chromium reports a no-store response whose body a page reads as a
  // stream (the SDK does) as "(canceled)" / net::ERR_ABORTED once it is read to the end, so every
  // completed answer looked cancelled in DevTools. A POST answer is never reused either way.
  const headers = { [THREAD_ID_HEADER]: threadId, 'Cache-Control': 'no-cache' };

  let firstByteMs: number | undefined;
  let handedOut = !!thread;
  const settle = (outcome: TurnOutcome, cited: string[] = []) => {
    const summary: TurnSummary = {
      outcome,
      mode: site.model ? 'model' : 'quoted',
      question: text,
      domain: site.domain,
      currentPath: request.currentPath,
      cited,
      threadId: handedOut ? threadId : undefined,
      at,
      firstByteMs,
      totalMs: performance.now() - startedAt,
    };
    void Promise.resolve()
      .then(() => deps.insights(summary))
      .catch((error: unknown) => console.error('[docs-assistant] insights failed:', error));
  };

  // A thread id is handed out only once the thread is stored: a follow-up never meets a thread
  // that was announced and then lost.
  const createThread = async () => {
    if (thread) return true;
    try {
      await deps.threads.create({ threadId, domain: site.domain, fp: request.fp, createdAt: at });
      return true;
    } catch (error) {
      console.error('[docs-assistant] could not store a new thread:', error);
      return false;
    }
  };
  // A new thread whose first answer failed before it began was never announced, so nothing can
  // continue it: it goes now rather than sit empty until retention, counted against maxThreads.
  // The reader's client still holds the question and sends it again on retry.
  const discardThread = async (created: Promise<boolean>) => {
    if (thread || !(await created)) return;
    await deps.threads.discard(threadId).catch((error: unknown) => {
      console.error('[docs-assistant] could not remove the unused thread', threadId, error);
    });
  };
  const saveTurn = (answer: string, sources: string[]) =>
    deps.threads
      .appendTurn(
        threadId,
        {
          messageId: question.messageId,
          question: text.slice(0, MAX_STORED_QUESTION_CHARS),
          answer,
          sources,
          at,
        },
        { maxTurns: deps.maxTurns },
      )
      .catch((error: unknown) => {
        console.error('[docs-assistant] could not save thread', threadId, error);
        return false;
      });

  /** The reader's parts: the answerer's, with `done` turned into the stored turn's `finish`. */
  async function* forReader(
    first: AnswerPart,
    rest: AsyncIterator<AnswerPart>,
  ): AsyncGenerator<TurnPart> {
    let outcome: TurnOutcome = 'failed';
    let cited: string[] = [];
    try {
      for (let part: AnswerPart | undefined = first; part;) {
        if (site.signal?.aborted) {
          outcome = 'stopped';
          return;
        }
        firstByteMs ??= performance.now() - startedAt;
        if (part.type === 'error') {
          yield part;
          return;
        }
        if (part.type === 'done') {
          // The turn is stored before the answer is declared finished, so it survives a restart.
          // When it could not be, the stream says so and names no thread to continue.
          const pages = part.cited.map((page) => page.path);
          if (!(await saveTurn(part.text, pages))) {
            yield { type: 'error', error: { error: 'storage_unavailable', message: SAVE_FAILED } };
            return;
          }
          const { finishReason, usage } = part;
          yield { type: 'finish', finishReason, usage, threadId };
          [outcome, cited] = [part.outcome, pages];
          return;
        }
        yield part;
        const next = await rest.next();
        part = next.done ? undefined : next.value;
      }
    } finally {
      await rest.return?.();
      if (outcome === 'failed' && site.signal?.aborted) outcome = 'stopped';
      settle(outcome, cited);
    }
  }

  async function stream(
    parts: AsyncIterable<AnswerPart>,
    write: StreamWriter = dataStreamResponse,
  ): Promise<Response> {
    const answers = parts[Symbol.asyncIterator]();
    // The new thread is written while the answerer prepares its first part (a model's takes a
    // while), not after it: the write is durable (a file is fsync'd, a row committed), and waiting
    // for it afterwards added its time to every first byte (bench/model).
    const created = createThread();
    let first: IteratorResult<AnswerPart>;
    try {
      first = await answers.next();
    } catch (error) {
      await discardThread(created);
      settle('failed');
      throw error;
    }
    const early: AnswerPart = first.done
      ? { type: 'error', error: { error: 'internal', message: INTERNAL } }
      : first.value;
    if (early.type === 'error') {
      await discardThread(created);
      settle('failed');
      const { error } = early;
      const { retryAfterSeconds } = error;
      return errorResponse(
        error.error,
        error.message,
        retryAfterSeconds !== undefined ? { retryAfterSeconds } : {},
      );
    }
    if (!(await created)) {
      await answers.return?.();
      settle('failed');
      return errorResponse(
        'storage_unavailable',
        'The server cannot store conversations right now. Please try again later.',
      );
    }
    site.trace?.('first_byte');
    handedOut = true;
    return write(forReader(early, answers), headers);
  }

  return { ok: true, turn: { question, stream } };
}
