/** SPEC §8: `currentPath` is at most 200 characters. */
export const MAX_CURRENT_PATH = 200;
/** SPEC §2.1: the recommended `retrievalPageSize`. */
export const DEFAULT_RETRIEVAL_PAGE_SIZE = 5;
/** SPEC §8 leaves the bound open; this is ours, generous enough for any real UI. */
export const MAX_RETRIEVAL_PAGE_SIZE = 50;
/**
 * How deep a request's JSON may nest (objects and arrays). The deepest real request — a tool
 * result's metadata inside a message part — is under ten; this bound keeps a few bytes a level
 * (`{"a":{"a":…`) from reaching code that walks values recursively.
 */
export const MAX_JSON_DEPTH = 64;
