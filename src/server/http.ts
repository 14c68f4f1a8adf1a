import type { Context } from 'hono';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../protocol/index.js';

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

/**
 * Reads a request body up to `maxBytes`, stopping as soon as it is over (a lying or missing
 * Content-Length cannot make us buffer more than the limit).
 */
export async function readBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const tooLarge = (): BodyResult => ({
    ok: false,
    response: errorResponse(
      'payload_too_large',
      `The request body is over the limit of ${maxBytes} bytes.`,
    ),
  });
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
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
      return {
        ok: false,
        response: errorResponse(
          'invalid_request',
          'The request body could not be read to its end.',
        ),
      };
    }
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return tooLarge();
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

/** Parses a JSON body, answering 415 for another media type and 400 for broken JSON. */
export async function readJson(
  request: Request,
  maxBytes: number,
): Promise<
  { ok: true; value: unknown; bytes: Uint8Array<ArrayBuffer> } | { ok: false; response: Response }
> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    return {
      ok: false,
      response: errorResponse(
        'unsupported_media_type',
        'Send the body as JSON with Content-Type: application/json.',
      ),
    };
  }
  const body = await readBody(request, maxBytes);
  if (!body.ok) return body;
  try {
    return {
      ok: true,
      value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)),
      bytes: body.bytes,
    };
  } catch {
    return {
      ok: false,
      response: errorResponse('invalid_json', 'The request body is not valid JSON.'),
    };
  }
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
