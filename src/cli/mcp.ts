import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolve } from 'node:path';
import { createDocsTools } from '../server/agents/docs-tools.js';
import { createMcpServer } from '../server/agents/mcp.js';
import { createRetriever } from '../server/answering/retrieval.js';
import { loadDocsSite } from '../server/site/docs.js';
import { servedMarkdownUrls } from '../server/site/page-markdown.js';
import {
  EXIT,
  existingPath,
  stringOption,
  urlOption,
  UsageError,
  type CliIo,
  type OptionValues,
} from './io.js';

export const MCP_USAGE = `Usage: docs-assistant mcp --docs DIR [options]

Runs the docs' MCP server over stdio for a local agent (Claude Code, Cursor, VS Code): the tools
search_docs and get_page over the same index the assistant answers from. No server, no key. The
agent starts this command itself; see docs/agents.md for the config snippets.

Options:
  --docs DIR        Markdown/MDX docs folder (required)
  --site-name NAME  The docs' name in the tools' descriptions (default: found in the docs)
  --docs-url URL    Where the pages are published, for the URLs the tools return
                    (default: http://127.0.0.1:4321/docs, as "docs-assistant serve" shows them)

Exit codes: 0 when the agent closes the connection, 1 on failure, 2 on a usage error.
`;

const DEFAULT_DOCS_URL = 'http://127.0.0.1:4321/docs';

/** Serves the tools until the agent closes stdin (or Ctrl-C). Nothing but protocol goes to stdout. */
export async function runMcp(values: OptionValues, io: CliIo): Promise<number> {
  const given = stringOption(values.docs);
  if (!given) throw new UsageError('mcp needs --docs DIR, the folder of Markdown pages to serve.');
  const dir = existingPath(given, {
    flag: '--docs',
    what: 'Docs folder',
    kind: 'folder',
    expects: 'a folder of Markdown (.md/.mdx) pages, e.g. --docs ./docs',
  });
  const docsUrlFlag = stringOption(values['docs-url']);
  const docsUrl = new URL(docsUrlFlag ? urlOption(docsUrlFlag, '--docs-url') : DEFAULT_DOCS_URL);
  const loaded = await loadDocsSite(resolve(dir));
  const name = stringOption(values['site-name']);
  const docs = name ? { ...loaded, name } : loaded;
  const urls = servedMarkdownUrls(docsUrl.origin, docsUrl.pathname.replace(/\/+$/, ''));
  const server = createMcpServer(
    docs,
    createDocsTools({ docs, retriever: createRetriever(docs) }, urls),
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = done;
    process.stdin.once('end', done);
    io.signal?.addEventListener('abort', () => done(), { once: true });
  });
  await server.connect(transport);
  io.stderr.write(`docs-assistant mcp: ${docs.pages.length} pages of ${dir} on stdio\n`);
  await closed;
  await server.close();
  return EXIT.ok;
}
