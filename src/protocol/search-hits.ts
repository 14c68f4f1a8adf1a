// No zod here: the widget reads search hits, and zod must stay out of the page's bundle.
import { isRecord } from './_guards.js';

/** The tool whose results an answer shows as its sources (the live service's answers call it so). */
export const SEARCH_TOOL_NAME = 'search';

/**
 * One result of the `search` tool, as our server sends it. Other services send less (the live one:
 * `{url | path, metadata: {title}}`), so a reader takes every field as optional.
 */
export interface SearchHit {
  /** Link to the page (or section) found. */
  url?: string;
  /** Path of the page within the docs. */
  path?: string;
  title?: string;
  /** The section's heading. */
  section?: string;
  score?: number;
  /** The number an answer cites this hit by (`[n]`). */
  n?: number;
  /** The passage found. */
  text?: string;
  metadata?: { title?: string; description?: string };
}

/** A search tool's result: an array of hits or `{type: 'search', results: [...]}` (both seen live). */
export type SearchToolResult = SearchHit[] | { type: 'search'; results: SearchHit[] };

/** What a reader needs of a hit: where it links, and what to call and quote it. */
export interface SearchHitView {
  url?: string;
  path?: string;
  title?: string;
  snippet?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value : undefined;

function resultList(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  if (isRecord(result) && Array.isArray(result.results)) return result.results;
  return [];
}

/**
 * Reads a `search` tool result from any service into the hits that can be shown: entries without
 * a `url` or `path` are dropped, blank strings count as absent, and the title and passage are
 * taken from whichever field the service used (`title` or `metadata.title`; `snippet`, `content`,
 * `text` or `metadata.description`).
 */
export function parseSearchHits(result: unknown): SearchHitView[] {
  return resultList(result).flatMap((hit): SearchHitView[] => {
    if (!isRecord(hit)) return [];
    const metadata = isRecord(hit.metadata) ? hit.metadata : {};
    const url = text(hit.url);
    const path = text(hit.path);
    if (!url && !path) return [];
    const title = text(hit.title) ?? text(metadata.title);
    const snippet =
      text(hit.snippet) ?? text(hit.content) ?? text(hit.text) ?? text(metadata.description);
    return [
      {
        ...(url ? { url } : {}),
        ...(path ? { path } : {}),
        ...(title ? { title } : {}),
        ...(snippet ? { snippet } : {}),
      },
    ];
  });
}

/** The `query` argument of a `search` tool call, whitespace collapsed; undefined when there is none. */
export function searchQueryOf(args: unknown): string | undefined {
  return isRecord(args) && typeof args.query === 'string'
    ? args.query.replace(/\s+/g, ' ').trim()
    : undefined;
}
