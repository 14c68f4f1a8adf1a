import {
  APICallError,
  createDataStreamResponse,
  formatDataStreamPart,
  streamText,
  tool,
  type CoreMessage,
  type DataStreamWriter,
  type LanguageModelV1,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import type { DataStreamString } from '@ai-sdk/ui-utils';
import { z } from 'zod';
import {
  SEARCH_TOOL_NAME,
  type ContextItem,
  type SearchToolResult,
  type SuggestionsAnnotation,
} from '../../../protocol/index.js';
import type { DocSection } from '../../site/docs.js';
import { errorResponse } from '../../http/middleware.js';
import type { SearchHit } from '../retrieval.js';
import type { ThreadTurn } from '../../stores/index.js';
import { FOLLOW_UPS_INSTRUCTION, followUpsFilter } from './follow-ups.js';

/** One numbered passage the model may cite as [n]. */
export interface Passage {
  n: number;
  section: DocSection;
  title: string;
  url: string;
  pageUrl: string;
}

export interface GenerateInput {
  model: LanguageModelV1;
  question: string;
  context: ContextItem[] | undefined;
  /** The first search's hits; the model may search for more with its tool. */
  hits: SearchHit[];
  /** The page the reader is on, given to the model whether or not it matched. */
  currentPage: DocSection[] | undefined;
  /** Earlier turns of the thread, oldest first (from the server's store, not from the client). */
  history: ThreadTurn[];
  search: (query: string) => SearchHit[];
  pageUrl: (section: DocSection) => string;
  timeoutMs: number;
  maxSteps: number;
  historyTokens: number;
  /** The client went away: stop the model too. */
  signal?: AbortSignal | undefined;
  headers: Record<string, string>;
  /** Records the finished turn; resolves false when it could not be kept. */
  saveTurn: (answer: string, sources: string[]) => Promise<boolean>;
  /** Makes the thread exist; called as the model is asked, awaited once it has answered. */
  startThread: () => Promise<Response | undefined>;
  /** Removes the thread `startThread` made, when the model failed before its first part. */
  discardThread: () => Promise<void>;
  threadId: string;
  /** Timing points for measuring our overhead around the model call (bench/). */
  trace?: ((point: 'model_call' | 'model_first_part' | 'first_byte') => void) | undefined;
  /** The model's API key, only to blank it out of what the owner's log says about a failure. */
  apiKey?: string | undefined;
}

/** Characters of one passage given to the model; long sections are cut. */
const PASSAGE_CHARS = 2400;
const CURRENT_PAGE_CHARS = 3000;
const CONTEXT_ITEM_CHARS = 4000;
const HISTORY_ANSWER_CHARS = 1500;
const CHARS_PER_TOKEN = 4;

const SYSTEM = `You are the documentation assistant of this docs site. Answer the reader's question using only the numbered passages below (and those the search tool returns).
Rules:
- Cite every statement with the number of the passage it comes from, like [1] or [2][3]. Cite only numbers that exist.
- If the passages do not answer the question, say plainly that the docs don't cover it, and do not guess or use outside knowledge.
- Keep code, option names and commands exactly as the passages write them, in Markdown code formatting.
- If the passages are not enough but the docs may cover it, call the search tool with other words before answering.
- Answer in the language of the question. Be concise.
${FOLLOW_UPS_INSTRUCTION}`;

function passageText(passage: Passage, limit = PASSAGE_CHARS): string {
  const body = passage.section.blocks.map((block) => block.markdown).join('\n\n');
  const cut = body.length > limit ? `${body.slice(0, limit)}\n…` : body;
  const label =
    passage.section.heading === passage.section.pageTitle
      ? passage.title
      : `${passage.title} › ${passage.section.heading}`;
  return `[${passage.n}] ${label} (${passage.url})\n${cut}`;
}

/** Earlier turns, newest kept first, within a token budget; returned oldest first. */
export function historyMessages(turns: ThreadTurn[], budgetTokens: number): CoreMessage[] {
  const kept: CoreMessage[][] = [];
  let used = 0;
  for (const turn of [...turns].reverse()) {
    const answer =
      turn.answer.length > HISTORY_ANSWER_CHARS
        ? `${turn.answer.slice(0, HISTORY_ANSWER_CHARS)}…`
        : turn.answer;
    const cost = Math.ceil((turn.question.length + answer.length) / CHARS_PER_TOKEN);
    if (used + cost > budgetTokens) break;
    used += cost;
    kept.unshift([
      { role: 'user', content: turn.question },
      { role: 'assistant', content: answer },
    ]);
  }
  return kept.flat();
}

/**
 * Drops citations to passages that do not exist and collects the ones that do, across chunk
 * boundaries ("[1" then "2]"). At the end of the answer it adds one source part per cited page,
 * in citation order, so the client lists exactly what the text cites.
 */
function citationFilter<TOOLS extends ToolSet>(passages: Passage[], cited: Passage[]) {
  return () => {
    let carry = '';
    const rewrite = (text: string) =>
      text.replace(/\[(\d{1,3})\]/g, (_, digits: string) => {
        const passage = passages.find((p) => p.n === Number(digits));
        if (!passage) return '';
        if (!cited.some((c) => c.section.pagePath === passage.section.pagePath))
          cited.push(passage);
        return `[${digits}]`;
      });
    return new TransformStream<TextStreamPart<TOOLS>, TextStreamPart<TOOLS>>({
      transform(part, controller) {
        if (part.type === 'text-delta') {
          const text = carry + part.textDelta;
          // Hold back an unfinished "[12" until the next chunk tells what it is.
          const open = /\[\d{0,3}$/.exec(text);
          carry = open ? open[0] : '';
          const ready = open ? text.slice(0, open.index) : text;
          if (ready) controller.enqueue({ ...part, textDelta: rewrite(ready) });
          return;
        }
        if (
          carry &&
          (part.type === 'step-finish' || part.type === 'finish' || part.type === 'tool-call')
        ) {
          controller.enqueue({ type: 'text-delta', textDelta: carry });
          carry = '';
        }
        if (part.type === 'finish') {
          for (const passage of cited) {
            controller.enqueue({
              type: 'source',
              source: {
                sourceType: 'url',
                id: passage.section.pagePath,
                url: passage.pageUrl,
                title: passage.title,
              },
            });
          }
        }
        controller.enqueue(part);
      },
    });
  };
}

type Failure =
  | { status: 'rate_limited'; retryAfterSeconds?: number }
  | { status: 'timeout' }
  | { status: 'too_long' }
  | { status: 'auth' }
  | { status: 'failed'; httpStatus?: number };

/** The provider's HTTP call behind an error, also when the SDK's retries wrapped it. */
const callOf = (error: unknown): APICallError | undefined =>
  APICallError.isInstance(error)
    ? error
    : APICallError.isInstance((error as { lastError?: unknown })?.lastError)
      ? (error as { lastError: APICallError }).lastError
      : undefined;

/**
 * One line for the owner's log that says why the model failed (the address that refused the
 * connection, the status and the start of what the provider answered), since the reader only
 * sees "the language model failed". Never the key: it is blanked wherever it appears (a provider
 * may quote it back), and so is a URL's query string.
 */
export function describeCause(error: unknown, apiKey?: string): string {
  const call = callOf(error);
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const line = call
    ? `${call.statusCode ? `HTTP ${call.statusCode}` : call.message} from ${call.url.split('?')[0]}` +
      (call.responseBody ? `: ${call.responseBody.replace(/\s+/g, ' ').slice(0, 300)}` : '')
    : [error instanceof Error ? error.message : String(error), cause?.code ?? cause?.message]
        .filter(Boolean)
        .join(': ');
  return apiKey ? line.split(apiKey).join('[key]') : line;
}

/** What went wrong with the model, without its details (they may echo our request). */
export function classify(error: unknown, timedOut: boolean): Failure {
  if (timedOut) return { status: 'timeout' };
  const call = callOf(error);
  const body = `${call?.responseBody ?? ''} ${call?.message ?? ''}`.toLowerCase();
  if (call?.statusCode === 401 || call?.statusCode === 403) return { status: 'auth' };
  if (call?.statusCode === 429) {
    const retryAfter = Number(call.responseHeaders?.['retry-after']);
    return {
      status: 'rate_limited',
      ...(Number.isFinite(retryAfter) && retryAfter >= 0
        ? { retryAfterSeconds: Math.ceil(retryAfter) }
        : {}),
    };
  }
  if (
    /context length|context window|maximum context|too many tokens|prompt is too long|too long/.test(
      body,
    ) ||
    call?.statusCode === 413
  )
    return { status: 'too_long' };
  return { status: 'failed', ...(call?.statusCode ? { httpStatus: call.statusCode } : {}) };
}

function sentenceFor(failure: Failure): string {
  switch (failure.status) {
    case 'rate_limited':
      return 'The language model is receiving too many requests right now. Please try again shortly.';
    case 'timeout':
      return 'The language model took too long to answer. Please try again.';
    case 'too_long':
      return 'This conversation is too long for the language model. Start a new conversation.';
    case 'auth':
      return 'The server could not authenticate with its language model. The site owner needs to check its key.';
    case 'failed':
      return `The language model failed${failure.httpStatus ? ` (HTTP ${failure.httpStatus})` : ''}. Please try again.`;
    default:
      return failure satisfies never;
  }
}

function errorFor(failure: Failure): Response {
  const message = sentenceFor(failure);
  switch (failure.status) {
    case 'rate_limited':
      return errorResponse(
        'rate_limited',
        message,
        failure.retryAfterSeconds !== undefined
          ? { retryAfterSeconds: failure.retryAfterSeconds }
          : {},
      );
    case 'timeout':
      return errorResponse('upstream_timeout', message);
    case 'too_long':
      return errorResponse('context_too_long', message);
    case 'auth':
    case 'failed':
      return errorResponse('upstream_error', message);
    default:
      return failure satisfies never;
  }
}

/**
 * A grounded answer from a language model: the retrieved sections, the reader's page, the
 * context items and the thread's earlier turns go into the prompt; the model may search for more;
 * `streamText` produces the reply and the SDK's data stream encoder writes it. A failure before
 * the model's first part is an HTTP error; after it, the protocol's error part.
 */
export async function generateAnswer(input: GenerateInput): Promise<Response> {
  const passages: Passage[] = [];
  const addPassages = (hits: SearchHit[]) =>
    hits.flatMap((hit) => {
      const known = passages.find((p) => p.section.id === hit.section.id);
      if (known) return [known];
      const passage: Passage = {
        n: passages.length + 1,
        section: hit.section,
        title: hit.title,
        url: input.pageUrl(hit.section),
        pageUrl: input.pageUrl({ ...hit.section, anchor: '' }),
      };
      passages.push(passage);
      return [passage];
    });
  addPassages(input.hits);
  // The reader's page is a passage too, whether or not the search found it.
  const current = (input.currentPage ?? []).filter(
    (section) => !passages.some((p) => p.section.id === section.id),
  );
  const currentText = current.length
    ? current
        .map((section) => section.blocks.map((b) => b.markdown).join('\n\n'))
        .join('\n\n')
        .slice(0, CURRENT_PAGE_CHARS)
    : '';
  if (current[0])
    addPassages([{ section: current[0], score: 0, terms: [], title: current[0].pageTitle }]);
  const currentPassage = current[0] ? passages.at(-1) : undefined;

  const system = [
    SYSTEM,
    '',
    'Passages:',
    ...passages.map((p) =>
      p === currentPassage
        ? `[${p.n}] The page the reader is on: ${p.title} (${p.url})\n${currentText}`
        : passageText(p),
    ),
  ].join('\n\n');
  const contextText = (input.context ?? [])
    .map(
      (item) =>
        `${item.type === 'code' ? 'Code' : 'Selected text'}${item.path ? ` from ${item.path}` : ''}:\n${item.value.slice(0, CONTEXT_ITEM_CHARS)}`,
    )
    .join('\n\n');
  const messages: CoreMessage[] = [
    ...historyMessages(input.history, input.historyTokens),
    {
      role: 'user',
      content: contextText
        ? `${input.question}\n\nThe reader attached:\n\n${contextText}`
        : input.question,
    },
  ];

  const cited: Passage[] = [];
  const followUps: string[] = [];
  // One timer for "the model said nothing for too long", the first part included.
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, input.timeoutMs);
  };
  const disarm = () => clearTimeout(timer);
  const onClientGone = () => controller.abort();
  input.signal?.addEventListener('abort', onClientGone, { once: true });
  let firstPart = true;

  const tools = {
    [SEARCH_TOOL_NAME]: tool({
      description:
        'Search the docs for more passages. Use other words than the question when the passages given do not answer it.',
      parameters: z.object({ query: z.string().describe('What to look for in the docs') }),
      execute: async ({ query }): Promise<SearchToolResult> => ({
        type: 'search',
        results: addPassages(input.search(query)).map((p) => ({
          n: p.n,
          url: p.url,
          path: p.section.pagePath,
          title: p.title,
          metadata: { title: p.title },
          text: passageText(p),
        })),
      }),
    }),
  };
  arm();
  input.trace?.('model_call');
  const result = streamText({
    model: input.model,
    system,
    messages,
    maxSteps: input.maxSteps,
    maxRetries: 0,
    abortSignal: controller.signal,
    tools,
    // The follow-ups block comes out first, so a "[2]" in a suggested question cites nothing.
    experimental_transform: [
      followUpsFilter<typeof tools>(followUps),
      citationFilter<typeof tools>(passages, cited),
    ],
    onChunk: () => {
      if (firstPart) input.trace?.('model_first_part');
      firstPart = false;
      arm();
    },
    onError: () => {},
  });

  // The new thread is written while the model prepares its first part, not after it: the write is
  // durable (a file is fsync'd, a row committed), and waiting for it afterwards added its time to
  // every first byte (bench/model). Should the model fail, the empty thread's id is never handed
  // out, and the thread is removed.
  const threadStarted = input.startThread();
  // Wait for the model's first part: before it, a failure is still an HTTP error.
  const peek = result.fullStream.getReader();
  let failedEarly: { error: unknown } | undefined;
  try {
    let first: Awaited<ReturnType<typeof peek.read>>;
    do first = await peek.read();
    while (!first.done && first.value.type === 'step-start');
    if (first.done || first.value.type === 'error')
      failedEarly = {
        error: !first.done && first.value.type === 'error' ? first.value.error : undefined,
      };
  } catch (error) {
    failedEarly = { error };
  } finally {
    void peek.cancel().catch(() => {});
  }
  if (failedEarly) {
    if (!(await threadStarted)) await input.discardThread();
    disarm();
    input.signal?.removeEventListener('abort', onClientGone);
    const failure = classify(failedEarly.error, timedOut);
    console.error(
      `[docs-assistant] the language model failed before answering (${failure.status}):`,
      timedOut
        ? `no answer within ${input.timeoutMs} ms`
        : describeCause(failedEarly.error, input.apiKey),
    );
    return errorFor(failure);
  }
  const threadFailure = await threadStarted;
  if (threadFailure) {
    controller.abort();
    disarm();
    return threadFailure;
  }

  let failed: Failure | undefined;
  const execute = async (stream: DataStreamWriter) => {
    input.trace?.('first_byte');
    const encoded = result
      .toDataStream({
        sendReasoning: true,
        sendSources: true,
        experimental_sendFinish: false,
        getErrorMessage: (error) => {
          failed = classify(error, timedOut);
          console.error(
            `[docs-assistant] the language model failed mid-answer (${failed.status}):`,
            describeCause(error, input.apiKey),
          );
          return sentenceFor(failed);
        },
      })
      .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
      .getReader();
    try {
      for (;;) {
        const { done, value } = await encoded.read();
        if (done) break;
        stream.write(value as DataStreamString);
      }
    } catch (error) {
      // A cut or aborted model stream can end the encoder itself rather than yield an error part.
      failed = classify(error, timedOut);
      console.error(
        `[docs-assistant] the language model stream broke mid-answer (${failed.status}):`,
        describeCause(error, input.apiKey),
      );
      stream.write(formatDataStreamPart('error', sentenceFor(failed)));
    } finally {
      disarm();
      input.signal?.removeEventListener('abort', onClientGone);
    }
    if (failed) return;
    // Same wire as the extractive answer's follow-ups: an `8:` annotation kept on this message.
    if (followUps.length)
      stream.write(
        formatDataStreamPart('message_annotations', [
          { type: 'suggestions', questions: followUps } satisfies SuggestionsAnnotation,
        ]),
      );
    const text = await result.text;
    const usage = await result.usage;
    if (
      !(await input.saveTurn(
        text,
        cited.map((p) => p.section.pagePath),
      ))
    ) {
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
        finishReason: await result.finishReason,
        usage: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens },
        threadId: input.threadId,
      } as Parameters<typeof formatDataStreamPart<'finish_message'>>[1]),
    );
  };
  return createDataStreamResponse({
    status: 200,
    headers: input.headers,
    execute,
    onError: () => 'The answer was cut short by a server error. Please ask again.',
  });
}
