import { AssistantError, errorFromResponse } from '../client/errors.js';
import { isRecord } from '../protocol/_guards.js';
import { THREAD_ID_HEADER, THREAD_KEY_HEADER } from '../protocol/headers.js';
import { formatStreamPart, parseStreamLine, type ParsedStreamLine } from '../protocol/stream.js';

export interface ThreadIds {
  threadId?: string;
  /** Secret some services issue with a new thread; must accompany every follow-up as `threadKey`. */
  threadKey?: string;
}

export interface StreamWarning {
  kind: 'protocol';
  message: string;
  /** The first dropped line (cut to 200 characters), for logs. */
  sample: string;
}

export interface AssistantFetchOptions {
  fetch?: typeof fetch;
  /** The thread to continue, read at request time. */
  getThread(): ThreadIds;
  /** Called with new ids when the server names the thread, and with `{}` when a stale one is dropped. */
  setThread(ids: ThreadIds): void;
  /** Errors that arrive inside a 200 stream (a `3:` part, a cut connection). */
  onStreamError?(error: AssistantError): void;
  /** Lines that were dropped because they were not valid parts (reported once per response). */
  onWarning?(warning: StreamWarning): void;
}

/** Message part types of SPEC §2.3; anything else the SDK adds (e.g. `file`) is not ours to send. */
const SPEC_PART_TYPES = new Set(['text', 'reasoning', 'step-start', 'source', 'tool-invocation']);

const encoder = new TextEncoder();

/** Codes of errors that end a stream partway, so the UI can say the answer is incomplete. */
export const STREAM_ERROR = 'stream_error';
export const STREAM_ENDED = 'stream_ended';
export const STREAM_CUT = 'stream_cut';

function threadIdIn(parsed: Extract<ParsedStreamLine, { ok: true }>): string | undefined {
  const pick = (value: unknown): string | undefined =>
    isRecord(value) && typeof value.threadId === 'string' && value.threadId
      ? value.threadId
      : undefined;
  switch (parsed.code) {
    case 'd':
    case 'e':
      return pick(parsed.json);
    case '2':
    case '8':
      // Data items and annotations are arrays; `{type:'finish', threadId}` or `{threadId}` may be any item.
      return Array.isArray(parsed.json) ? parsed.json.map(pick).find(Boolean) : undefined;
    default:
      return undefined;
  }
}

/** Prepares the SDK's request body for the spec: thread ids from now, only spec parts, no SDK chat id. */
function prepareBody(raw: unknown, thread: ThreadIds): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const parsed: unknown = JSON.parse(raw);
  if (!isRecord(parsed)) return raw;
  const { id: _chatId, threadId: _threadId, threadKey: _threadKey, ...body } = parsed;
  if (thread.threadId) body.threadId = thread.threadId;
  if (thread.threadId && thread.threadKey) body.threadKey = thread.threadKey;
  if (Array.isArray(body.messages)) {
    body.messages = body.messages.map((message: unknown) =>
      isRecord(message) && Array.isArray(message.parts)
        ? {
            ...message,
            parts: message.parts.filter(
              (part: unknown) =>
                isRecord(part) && typeof part.type === 'string' && SPEC_PART_TYPES.has(part.type),
            ),
          }
        : message,
    );
  }
  return JSON.stringify(body);
}

