import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { pageRequestSchema, ROUTES, searchRequestSchema } from '../../../protocol/index.js';
import { createDocsTools, type DocsTools } from '../../agents/docs-tools.js';
import { createMcpServer } from '../../agents/mcp.js';
import type { Retriever } from '../../answering/retrieval.js';
import type { DocsSite } from '../../site/docs.js';
import type { MarkdownUrls } from '../../site/page-markdown.js';
import { authenticate, otherOrganisation, unknownDomain, type Org } from '../auth.js';
import { errorResponse, jsonBody, validJson } from '../middleware.js';
import { assistantLimits, type AssistantLimiters } from '../rate-limit.js';

/** A configured docs site as agents reach it. */
export interface AgentSite {
  domain: string;
  org: string;
  docs: DocsSite;
  retriever: Retriever;
  /** Open to agents without a key (a public docs site, by its owner's choice). */
  openToAgents?: boolean | undefined;
}

export interface AgentRouteDeps {
  orgByKey: Map<string, Org>;
  site(domain: string): AgentSite | undefined;
  limiters: AssistantLimiters;
  trustProxy: boolean | number;
  now: () => number;
  maxBodyBytes: number;
  /** Where the site's pages and their Markdown are, for the links the tools return. */
  markdownUrls(c: Context, site: AgentSite): MarkdownUrls;
}

type AgentEnv = { Variables: { ip: string; site: AgentSite; tools: DocsTools } };

/**
 * What agents use: the MCP server and the live service's search and page operations. The same
 * checks as the assistant operation: the assistant key of the domain's organisation (or none on a
 * site open to agents), the same per-IP and per-organisation limits, the same language and version
 * rules (the retriever's).
 */
export function agentRoutes(deps: AgentRouteDeps) {
  const { now } = deps;
  const app = new Hono<AgentEnv>();

  const siteAccess = createMiddleware<AgentEnv>(async (c, next) => {
    const domain = c.req.param('domain') ?? '';
    const site = deps.site(domain);
    if (!site) return unknownDomain(domain);
    const header = c.req.header('authorization');
    if (!(site.openToAgents && !header)) {
      const auth = authenticate(header, deps.orgByKey, 'assistant');
      if (!auth.ok) return auth.response;
      if (auth.org.id !== site.org) return otherOrganisation();
    }
    c.set('site', site);
    c.set('tools', createDocsTools(site, deps.markdownUrls(c, site)));
    await next();
  });
  const limits = assistantLimits(deps.limiters, deps.trustProxy, now);
  const checks = [limits.ip, siteAccess, limits.ipOrg, limits.org] as const;

  app.post(
    ROUTES.search,
    ...checks,
    jsonBody(deps.maxBodyBytes),
    validJson(searchRequestSchema),
    (c) => {
      const { query, pageSize, scoreThreshold, filter } = c.req.valid('json');
      const hits = c.var.tools.search(query, {
        limit: pageSize,
        ...(filter?.version ? { version: filter.version } : {}),
        ...(filter?.language ? { language: filter.language } : {}),
      });
      const best = hits[0]?.score ?? 0;
      return c.json(
        hits
          .filter((hit) => !scoreThreshold || (best > 0 && hit.score / best >= scoreThreshold))
          .map((hit) => ({
            content: hit.markdown,
            path: hit.path,
            metadata: {
              title: hit.titlePath,
              url: hit.url,
              score: best > 0 ? Math.round((hit.score / best) * 1000) / 1000 : 0,
              ...(hit.version ? { version: hit.version } : {}),
              language: hit.language,
            },
          })),
      );
    },
  );

  app.post(
    ROUTES.page,
    ...checks,
    jsonBody(deps.maxBodyBytes),
    validJson(pageRequestSchema),
    (c) => {
      const found = c.var.tools.page(c.req.valid('json').path);
      if (!found.ok) {
        const near = found.nearest.map((page) => page.path).join(', ');
        return errorResponse(
          'not_found',
          near ? `${found.message} The nearest pages: ${near}.` : found.message,
        );
      }
      return c.json({ path: found.page.path, content: found.page.markdown });
    },
  );

  // Stateless Streamable HTTP: each POST is a whole exchange, answered as JSON, so any number of
  // server processes can answer and nothing is kept between requests. There is no server-initiated
  // stream to open with GET.
  app.post(ROUTES.mcp, ...checks, async (c) => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: deps.maxBodyBytes,
    });
    const server = createMcpServer(c.var.site.docs, c.var.tools);
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      void server.close();
    }
  });
  app.on(['GET', 'DELETE'], ROUTES.mcp, (c) =>
    c.json(
      {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'This MCP server is stateless: send requests with POST.' },
        id: null,
      },
      405,
      { Allow: 'POST' },
    ),
  );
  return app;
}
