/** SPEC §8: `currentPath` is at most 200 characters. */
export const MAX_CURRENT_PATH = 200;
/** SPEC §2.1: the recommended `retrievalPageSize`. */
export const DEFAULT_RETRIEVAL_PAGE_SIZE = 5;
/** SPEC §8 leaves the bound open; this is ours, generous enough for any real UI. */
export const MAX_RETRIEVAL_PAGE_SIZE = 50;
/** What a reader can say was wrong after a thumbs-down: the widget's choices, and the feedback operation's. */
export const FEEDBACK_REASONS = ['incorrect', 'unrelated', 'sources', 'unclear'] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];
/** A feedback comment is at most this long. */
export const MAX_FEEDBACK_COMMENT = 1000;
/**
 * How deep a request's JSON may nest (objects and arrays). The deepest real request — a tool
 * result's metadata inside a message part — is under ten; this bound keeps a few bytes a level
 * (`{"a":{"a":…`) from reaching code that walks values recursively.
 */
export const MAX_JSON_DEPTH = 64;
