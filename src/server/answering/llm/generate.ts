import {
  APICallError,
  streamText,
  tool,
  type CoreMessage,
  type LanguageModelV1,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { z } from 'zod';
import {
  SEARCH_TOOL_NAME,
  type ConfidenceLevel,
  type ErrorBody,
  type SearchToolResult,
} from '../../../protocol/index.js';
import { citedAs, type DocSection } from '../../site/docs.js';
import type { ThreadTurn } from '../../stores/index.js';
import { confidenceOf, outcomeOf } from '../answer.js';
import type { AnswerPart } from '../parts.js';
import { firstSearch, searchFor, shownQuery, type AnswerSite, type Question } from '../question.js';
import type { SearchHit, SearchResult } from '../retrieval.js';
import { FOLLOW_UPS_INSTRUCTION, followUpsFilter } from './follow-ups.js';
import type { LlmConfig, SilenceTimer } from './model.js';

/** One numbered passage the model may cite as [n]. */
export interface Passage {
  n: number;
  section: DocSection;
  title: string;
  url: string;
  pageUrl: string;
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

/**
 * What the search tells the model about how sure it is, the signal the no-model answer acts on
 * (answer.ts, confidenceOf): one clear section, close top hits, or nothing that matches.
 */
export function confidenceInstruction(level: ConfidenceLevel): string {
  switch (level) {
    case 'sure':
      return 'Search confidence: the search found one section that clearly answers the question, passage [1]. Answer from it.';
    case 'unsure':
      return 'Search confidence: the top passages scored close to each other, so no one section clearly answers. Say plainly in one sentence that you are not sure, then name the best places to read (up to three passages, each with its title, what it says about the question and its citation), rather than pick one as the answer.';
    case 'refused':
      return "Search confidence: nothing in the docs matched the question well. Unless the search tool finds passages that answer it, say plainly that the docs don't cover it and name the nearest pages to look at; do not guess.";
    default:
      return level satisfies never;
  }
}

const quotedWords = (words: string[]) => words.map((word) => `“${word}”`).join(', ');

/**
 * What the search could not use of the question, which the no-model answer's reasoning names too:
 * words the docs never use (so the model does not answer as if the passages covered them), and
 * the words a long question's search left out. Empty when the search used every word.
 */
function wordsInstruction(result: Pick<SearchResult, 'words' | 'unknown' | 'leftOut'>): string[] {
  const { unknown, leftOut } = result;
  return [
    ...(unknown.length
      ? [
          `Words the docs never use: ${quotedWords(unknown)}. The search found nothing for them and no passage is about them; do not answer as if the docs covered them.`,
        ]
      : []),
    ...(leftOut.words.length || leftOut.more
      ? [
          `The question was too long to search whole: the search used only its first ${result.words.length} words and left out ` +
            (leftOut.words.length
              ? `${quotedWords(leftOut.words)}${leftOut.more ? ' and the words after them' : ''}.`
              : 'the rest.') +
            ' Call the search tool for them if they matter to the question.',
        ]
      : []),
  ];
}

function passageText(passage: Passage, limit = PASSAGE_CHARS): string {
  const body = passage.section.blocks.map((block) => block.markdown).join('\n\n');
  const cut = body.length > limit ? `${body.slice(0, limit)}\n…` : body;
  return `[${passage.n}] ${citedAs(passage.section, passage.title)} (${passage.url})\n${cut}`;
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

function errorFor(failure: Failure): ErrorBody {
  const message = sentenceFor(failure);
  switch (failure.status) {
    case 'rate_limited':
      return {
        error: 'rate_limited',
        message,
        ...(failure.retryAfterSeconds !== undefined
          ? { retryAfterSeconds: failure.retryAfterSeconds }
          : {}),
      };
    case 'timeout':
      return { error: 'upstream_timeout', message };
    case 'too_long':
      return { error: 'context_too_long', message };
    case 'auth':
    case 'failed':
      return { error: 'upstream_error', message };
    default:
      return failure satisfies never;
  }
}

/** The answer's part for one part of the model's stream; undefined for what the reader is not sent. */
function partOf<TOOLS extends ToolSet>(part: TextStreamPart<TOOLS>): AnswerPart | undefined {
  switch (part.type) {
    case 'step-start':
      return { type: 'step-start', messageId: part.messageId };
    case 'step-finish':
      return {
        type: 'step-finish',
        finishReason: part.finishReason,
        usage: {
          promptTokens: part.usage.promptTokens,
          completionTokens: part.usage.completionTokens,
        },
        isContinued: part.isContinued,
      };
    case 'text-delta':
      return { type: 'text', text: part.textDelta };
    case 'reasoning':
      return { type: 'reasoning', text: part.textDelta };
    case 'reasoning-signature':
      return { type: 'reasoning-signature', signature: part.signature };
    case 'redacted-reasoning':
      return { type: 'redacted-reasoning', data: part.data };
    case 'source':
      return { type: 'source', id: part.source.id, url: part.source.url, title: part.source.title };
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        // The model may copy the whole question (or more) into its query: the reader sees it cut.
        args:
          typeof part.args.query === 'string'
            ? { ...part.args, query: shownQuery(part.args.query) }
            : part.args,
      };
    case 'tool-result':
      return { type: 'tool-result', toolCallId: part.toolCallId, result: part.result };
    default:
      // The finish is the turn's to write; no tool's arguments stream (toolCallStreaming is off)
      // and the answer makes no files.
      return undefined;
  }
}

const realTimer: SilenceTimer = (fire, ms) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

/**
 * A grounded answer from a language model: the retrieved sections, the reader's page, the
 * context items and the thread's earlier turns go into the prompt; the model may search for more;
 * `streamText` produces the reply, yielded part by part. A failure before the model's first part
 * is the first part yielded (the reader gets an HTTP error); after it, the last.
 */
export async function* modelAnswer(
  llm: { model: LanguageModelV1; config: LlmConfig; silenceTimer?: SilenceTimer | undefined },
  site: AnswerSite,
  question: Question,
): AsyncGenerator<AnswerPart> {
  const timeoutMs = llm.config.timeoutMs ?? 60_000;
  const { apiKey } = llm.config;
  const passages: Passage[] = [];
  const addPassages = (hits: SearchHit[]) =>
    hits.flatMap((hit) => {
      const known = passages.find((p) => p.section.id === hit.section.id);
      if (known) return [known];
      const passage: Passage = {
        n: passages.length + 1,
        section: hit.section,
        title: hit.title,
        url: site.pageUrl(hit.section),
        pageUrl: site.pageUrl({ ...hit.section, anchor: '' }),
      };
      passages.push(passage);
      return [passage];
    });
  const first = firstSearch(site, question);
  const level = confidenceOf(first.result);
  addPassages(first.hits);
  // The reader's page is a passage too, whether or not the search found it.
  const current = (
    question.currentPath
      ? site.retriever.sectionsOf(question.currentPath).map(site.linkedSection)
      : []
  ).filter((section) => !passages.some((p) => p.section.id === section.id));
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
    confidenceInstruction(level),
    ...wordsInstruction(first.result),
    '',
    'Passages:',
    ...passages.map((p) =>
      p === currentPassage
        ? `[${p.n}] The page the reader is on: ${p.title} (${p.url})\n${currentText}`
        : passageText(p),
    ),
  ].join('\n\n');
  const contextText = (question.context ?? [])
    .map(
      (item) =>
        `${item.type === 'code' ? 'Code' : 'Selected text'}${item.path ? ` from ${item.path}` : ''}:\n${item.value.slice(0, CONTEXT_ITEM_CHARS)}`,
    )
    .join('\n\n');
  const messages: CoreMessage[] = [
    ...historyMessages(question.history, llm.config.historyTokens ?? 2000),
    {
      role: 'user',
      content: contextText
        ? `${question.text}\n\nThe reader attached:\n\n${contextText}`
        : question.text,
    },
  ];

  const cited: Passage[] = [];
  const followUps: string[] = [];
  // One timer for "the model said nothing for too long", the first part included.
  const controller = new AbortController();
  let timedOut = false;
  let disarm: (() => void) | undefined;
  const arm = () => {
    disarm?.();
    disarm = (llm.silenceTimer ?? realTimer)(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
  };
  const onClientGone = () => controller.abort();
  site.signal?.addEventListener('abort', onClientGone, { once: true });
  let firstPart = true;

  const tools = {
    [SEARCH_TOOL_NAME]: tool({
      description:
        'Search the docs for more passages. Use other words than the question when the passages given do not answer it.',
      parameters: z.object({ query: z.string().describe('What to look for in the docs') }),
      execute: async ({ query }): Promise<SearchToolResult> => ({
        type: 'search',
        results: addPassages(searchFor(site, question, query)).map((p) => ({
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
  site.trace?.('model_call');
  const result = streamText({
    model: llm.model,
    system,
    messages,
    maxSteps: llm.config.maxSteps ?? 4,
    maxRetries: 0,
    abortSignal: controller.signal,
    tools,
    // The follow-ups block comes out first, so a "[2]" in a suggested question cites nothing.
    experimental_transform: [
      followUpsFilter<typeof tools>(followUps),
      citationFilter<typeof tools>(passages, cited),
    ],
    onChunk: () => {
      if (firstPart) site.trace?.('model_first_part');
      firstPart = false;
      arm();
    },
    onError: () => {},
  });

  // Until the model's first part, a failure is still an HTTP error: the step's start is held
  // back so that a failure can be the first part.
  const held: AnswerPart[] = [];
  let answering = false;
  let failure: Failure | undefined;
  let ended = false;
  const fail = (error: unknown, how: string) => {
    failure = classify(error, timedOut);
    console.error(
      `[docs-assistant] the language model ${answering ? how : 'failed before answering'} (${failure.status}):`,
      timedOut && !answering ? `no answer within ${timeoutMs} ms` : describeCause(error, apiKey),
    );
  };
  const reader = result.fullStream.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      if (next.value.type === 'error') {
        fail(next.value.error, 'failed mid-answer');
        break;
      }
      const part = partOf<typeof tools>(next.value);
      if (!part) continue;
      if (!answering && part.type === 'step-start') held.push(part);
      else {
        if (!answering) yield* held;
        answering = true;
        yield part;
      }
    }
    ended = true;
  } catch (error) {
    // A cut or aborted model stream can end the stream itself rather than yield an error part.
    ended = true;
    fail(error, 'stream broke mid-answer');
  } finally {
    disarm?.();
    site.signal?.removeEventListener('abort', onClientGone);
    // The turn stopped reading (the reader went away, the thread could not be stored): so does the model.
    if (!ended) controller.abort();
    void reader.cancel().catch(() => {});
  }
  if (!answering && !failure) fail(undefined, '');
  if (failure) {
    yield { type: 'error', error: errorFor(failure) };
    return;
  }
  // The first search's level, except that passages the model found with its own search and cited
  // are no refusal: they are places, though not a clear answer.
  const said: ConfidenceLevel = level === 'refused' && cited.length > 0 ? 'unsure' : level;
  yield { type: 'confidence', level: said };
  if (followUps.length) yield { type: 'suggestions', questions: followUps };
  const usage = await result.usage;
  yield {
    type: 'done',
    outcome: outcomeOf(said),
    text: await result.text,
    cited: cited.map((p) => ({ path: p.section.pagePath, title: p.title, url: p.pageUrl })),
    finishReason: await result.finishReason,
    usage: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens },
  };
}
