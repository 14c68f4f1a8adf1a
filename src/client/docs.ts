import { agentUrls } from '../protocol/routes.js';
import { assertBrowserSafeKey } from './assistant.js';
import { AssistantError, errorFromResponse } from './errors.js';

/** NOTES §7: a search (the server checks it with protocol/schemas' searchRequestSchema). */
export interface SearchRequest {
  query: string;
  /** 1–50. @default 10 */
  pageSize?: number;
  /** 0–1: hits scoring below this share of the best hit's score are left out. */
  scoreThreshold?: number;
  filter?: { version?: string; language?: string; tag?: string; groups?: string[] };
}

/** One search hit: the matching passage as Markdown, where it is, and about it. */
export interface SearchResult {
  content: string;
  path: string;
  metadata: { title: string; url: string; score: number; version?: string; language: string };
}

export interface PageRequest {
  path: string;
  groups?: string[];
}

/** A whole page as Markdown. */
export interface PageResponse {
  path: string;
  content: string;
}

// Plain checks rather than the protocol's zod schemas: this client ships in the widget package,
// which carries no zod.
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const isSearchResult = (value: unknown): value is SearchResult =>
  isObject(value) &&
  typeof value.content === 'string' &&
  typeof value.path === 'string' &&
  isObject(value.metadata) &&
  typeof value.metadata.title === 'string' &&
  typeof value.metadata.url === 'string' &&
  typeof value.metadata.score === 'number';
const isSearchResults = (value: unknown): value is SearchResult[] =>
  Array.isArray(value) && value.every(isSearchResult);
const isPageResponse = (value: unknown): value is PageResponse =>
  isObject(value) && typeof value.path === 'string' && typeof value.content === 'string';

export interface DocsClientOptions {
  /** {base_url} of the service (the discovery operations live under `/discovery`). */
  baseUrl: string;
  domain: string;
  /** The assistant key (`svc_dsc_…`); leave out for a site open to agents. */
  apiKey?: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * The search and page operations (NOTES §7): the docs' index and pages as Markdown, with the
 * assistant key. Browser-safe: it refuses an admin key before sending anything.
 */
export function createDocsClient(options: DocsClientOptions) {
  assertBrowserSafeKey(options.apiKey);
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  async function call<T>(
    url: string,
    body: unknown,
    valid: (value: unknown) => value is T,
    signal?: AbortSignal,
  ): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw new AssistantError('network', `Could not reach ${url}.`, { code: 'network' });
    }
    if (!response.ok) throw await errorFromResponse(response);
    const value: unknown = await response.json().catch(() => undefined);
    if (!valid(value))
      throw new AssistantError('protocol', `The server answered ${url} with an unexpected body.`, {
        status: response.status,
        code: 'bad_response',
      });
    return value;
  }
  return {
    /** The sections that best match `query`, best first, each as Markdown. */
    search: (request: SearchRequest, signal?: AbortSignal): Promise<SearchResult[]> =>
      call(agentUrls.search(options.baseUrl, options.domain), request, isSearchResults, signal),
    /** One page as Markdown; an unknown page throws `not_found` naming the nearest pages. */
    page: (request: PageRequest, signal?: AbortSignal): Promise<PageResponse> =>
      call(agentUrls.page(options.baseUrl, options.domain), request, isPageResponse, signal),
  };
}

export type DocsClient = ReturnType<typeof createDocsClient>;
