import { parseErrorBody } from '../protocol/errors.js';

/** What went wrong, as the UI needs to tell it; the sentence for each kind lives in the UI's labels. */
export type AssistantErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'bad_request'
  | 'server'
  | 'network'
  | 'protocol';

/** An error as a value with a kind, still an Error so the SDK's hook carries it as is. */
export class AssistantError extends Error {
  override readonly name = 'AssistantError';
  readonly kind: AssistantErrorKind;
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The server's error code (`thread_not_found`, `wrong_key_type`, …), when it sent one. */
  readonly code: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    kind: AssistantErrorKind,
    message: string,
    details: { status?: number; code?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export function kindOfStatus(status: number): AssistantErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'server';
}

/** `Retry-After` is seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Reads a non-2xx response into a typed error; any body (ours, another server's, HTML, empty) works. */
export async function errorFromResponse(response: Response): Promise<AssistantError> {
  const text = await response.text().catch(() => '');
  const body = parseErrorBody(text);
  const retryAfterSeconds =
    parseRetryAfter(response.headers.get('retry-after')) ?? body.retryAfterSeconds;
  return new AssistantError(
    kindOfStatus(response.status),
    body.message ??
      `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
    {
      status: response.status,
      ...(body.error ? { code: body.error } : {}),
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    },
  );
}