function isAbort(error: unknown, signal: AbortSignal | null | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/**
 * The fetch `useChat` is given. It makes the v1 stream (SPEC §4.1) safe to hand to the SDK:
 * - keeps the thread: `X-Thread-Id`/`X-Thread-Key` headers, or `threadId` in a `d:`, `e:`, `2:` or `8:` part;
 * - turns non-2xx answers into typed errors, and retries once as a new thread on 404 `thread_not_found`;
 * - forwards only well-formed lines with known codes (one bad line would make the SDK drop a whole read);
 * - merges adjacent text deltas of a read, since the SDK deep-copies the whole message per part;
 * - ends a cut stream cleanly with an error part, so the partial answer stays and the error shows.
 */
export function createAssistantFetch(options: AssistantFetchOptions): typeof fetch {
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const send = async (
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    retried: boolean,
  ): Promise<Response> => {
    const thread = options.getThread();
    const body = prepareBody(init?.body, thread);
    let response: Response;
    try {
      response = await baseFetch(input, { ...init, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      if (isAbort(error, init?.signal)) throw error;
      throw new AssistantError(
        'network',
        'The assistant could not be reached. Check your connection.',
      );
    }
    const headerId = response.headers.get(THREAD_ID_HEADER);
    const headerKey = response.headers.get(THREAD_KEY_HEADER);
    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (
        error.status === 404 &&
        error.code === 'thread_not_found' &&
        thread.threadId &&
        !retried
      ) {
        options.setThread({});
        return send(input, init, true);
      }
      throw error;
    }
    if (headerId)
      options.setThread({
        threadId: headerId,
        ...(headerKey
          ? { threadKey: headerKey }
          : headerId === thread.threadId && thread.threadKey
            ? { threadKey: thread.threadKey }
            : {}),
      });
    if (!response.body)
      throw new AssistantError('protocol', 'The assistant answered with an empty response.', {
        status: response.status,
      });
    return new Response(
      cleanStream(response.body, init?.signal ?? undefined, options, !!headerId),
      {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      },
    );
  };

  return (input, init) => send(input, init, false);
}

/**
 * At most one update per frame reaches the SDK: each update costs it a deep copy of the whole
 * message and a render, and bytes that arrive faster than that would otherwise all be handled in
 * one long task.
 */
const FLUSH_INTERVAL_MS = 16;

/**
 * Most answer text handed over per update. A burst (a buffering proxy, a fast model) would otherwise
 * reach the SDK as one update and be put on screen in one long task; in slices it takes a frame each.
 */
export const MAX_UPDATE_CHARS = 20_000;

/** A cut at `at` that does not split a UTF-16 surrogate pair. */
const cutAt = (text: string, at: number) =>
  /[\uD800-\uDBFF]/.test(text[at - 1] ?? '') ? at - 1 : at;

function cleanStream(
  source: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  options: AssistantFetchOptions,
  threadKnown: boolean,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const reader = source.getReader();
  let buffer = '';
  let out = '';
  let text = '';
  let warned = false;
  let finished = false;
  let sawThread = threadKnown;
  let state: 'reading' | 'ended' | 'cut' | 'aborted' = 'reading';
  let handedAt = -Infinity;
  let wake: (() => void) | undefined;
  let onAbort: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  /** Updates cut from a burst, each ending in a slice of its text: handed over one per pull. */
  const ready: string[] = [];
  const flushText = () => {
    while (text.length > MAX_UPDATE_CHARS) {
      const cut = cutAt(text, MAX_UPDATE_CHARS);
      ready.push(out + formatStreamPart('text', text.slice(0, cut)));
      out = '';
      text = text.slice(cut);
    }
    if (text) out += formatStreamPart('text', text);
    text = '';
  };
  const handle = (line: string) => {
    const parsed = parseStreamLine(line);
    if (!parsed.ok) {
      if (parsed.reason === 'empty') return;
      if (!warned) {
        warned = true;
        options.onWarning?.({
          kind: 'protocol',
          message: `Dropped a malformed stream line (${parsed.reason}).`,
          sample: parsed.line.slice(0, 200),
        });
      }
      return;
    }
    if (!sawThread) {
      const id = threadIdIn(parsed);
      if (id) {
        sawThread = true;
        options.setThread({ threadId: id });
      }
    }
    if (parsed.code === '0') {
      // Adjacent text deltas become one part: the SDK copies the whole message once per part.
      text += parsed.value as string;
      return;
    }
    if (parsed.code === 'd') finished = true;
    if (parsed.code === '3') {
      finished = true;
      options.onStreamError?.(
        new AssistantError('server', String(parsed.value), { code: STREAM_ERROR }),
      );
    }
    flushText();
    out += line + '\n';
  };

  // Reads the network as fast as it delivers, independently of how fast the SDK consumes.
  const pump = async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          buffer += decoder.decode();
          if (buffer) handle(buffer);
          buffer = '';
          state = 'ended';
          return notify();
        }
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        lines.forEach(handle);
        notify();
      }
    } catch (error) {
      state = isAbort(error, signal) ? 'aborted' : 'cut';
      notify();
    }
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Stop must work even when the body ignores the signal (a proxy, a test double, an old polyfill).
      onAbort = () => {
        state = 'aborted';
        reader.cancel().catch(() => {});
        controller.error(new DOMException('The answer was stopped.', 'AbortError'));
        notify();
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      void pump();
    },
    async pull(controller) {
      while (state === 'reading' && !out && !text && ready.length === 0)
        await new Promise<void>((resolve) => (wake = resolve));
      // Let a frame's worth of bytes gather, then hand them over as one update; after the stream
      // ended, still not two updates in one task (the SDK reads again as soon as it has rendered).
      const wait =
        state === 'reading' || ready.length > 0
          ? FLUSH_INTERVAL_MS
          : handedAt + FLUSH_INTERVAL_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      handedAt = performance.now();
      if (state === 'aborted') return;
      flushText();
      // A slice of a burst per pull; the rest follows a frame later.
      if (ready.length > 0) return controller.enqueue(encoder.encode(ready.shift()!));
      if (state === 'ended' && !finished) {
        // A stream that ends without a finish part was closed by the other side (a proxy timeout, a
        // crashed server): the reader's own connection is fine, so it is a server fault.
        const error = new AssistantError(
          'server',
          'The connection closed before the answer was complete.',
          { code: STREAM_ENDED },
        );
        options.onStreamError?.(error);
        out += formatStreamPart('error', error.message);
      }
      if (state === 'cut') {
        const error = new AssistantError(
          'network',
          'The connection was lost before the answer was complete.',
          { code: STREAM_CUT },
        );
        options.onStreamError?.(error);
        out += formatStreamPart('error', error.message);
      }
      if (out) controller.enqueue(encoder.encode(out));
      out = '';
      if (state !== 'reading') {
        controller.close();
        if (onAbort) signal?.removeEventListener('abort', onAbort);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
