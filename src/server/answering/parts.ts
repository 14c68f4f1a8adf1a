import type { ConfidenceLevel, ErrorBody } from '../../protocol/index.js';

/**
 * What an answerer produces: the parts of one answer, in the order the reader gets them, in no
 * wire format. The quoting answerer (quote-answer.ts) and the model answerer (llm/generate.ts)
 * each yield an `AsyncIterable<AnswerPart>`; the turn (http/turn.ts) consumes it, stores the
 * answer and hands the reader's parts (`TurnPart`) to a writer that encodes them: v1 is the AI
 * SDK 4 data stream (http/data-stream.ts); another protocol is another writer of the same parts.
 *
 * Two rules of the sequence:
 * - an `error` part ends the answer: nothing after it is sent and nothing is stored. As the
 *   FIRST part it means the answerer failed before answering, and the reader gets an HTTP error
 *   (`error.error` is the code, `error.message` the sentence) instead of a stream;
 * - a `done` part ends an answer that succeeded: it carries the answer as the thread stores it.
 */
export type AnswerPart =
  /** A step of the answer begins (the search, then the answer: SPEC §4.1). */
  | { type: 'step-start'; messageId: string }
  | { type: 'step-finish'; finishReason: FinishReason; usage: Usage; isContinued: boolean }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** A provider's proof of its reasoning (Anthropic's thinking), passed on as it came. */
  | { type: 'reasoning-signature'; signature: string }
  | { type: 'redacted-reasoning'; data: string }
  /** A page the answer cites. */
  | { type: 'source'; id: string; url: string; title?: string | undefined }
  | { type: 'tool-call'; toolCallId: string; toolName: string; args: unknown }
  | { type: 'tool-result'; toolCallId: string; result: unknown }
  /**
   * How sure the answer is (`sure`, `unsure`, `refused`): the reader sees it beside the answer. At
   * most one per answer; an answerer that knows it before its text sends it before, so the reader
   * sees it while the answer streams.
   */
  | { type: 'confidence'; level: ConfidenceLevel }
  /** Questions the reader may ask next, each one the docs answer. */
  | { type: 'suggestions'; questions: string[] }
  | { type: 'error'; error: ErrorBody }
  | {
      type: 'done';
      /** How the answer ended; `'unsure'` is for an answer that found the docs but doubts them. */
      outcome: AnswerOutcome;
      /** The answer's text as the thread keeps it. */
      text: string;
      /** Pages the answer cites, in citation order. */
      cited: CitedPage[];
      finishReason: FinishReason;
      usage: Usage;
    };

/**
 * What a writer encodes: the answerer's parts, except that the turn replaces `done` with
 * `finish`, which names the thread a follow-up continues (SPEC §6), or with an `error` part when
 * the answer could not be stored.
 */
export type TurnPart =
  | Exclude<AnswerPart, { type: 'done' }>
  | { type: 'finish'; finishReason: FinishReason; usage: Usage; threadId: string };

/** How an answer that was given ended: it answered, it doubts its answer, or the docs don't cover the question. */
export type AnswerOutcome = 'answered' | 'unsure' | 'refused';

export type FinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface CitedPage {
  path: string;
  title: string;
  url: string;
}
