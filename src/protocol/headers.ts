/** Header names of the wire. HTTP header names are case-insensitive; these are the spellings we send. */

/**
 * The live service names an answer's thread in this response header (a ULID): a stock `useChat`
 * drops `threadId` from the finish part, so clients read it here.
 */
export const THREAD_ID_HEADER = 'X-Thread-Id';
/** A secret some services issue with a new thread; every follow-up sends it back as `threadKey`. */
export const THREAD_KEY_HEADER = 'X-Thread-Key';
/** What the AI SDK's data stream responses carry (`v1`); the SDK's client does not check it. */
export const DATA_STREAM_HEADER = 'X-Vercel-AI-Data-Stream';
/** What an AI SDK 5+ UI message stream carries (`v1`): the v2 operation's answers. */
export const UI_MESSAGE_STREAM_HEADER = 'X-Vercel-AI-UI-Message-Stream';
/** RFC 9110 §10.2.3: seconds or an HTTP date, on 429 and 503. */
export const RETRY_AFTER_HEADER = 'Retry-After';

/**
 * Response headers a page must be able to read across origins (`Access-Control-Expose-Headers`),
 * and that a proxy passes on unchanged: the thread lives in them.
 */
export const BROWSER_READABLE_HEADERS = [
  THREAD_ID_HEADER,
  THREAD_KEY_HEADER,
  RETRY_AFTER_HEADER,
  DATA_STREAM_HEADER,
  UI_MESSAGE_STREAM_HEADER,
] as const;

/** A self-hosted deployment names the bundle version it serves in every response. */
export const BUNDLE_VERSION_HEADER = 'X-Docs-Assistant-Bundle';
/** Present (with the reason) when a deployment serves its last good version, not the one asked for. */
export const BUNDLE_STALE_HEADER = 'X-Docs-Assistant-Bundle-Stale';
