import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { siteNameOf, type DocsSite } from '../site/docs.js';
import { AGENT_LIMITS, type DocsTools } from './docs-tools.js';

const VERSION = '0.1.0';

/**
 * An MCP server with the docs' two tools. One per HTTP request (the transport is stateless) or one
 * per stdio process; the tools themselves are built once per site.
 */
export function createMcpServer(docs: DocsSite, tools: DocsTools): McpServer {
  const name = siteNameOf(docs);
  const server = new McpServer(
    { name: `${name} docs`, version: VERSION },
    {
      instructions: `Search and read the ${name} documentation. Use search_docs first, then get_page for the pages you need whole.`,
    },
  );

  server.registerTool(
    'search_docs',
    {
      title: `Search the ${name} docs`,
      description:
        `Search the ${name} documentation. Use it whenever a question is about ${name} (its APIs, ` +
        'options, guides, errors) before answering from memory. Returns the best-matching ' +
        'sections, each with its page title path, URL and the passage as Markdown; cite the URL. ' +
        'Use get_page to read a whole page.',
      inputSchema: {
        query: z.string().min(1).max(2000).describe('What to look for, in words or a question.'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(AGENT_LIMITS.maxResults)
          .optional()
          .describe(`How many sections to return (1–${AGENT_LIMITS.maxResults}, default 5).`),
        version: z
          .string()
          .max(100)
          .optional()
          .describe('Only sections of this docs version (e.g. "2"); default the latest.'),
        language: z
          .string()
          .max(35)
          .optional()
          .describe('Only sections in this language (e.g. "fr"); default English.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, limit, version, language }) => {
      const hits = tools.search(query, {
        ...(limit ? { limit } : {}),
        ...(version ? { version } : {}),
        ...(language ? { language } : {}),
      });
      if (!hits.length)
        return {
          content: [{ type: 'text', text: `Nothing in the ${name} docs matches "${query}".` }],
        };
      return {
        content: hits.map((hit) => ({
          type: 'text' as const,
          text: `## ${hit.titlePath}\n${hit.url}\n\n${hit.markdown}`,
        })),
      };
    },
  );

  server.registerTool(
    'get_page',
    {
      title: `Read a ${name} docs page`,
      description:
        `Read one page of the ${name} documentation whole, as Markdown with its title and URL. ` +
        'Use it after search_docs (or for a URL the docs or the user cite) when a passage is not ' +
        'enough. Takes the page path (e.g. "/guides/setup") or the page\u2019s full URL.',
      inputSchema: {
        path: z
          .string()
          .min(1)
          .max(2000)
          .describe('The page path ("/guides/setup") or the page\u2019s full URL.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path }) => {
      const found = tools.page(path);
      if (!found.ok)
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: found.nearest.length
                ? `${found.message} The nearest pages:\n${found.nearest
                    .map((near) => `- ${near.title}: ${near.path} (${near.url})`)
                    .join('\n')}`
                : `${found.message} Use search_docs to find the page.`,
            },
          ],
        };
      const { page } = found;
      return {
        content: [{ type: 'text', text: `URL: ${page.url}\n\n${page.markdown}` }],
      };
    },
  );
  return server;
}
