/**
 * Every path of the wire, in one place: Hono route patterns for the server (`:param` segments) and
 * builders for clients. A path changed here changes on both sides of the wire at once.
 */
export const ROUTES = {
  /** SPEC §4.1, under {discovery_url} = {base_url}/discovery. */
  assistantMessage: '/discovery/v1/assistant/:domain/message',
  /** The live service's search operation (NOTES §7), under {discovery_url}. */
  search: '/discovery/v1/search/:domain',
  /** The live service's page operation (NOTES §7): a page as Markdown. */
  page: '/discovery/v1/page/:domain',
  /** Ours: the docs' MCP server (Streamable HTTP) for agents. */
  mcp: '/mcp/:domain',
  /** NOTES §8: the same operation for clients on AI SDK 5 and later (UI messages, UI message stream). */
  assistantMessageV2: '/discovery/v2/assistant/:domain/message',
  /** Ours (docs/insights.md): a reader's thumbs up or down on an answer, with the assistant key. */
  assistantFeedback: '/discovery/v1/assistant/:domain/feedback',
  /** Everything under {discovery_url}: what a proxy in front of the assistant forwards. */
  discovery: '/discovery/*',
  /** SPEC §4.2. */
  exportJobs: '/v1/static-export/jobs',
  /** SPEC §4.3. */
  exportJob: '/v1/static-export/jobs/:jobId',
  /** SPEC §4.4. */
  exportBundle: '/v1/static-export/jobs/:jobId/bundle',
  /** Ours: the presigned link this server hands out when no object storage signs it. */
  exportBundleFile: '/v1/static-export/bundles/:file',
  /** Ours: a domain's insights report (GET) or their deletion (DELETE), with the admin key. */
  insights: '/v1/insights/:domain',
  /** Ours: one conversation of a domain, for its owner (admin key). */
  insightsThread: '/v1/insights/:domain/threads/:threadId',
  /** The owner's insights page (it asks for the admin key and keeps it in the tab's memory). */
  insightsPage: '/insights',
  /** Liveness of the server and of a self-hosted deployment. */
  health: '/healthz',
  /** Readiness of a self-hosted deployment: true once a bundle version is active. */
  ready: '/readyz',
} as const;

/**
 * Where a self-hosted deployment serves the script-tag files, beside the exported pages: a path no
 * exported page can have (page paths never start with `_`).
 */
export const DEPLOYMENT_EMBED_PATH = '/_docs-assistant/';

/** The bundle archive's file name in a presigned link of this server. */
export const BUNDLE_FILE_SUFFIX = '.tar.gz';

const trimBase = (baseUrl: string) => baseUrl.replace(/\/+$/, '');

/** SPEC §4.1: `{base_url}/discovery/v1/assistant/{domain}/message`; an empty base URL means same origin. */
export function assistantMessageUrl(baseUrl: string, domain: string): string {
  return trimBase(baseUrl) + ROUTES.assistantMessage.replace(':domain', encodeURIComponent(domain));
}

/** The search, page and MCP URLs of a domain under {base_url}; an empty base URL means same origin. */
export const agentUrls = {
  search: (baseUrl: string, domain: string): string =>
    trimBase(baseUrl) + ROUTES.search.replace(':domain', encodeURIComponent(domain)),
  page: (baseUrl: string, domain: string): string =>
    trimBase(baseUrl) + ROUTES.page.replace(':domain', encodeURIComponent(domain)),
  mcp: (baseUrl: string, domain: string): string =>
    trimBase(baseUrl) + ROUTES.mcp.replace(':domain', encodeURIComponent(domain)),
};
/** NOTES §8: `{base_url}/discovery/v2/assistant/{domain}/message`; an empty base URL means same origin. */
export function assistantMessageV2Url(baseUrl: string, domain: string): string {
  return (
    trimBase(baseUrl) + ROUTES.assistantMessageV2.replace(':domain', encodeURIComponent(domain))
  );
}

/** Our feedback operation, beside the message operation under {discovery_url}. */
export function assistantFeedbackUrl(baseUrl: string, domain: string): string {
  return (
    trimBase(baseUrl) + ROUTES.assistantFeedback.replace(':domain', encodeURIComponent(domain))
  );
}

/** Insights paths, relative to {base_url}. */
export const insightsPaths = {
  report: (domain: string, range: { since?: string; until?: string } = {}): string => {
    const query = new URLSearchParams(
      Object.entries(range).filter((entry): entry is [string, string] => !!entry[1]),
    ).toString();
    return (
      ROUTES.insights.replace(':domain', encodeURIComponent(domain)) + (query ? `?${query}` : '')
    );
  },
  thread: (domain: string, threadId: string): string =>
    ROUTES.insightsThread
      .replace(':domain', encodeURIComponent(domain))
      .replace(':threadId', encodeURIComponent(threadId)),
};

/** SPEC §4.2–4.4 paths, relative to {base_url}. */
export const exportPaths = {
  jobs: (): string => ROUTES.exportJobs,
  job: (jobId: string): string => ROUTES.exportJob.replace(':jobId', encodeURIComponent(jobId)),
  bundle: (jobId: string): string =>
    ROUTES.exportBundle.replace(':jobId', encodeURIComponent(jobId)),
  /** The signed download link of this server (the query carries expiry and signature). */
  bundleFile: (jobId: string, query: { expires: number; signature: string }): string =>
    ROUTES.exportBundleFile.replace(':file', encodeURIComponent(jobId) + BUNDLE_FILE_SUFFIX) +
    `?expires=${query.expires}&signature=${encodeURIComponent(query.signature)}`,
};

/** A URL under {base_url}: `baseUrl` without trailing slashes, then `path`. */
export function serviceUrl(baseUrl: string, path: string): string {
  return trimBase(baseUrl) + path;
}
