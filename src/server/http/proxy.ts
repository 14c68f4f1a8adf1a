import { formatDataStreamPart } from 'ai';
import type { Context } from 'hono';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  assistantMessageUrl,
  assistantMessageV2Url,
  BROWSER_READABLE_HEADERS,
  parseErrorBody,
  RETRY_AFTER_HEADER,
} from '../../protocol/index.js';
import { errorResponse, readBody } from './middleware.js';

export interface UpstreamConfig {
  /** API root of the service to forward to ({base_url}). */
  baseUrl: string;
  /** Assistant key added on the server, so pages never carry it. */
  key?: string;
  /** Transport (tests); undici with the timeouts below when absent. */
  fetch?: typeof fetch;
  /** How long the proxy waits on the upstream, in milliseconds. */
  timeouts?: {
    /** To open the connection. @default 5000 */
    connectMs?: number;
    /** From sending the request to the response headers. @default 15000 */
    headersMs?: number;
    /** Between two pieces of the streamed answer. @default 30000 */
    idleMs?: number;
  };
}

/** Headers of an upstream answer that the proxy passes on unchanged. */
const FORWARDED_RESPONSE_HEADERS = ['Content-Type', 'Cache-Control', ...BROWSER_READABLE_HEADERS];
/** An upstream error body is read up to this size; beyond it, it is not ours to relay. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const NEWLINE = 10;

class UpstreamTimeout extends Error {}

/**
 * Proxy mode: the body goes upstream byte for byte with the server's key and the reader's IP
 * (`X-Forwarded-For`), and the stream comes back with its thread headers. Whatever the upstream
 * does — hang, redirect, answer HTML, cut the stream — the reader gets our `{error,message}` or a
 * stream that ends with an error part, never a hang or a truncated body.
 */
export function createForwarder(upstream: UpstreamConfig) {
  const connectMs = upstream.timeouts?.connectMs ?? 5000;
  const headersMs = upstream.timeouts?.headersMs ?? 15_000;
  const idleMs = upstream.timeouts?.idleMs ?? 30_000;
  let transport = upstream.fetch;
  if (!transport) {
    // undici enforces the connect timeout, which a fetch signal cannot see; its header and body
    // limits only back ours up (a second later), so the reader gets our clearer message.
    const dispatcher = new Agent({
      connectTimeout: connectMs,
      headersTimeout: headersMs + 1000,
      bodyTimeout: idleMs + 1000,
    });
    transport = ((url: string, init: RequestInit) =>
      undiciFetch(url, { ...(init as object), dispatcher })) as unknown as typeof fetch;
  }
  const send = transport;

  return async function forward(
    c: Context,
    domain: string,
    clientIp: string,
    maxBodyBytes: number,
    /** v1 or v2 (NOTES §8): the same operation upstream; only a stream's closing error differs. */
    version: 'v1' | 'v2' = 'v1',
  ): Promise<Response> {
    const body = await readBody(c.req.raw, maxBodyBytes);
    if (!body.ok) return body.response;
    const url = (version === 'v1' ? assistantMessageUrl : assistantMessageV2Url)(
      upstream.baseUrl,
      domain,
    );
    const headers: Record<string, string> = {
      'Content-Type': c.req.header('content-type') ?? 'application/json',
      // The upstream's per-IP limit then sees readers, not this proxy (it trusts one hop).
      'X-Forwarded-For': clientIp,
    };
    if (upstream.key) headers.Authorization = `Bearer ${upstream.key}`;

    const controller = new AbortController();
    const onClientGone = () => controller.abort();
    c.req.raw.signal.addEventListener('abort', onClientGone, { once: true });
    const timer = setTimeout(() => controller.abort(new UpstreamTimeout()), headersMs);
    let response: Response;
    try {
      // A redirect is reported, not followed: following it would send the key to another origin.
      response = await send(url, {
        method: 'POST',
        headers,
        body: body.bytes,
        signal: controller.signal,
        redirect: 'manual',
      });
    } catch (error) {
      c.req.raw.signal.removeEventListener('abort', onClientGone);
      if (controller.signal.reason instanceof UpstreamTimeout) {
        return errorResponse(
          'upstream_error',
          `The upstream assistant service did not answer within ${Math.round(headersMs / 1000)} s.`,
        );
      }
      console.error('[docs-assistant] upstream request failed:', error);
      return errorResponse(
        'upstream_error',
        'The upstream assistant service could not be reached.',
      );
    } finally {
      clearTimeout(timer);
    }

    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      const location = (response.headers.get('location') ?? '').slice(0, 200);
      return errorResponse(
        'upstream_error',
        `The upstream assistant service redirected to ${JSON.stringify(location)}. Point --upstream at the final address.`,
      );
    }
    if (!response.ok) return relayError(response);

    const passed = new Headers();
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) passed.set(name, value);
    }
    if (!response.body) return new Response(null, { status: response.status, headers: passed });
    return new Response(
      guardStream(response.body, idleMs, () => controller.abort(), ERROR_ENDINGS[version]),
      { status: response.status, headers: passed },
    );
  };
}

