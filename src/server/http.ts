import type { Context } from 'hono';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../protocol/index.js';

/** The one error body of every non-2xx answer (see protocol/errors). */
export function errorResponse(code: ErrorCode, message: string, extra: { retryAfterSeconds?: number } = {}): Response {
  const body: ErrorBody = { error: code, message, ...extra };
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
  if (extra.retryAfterSeconds !== undefined) headers['Retry-After'] = String(extra.retryAfterSeconds);
  return new Response(JSON.stringify(body), { status: ERROR_CODES[code], headers });
}

export type BodyResult = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; response: Response };

/**
 * Reads a request body up to `maxBytes`, stopping as soon as it is over (a lying or missing
 * Content-Length cannot make us buffer more than the limit).
 */
export async function readBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const tooLarge = (): BodyResult => ({
    ok: false,
    response: errorResponse('payload_too_large', `The request body is over the limit of ${maxBytes} bytes.`),
  });
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
  if (!request.body) return { ok: true, bytes: new Uint8Array() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
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
export async function readJson(request: Request, maxBytes: number): Promise<{ ok: true; value: unknown; bytes: Uint8Array<ArrayBuffer> } | { ok: false; response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    return { ok: false, response: errorResponse('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.') };
  }
  const body = await readBody(request, maxBytes);
  if (!body.ok) return body;
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)), bytes: body.bytes };
  } catch {
    return { ok: false, response: errorResponse('invalid_json', 'The request body is not valid JSON.') };
  }
}

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** The caller's IP: the socket's address, or the first X-Forwarded-For hop when behind a trusted proxy. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
}
