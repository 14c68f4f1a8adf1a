import { createDataStreamResponse, formatDataStreamPart, type DataStreamWriter } from 'ai';
import type { DataStreamString } from '@ai-sdk/ui-utils';
import { ulid } from 'ulid';
import {
  DEFAULT_RETRIEVAL_PAGE_SIZE,
  type AssistantRequest,
  type ContextItem,
  type Message,
} from '../protocol/index.js';
import { composeAnswer } from './answer.js';
import type { DocSection } from './docs.js';
import { errorResponse } from './http.js';
import type { Retriever, SearchHit } from './retrieval.js';
import type { ThreadRecord, ThreadStore, ThreadTurn } from './stores/index.js';

export interface AssistantSite {
  domain: string;
  retriever: Retriever;
}

export interface AnswerDeps {
  threads: ThreadStore;
  /** Turns kept per thread (the oldest go first). */
  maxTurns: number;
  now: () => number;
  /** Absolute URL of a docs section (`…/docs/guides/x#anchor`). */
  pageUrl: (section: DocSection) => string;
  /** Pause between text chunks, so a demo looks like streaming; 0 in tests. */
  chunkDelayMs: number;
}

/** A question is kept in its thread up to this length (turns stay small whatever was asked). */
const MAX_STORED_QUESTION_CHARS = 4000;
/** Context values longer than this are cut before they join the search query. */
const MAX_CONTEXT_QUERY_CHARS = 400;
const TEXT_CHUNK_CHARS = 48;

export function questionOf(message: Message): string {
  const fromParts = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
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

function describeFilter(request: AssistantRequest): string {
  const parts = [request.filter?.version && `version ${request.filter.version}`, request.filter?.language && `language ${request.filter.language}`].filter(Boolean);
  return parts.length ? ` limited to ${parts.join(' and ')}` : '';
}

/**
 * Answers one validated request: retrieves, composes, records the turn, then streams
 * (SPEC §4.1) with the SDK's own encoder. Two steps, as an agentic answer has: the search tool
 * call, then the answer with its reasoning and sources.
 */
export async function answer(site: AssistantSite, request: AssistantRequest, deps: AnswerDeps): Promise<Response> {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const question = lastUser ? questionOf(lastUser) : '';
  if (!lastUser || !question) {
    return errorResponse('invalid_request', 'messages: the conversation must end with a user message that has text.');
  }

  let thread: ThreadRecord | undefined;
  if (request.threadId) {
    thread = await deps.threads.get(request.threadId);
    // A thread belongs to the reader who started it: another fp with the same id learns nothing of it.
    if (!thread || thread.domain !== site.domain || thread.fp !== request.fp) {
      return errorResponse('thread_not_found', `Thread ${JSON.stringify(request.threadId.slice(0, 64))} does not exist. Start a new conversation without threadId.`);
    }
  }

  const limit = request.retrievalPageSize ?? DEFAULT_RETRIEVAL_PAGE_SIZE;
  const searchOptions = { limit, filter: request.filter, currentPath: request.currentPath };
  let query = queryOf(question, request.context);
  let hits: SearchHit[] = site.retriever.search(query, searchOptions);
  let usedEarlierQuestion = false;
  // A short follow-up ("and in v1?") often names nothing the docs contain; the thread's last question does.
  const earlier = thread?.turns.at(-1)?.question;
  if (hits.length === 0 && earlier) {
    query = `${earlier}\n${query}`;
    hits = site.retriever.search(query, searchOptions);
    usedEarlierQuestion = hits.length > 0;
  }

  const composed = composeAnswer(question, hits, deps.pageUrl);
  const now = deps.now();
  const at = new Date(now).toISOString();
  const threadId = thread?.threadId ?? ulid(now);
  const messageId = `msg_${ulid(now)}`;
  // A thread id is handed out only once the thread is stored: a follow-up never meets a thread
  // that was announced and then lost.
  if (!thread) {
    try {
      await deps.threads.create({ threadId, domain: site.domain, fp: request.fp, createdAt: at });
    } catch (error) {
      console.error('[docs-assistant] could not store a new thread:', error);
      return errorResponse('storage_unavailable', 'The server cannot store conversations right now. Please try again later.');
    }
  }
  const turn: ThreadTurn = { messageId, question: question.slice(0, MAX_STORED_QUESTION_CHARS), answer: composed.markdown, sources: composed.cited.map((c) => c.path), at };
  // The disk write runs alongside the stream instead of delaying its first byte; the finish part
  // waits for it.
  const saved = deps.threads.appendTurn(threadId, turn, { maxTurns: deps.maxTurns }).then(
    (kept) => kept,
    (error: unknown) => {
      console.error('[docs-assistant] could not save thread', threadId, error);
      return false;
    },
  );

  const toolCallId = `call_${ulid(now)}`;
  const terms = site.retriever.terms(query);
  const reasoning =
    `I searched the docs for ${terms.length ? terms.map((t) => `“${t}”`).join(', ') : 'the question'}` +
    (request.context?.length ? `, including the ${request.context.length} attached context item${request.context.length === 1 ? '' : 's'}` : '') +
    describeFilter(request) +
    (request.currentPath ? `, favouring the page the reader is on (${request.currentPath})` : '') +
    (usedEarlierQuestion ? ', adding the previous question of this thread because the new one matched nothing alone' : '') +
    `, and kept the top ${limit} section${limit === 1 ? '' : 's'}: ${hits.length} matched. ${composed.rationale}`;

  const results = hits.map(({ section, score }) => ({
    url: deps.pageUrl(section),
    path: section.pagePath,
    title: section.pageTitle,
    section: section.heading,
    score: Math.round(score * 100) / 100,
    metadata: { title: section.pageTitle },
  }));

  const usage = { promptTokens: Math.ceil(query.length / 4), completionTokens: Math.ceil(composed.markdown.length / 4) };
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
      formatDataStreamPart('tool_call', { toolCallId, toolName: 'search', args: { query, ...searchOptions } }),
      formatDataStreamPart('tool_result', { toolCallId, result: results }),
      formatDataStreamPart('finish_step', { finishReason: 'tool-calls', usage, isContinued: false }),
      formatDataStreamPart('start_step', { messageId }),
      formatDataStreamPart('reasoning', reasoning),
      ...composed.cited.map((page) => formatDataStreamPart('source', { sourceType: 'url', id: page.path, url: page.url, title: page.title })),
    );
    for (const chunk of chunkText(composed.markdown)) {
      if (deps.chunkDelayMs > 0) {
        flush();
        await sleep(deps.chunkDelayMs);
      }
      lines.push(formatDataStreamPart('text', chunk));
    }
    lines.push(formatDataStreamPart('finish_step', { finishReason: 'stop', usage, isContinued: false }));
    flush();
    // The turn is stored before the answer is declared finished, so it survives a restart. When it
    // could not be, the stream says so and the finish part names no thread to continue.
    if (!(await saved)) {
      stream.write(formatDataStreamPart('error', 'This answer could not be saved to the conversation. Start a new conversation to ask a follow-up.'));
      return;
    }
    // SPEC §6: the finish event carries threadId. The SDK type has no such key; the wire does.
    stream.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage, threadId } as Parameters<typeof formatDataStreamPart<'finish_message'>>[1]));
  };
  return createDataStreamResponse({
    status: 200,
    headers: { 'X-Thread-Id': threadId, 'Cache-Control': 'no-store' },
    execute,
    onError: () => 'The answer was cut short by a server error. Please ask again.',
  });
}