/** An upstream error in our shape: its own `{error,message}` when it sent one, else a 502. */
async function relayError(response: Response): Promise<Response> {
  const status = response.status;
  let text = '';
  try {
    const read = await readBody(
      new Request('http://upstream/', {
        method: 'POST',
        body: response.body,
        duplex: 'half',
      } as RequestInit),
      MAX_ERROR_BODY_BYTES,
    );
    if (read.ok) text = new TextDecoder().decode(read.bytes);
  } catch {
    // an unreadable body is the same as a foreign one
  }
  const parsed = parseErrorBody(text);
  if (
    // parseErrorBody keeps `error` only when it is one of our codes.
    parsed.error !== undefined &&
    parsed.message !== undefined &&
    parsed.error !== 'internal'
  ) {
    const retryAfter =
      parsed.retryAfterSeconds ?? (Number(response.headers.get(RETRY_AFTER_HEADER)) || undefined);
    return errorResponse(
      parsed.error,
      parsed.message.slice(0, 1000),
      retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {},
    );
  }
  console.error(`[docs-assistant] upstream answered ${status}: ${text.slice(0, 200)}`);
  return errorResponse('upstream_error', `The upstream assistant service failed (HTTP ${status}).`);
}

/** The last words of a stream the upstream cut short, in each version's encoding. */
const ERROR_ENDINGS = {
  v1: (message: string) => formatDataStreamPart('error', message),
  // The leading blank line ends an event the upstream left open, so this one parses on its own.
  v2: (message: string) =>
    `\ndata: ${JSON.stringify({ type: 'error', errorText: message })}\n\ndata: [DONE]\n\n`,
};

/**
 * Passes the upstream stream on in whole lines. When the upstream stops sending for `idleMs` or
 * its connection breaks, the half line is dropped and an error part ends the stream, so the
 * reader's SDK sees a clean error instead of a truncated body.
 */
function guardStream(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  giveUp: () => void,
  ending: (message: string) => string,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const encoder = new TextEncoder();
  let pending = new Uint8Array(0);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const idle = new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(new UpstreamTimeout()), idleMs)),
        );
        const { done, value } = await Promise.race([reader.read(), idle]);
        if (done) {
          if (pending.length) controller.enqueue(pending);
          controller.close();
          return;
        }
        const joined = new Uint8Array(pending.length + value.length);
        joined.set(pending);
        joined.set(value, pending.length);
        const end = joined.lastIndexOf(NEWLINE) + 1;
        if (end > 0) controller.enqueue(joined.subarray(0, end));
        pending = joined.slice(end);
      } catch (error) {
        giveUp();
        reader.cancel().catch(() => {});
        const message =
          error instanceof UpstreamTimeout
            ? `The upstream assistant service stopped answering for ${Math.round(idleMs / 1000)} s. Please ask again.`
            : 'The upstream assistant service cut the answer short. Please ask again.';
        controller.enqueue(encoder.encode(ending(message)));
        controller.close();
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      giveUp();
      return reader.cancel(reason).catch(() => {});
    },
  });
}
