/**
 * Every non-2xx response of our server carries `{ error: code, message }` (plus `retryAfterSeconds`
 * on 429). SPEC §7 leaves errors open; these codes are ours, with the statuses other
 * services of this API answer (400, 401, 403, 404, 409).
 */
export const ERROR_CODES = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  wrong_key_type: 403,
  forbidden: 403,
  plan_required: 403,
  link_invalid: 403,
  link_expired: 403,
  domain_not_found: 404,
  thread_not_found: 404,
  job_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  job_not_completed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  upstream_error: 502,
  upstream_timeout: 504,
  context_too_long: 413,
  storage_unavailable: 503,
  request_timeout: 408,
  headers_too_large: 431,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  retryAfterSeconds?: number;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/**
 * Reads an error body leniently: a peer that is not ours may send anything. Fields of the wrong
 * type are left out, and `error` is kept only when it is one of our codes.
 */
export function parseErrorBody(text: string): Partial<ErrorBody> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {}; // not JSON: the caller falls back to the status code
  }
  if (typeof value !== 'object' || value === null) return {};
  const error = 'error' in value ? value.error : undefined;
  const message = 'message' in value ? value.message : undefined;
  const retryAfterSeconds = 'retryAfterSeconds' in value ? value.retryAfterSeconds : undefined;
  return {
    ...(isErrorCode(error) ? { error } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof retryAfterSeconds === 'number' ? { retryAfterSeconds } : {}),
  };
}
