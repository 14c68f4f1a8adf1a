import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import {
  describeIssues,
  ERROR_CODES,
  type ErrorBody,
  type ErrorCode,
  MAX_JSON_DEPTH,
} from '../../protocol/index.js';

/** The one error body of every non-2xx answer (see protocol/errors). */
export function errorResponse(
  code: ErrorCode,
  message: string,
  extra: { retryAfterSeconds?: number } = {},
): Response {
  const body: ErrorBody = { error: code, message, ...extra };
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
  if (extra.retryAfterSeconds !== undefined)
    headers['Retry-After'] = String(extra.retryAfterSeconds);
  return new Response(JSON.stringify(body), { status: ERROR_CODES[code], headers });
}

export type BodyResult =
  { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; response: Response };

const tooLarge = (maxBytes: number) =>
  errorResponse('payload_too_large', `The request body is over the limit of ${maxBytes} bytes.`);
const unreadable = () =>
  errorResponse('invalid_request', 'The request body could not be read to its end.');

/**
 * Reads a request body up to `maxBytes`, stopping as soon as it is over (a lying or missing
 * Content-Length cannot make us buffer more than the limit).
 */
export async function readBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes)
    return { ok: false, response: tooLarge(maxBytes) };
  if (!request.body) return { ok: true, bytes: new Uint8Array() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      // The client went away or sent a broken body (bad chunking): its fault, never a 500.
      return { ok: false, response: unreadable() };
    }
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, response: tooLarge(maxBytes) };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/**
 * Whether JSON text nests objects and arrays deeper than `max`: one pass over the characters,
 * skipping strings, before anything parses or walks the value.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92 /* \\ */) i++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (code === 125 /* } */ || code === 93 /* ] */) depth--;
  }
  return false;
}

/** The media types the JSON body middleware reads: `application/json` and `application/*+json`. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The body of a JSON operation, checked in the order clients see: the media type (415), then the
 * size (413, by `hono/body-limit`: the declared Content-Length or, without one, the bytes as they
 * arrive), then the JSON itself (400 `invalid_json`). The parsed value goes into Hono's body cache,
 * where `c.req.json()` and the zod validator read it.
 */
export function jsonBody(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => tooLarge(maxBytes),
  });
  return async (c, next) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (!JSON_TYPE.test(type))
      return errorResponse(
        'unsupported_media_type',
        'Send the body as JSON with Content-Type: application/json.',
      );
    let passed = false;
    let refused: Response | void;
    try {
      refused = await limit(c, async () => {
        passed = true;
      });
    } catch {
      // body-limit reads a body without Content-Length itself; one that breaks off is the client's fault.
      return unreadable();
    }
    if (!passed) return refused ?? tooLarge(maxBytes);
    // Read within the limit again: a Content-Length the limit trusted may be a lie in-process.
    const body = await readBody(c.req.raw, maxBytes);
    if (!body.ok) return body.response;
    let text: string;
    let value: unknown;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
      value = JSON.parse(text);
    } catch {
      return errorResponse('invalid_json', 'The request body is not valid JSON.');
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH))
      return errorResponse(
        'invalid_json',
        `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
      );
    // Both caches: Hono's c.req.json() (the zod validator's) reads the text, and with only the
    // parsed value cached it would stringify the value again to get one. (Hono types the cache by
    // the bodies' types; at run time it holds their promises, as `json` here does.)
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    c.req.bodyCache.json = Promise.resolve(value);
    await next();
  };
}

/**
 * Validates the JSON body with a zod schema (`@hono/zod-validator`); `check` adds what the schema
 * cannot say (a sentence naming the field, or undefined when the value is fine). Handlers read the
 * result with `c.req.valid('json')`. Runs after `jsonBody`.
 */
export function validJson<T extends z.ZodTypeAny>(
  schema: T,
  check: (value: z.output<T>) => string | undefined = () => undefined,
) {
  return zValidator('json', schema, (result) => {
    if (!result.success) return errorResponse('invalid_request', describeIssues(result.error));
    const problem = check(result.data);
    if (problem) return errorResponse('invalid_request', problem);
  });
}

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The caller's IP: the socket's address, or — behind `trustProxy` proxies that each append the
 * address they saw to X-Forwarded-For — the entry the outermost trusted proxy added. Entries left
 * of it were written by the client and prove nothing, so the left-most is never used.
 */
export function clientIp(c: Context, trustProxy: boolean | number): string {
  const hops =
    trustProxy === true ? 1 : trustProxy === false ? 0 : Math.max(0, Math.floor(trustProxy));
  const socket = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
  if (hops === 0) return socket;
  const chain = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  // Fewer entries than trusted hops: the nearest proxy's own view is the best we have.
  return chain[chain.length - hops] ?? chain[0] ?? socket;
}
