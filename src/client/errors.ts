import { parseErrorBody, type ErrorCode } from '../protocol/errors.js';
import { RETRY_AFTER_HEADER } from '../protocol/headers.js';
import type { Job } from '../protocol/types.js';

/**
 * What went wrong, as a reader or a program needs to act on it; the widget's sentence for each kind
 * lives in its labels. The static export client uses the same kinds: a failed or overdue export job
 * is `server`, a bundle that is not what was announced is `protocol`.
 */
export type AssistantErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'bad_request'
  | 'server'
  | 'network'
  | 'protocol';

/** Codes the client gives when no server code applies (the server's are `ErrorCode`, SPEC §7 / ours). */
export type ClientErrorCode =
  /** No response came: DNS, refused connection, offline. */
  | 'network'
  /** `waitForJob` gave up after `timeoutMs`; the job goes on on the server. */
  | 'timeout'
  /** The export job ended `failed`; `job.error` says why. */
  | 'job_failed'
  /** A 2xx answer that is not the JSON the operation promises. */
  | 'bad_response'
  /** The downloaded bundle's size is not the announced `sizeBytes`. */
  | 'size_mismatch'
  /** The downloaded bundle is not a readable archive with an `index.html`. */
  | 'bad_bundle'
  /** The assistant's stream carried an error part. */
  | 'stream_error'
  /** The assistant's stream ended without finishing the answer. */
  | 'stream_ended'
  /** The connection broke while the answer streamed. */
  | 'stream_cut';

export type AssistantErrorCode = ErrorCode | ClientErrorCode;

export interface AssistantErrorDetails {
  status?: number;
  code?: AssistantErrorCode;
  retryAfterSeconds?: number;
  job?: Job;
}

/**
 * The one error of the client (an error value with a kind), for the assistant and for static
 * export alike. Still an Error, so the SDK's hook carries it as is.
 */
export class AssistantError extends Error {
  override readonly name = 'AssistantError';
  readonly kind: AssistantErrorKind;
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The server's error code (`thread_not_found`, `job_not_completed`, …) or the client's own. */
  readonly code: AssistantErrorCode | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The export job, when the error is about one (`job_failed`, `timeout`). */
  readonly job: Job | undefined;

  constructor(kind: AssistantErrorKind, message: string, details: AssistantErrorDetails = {}) {
    super(message);
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.job = details.job;
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
    parseRetryAfter(response.headers.get(RETRY_AFTER_HEADER)) ?? body.retryAfterSeconds;
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
