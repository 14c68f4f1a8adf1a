import { z } from 'zod';
import { agentUrls } from '../protocol/routes.js';
import {
  pageResponseSchema,
  searchResultSchema,
  type PageRequest,
  type PageResponse,
  type SearchRequest,
  type SearchResult,
} from '../protocol/schemas.js';
import { assertBrowserSafeKey } from './assistant.js';
import { AssistantError, errorFromResponse } from './errors.js';

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
  async function call<T>(url: string, body: unknown, schema: z.ZodType<T>, signal?: AbortSignal) {
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
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      throw new AssistantError('protocol', `The server answered ${url} with an unexpected body.`, {
        status: response.status,
        code: 'bad_response',
      });
    return parsed.data;
  }
  return {
    /** The sections that best match `query`, best first, each as Markdown. */
    search: (request: SearchRequest, signal?: AbortSignal): Promise<SearchResult[]> =>
      call(
        agentUrls.search(options.baseUrl, options.domain),
        request,
        z.array(searchResultSchema),
        signal,
      ),
    /** One page as Markdown; an unknown page throws `not_found` naming the nearest pages. */
    page: (request: PageRequest, signal?: AbortSignal): Promise<PageResponse> =>
      call(agentUrls.page(options.baseUrl, options.domain), request, pageResponseSchema, signal),
  };
}

export type DocsClient = ReturnType<typeof createDocsClient>;
