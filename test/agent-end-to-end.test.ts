import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartValues } from '../src/cli/export.js';
import { agentUrls } from '../src/protocol/index.js';
import { DEMO } from '../src/server/config.js';
import { adminCall, exportApp, unpack } from './helpers/export.js';
import { hostFrom, viaApp } from './helpers/host.js';
import {
  askBody,
  readStream,
  sampleDocs,
  sourcesOf,
  tempDir,
  type TestApp,
} from './helpers/server.js';

/**
 * What an agent does with a docs site, from the agent's side: the SDK's own MCP client against the
 * served site, and llms.txt followed link by link wherever the docs are published.
 */

/** Small enough that the sample docs' llms-full.txt is split by section. */
const FULL_TEXT_MAX_BYTES = 20_000;

/** The page links of an llms.txt, and the llms-full parts its opening names. */
function linksOf(index: string) {
  return {
    pages: [...index.matchAll(/^- \[[^\]]*\]\(([^)]+)\)/gm)].map((match) => match[1]!),
    parts: [...index.matchAll(/(\S*llms-full(?:-\d+)?\.txt)/g)].map((match) => match[1]!),
  };
}

/** Follows every link of the llms.txt at `indexUrl`: each page a 200 text/markdown, each part a 200 text. */
async function followEveryLink(
  get: (url: string) => Response | Promise<Response>,
  indexUrl: string,
) {
  const index = await get(indexUrl);
  expect(index.status, indexUrl).toBe(200);
  expect(index.headers.get('content-type')).toMatch(/^text\/(plain|markdown)/);
  const { pages, parts } = linksOf(await index.text());
  for (const link of pages) {
    const response = await get(new URL(link, indexUrl).href);
    expect(response.status, link).toBe(200);
    expect(response.headers.get('content-type'), link).toMatch(/^text\/markdown/);
    expect(await response.text(), link).toMatch(/^(# |> )/);
  }
  for (const part of parts) {
    const response = await get(new URL(part, indexUrl).href);
    expect(response.status, part).toBe(200);
    expect(await response.text(), part).toContain('\nSource: ');
  }
  return { pages, parts };
}

async function agentOn(app: TestApp) {
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(agentUrls.mcp('http://test', DEMO.domain)), {
      fetch: async (url, init) => app.request(String(url), init),
      requestInit: { headers: { Authorization: `Bearer ${DEMO.assistantKey}` } },
    }),
  );
  return client;
}

const textOf = (result: unknown) =>
  (result as CallToolResult).content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');

describe('an agent reading the docs, end to end', { timeout: 300_000 }, () => {
  it('lists the tools, searches, reads the page the assistant cites, and follows every llms.txt link on the served site', async () => {
    const app = await exportApp({ fullTextMaxBytes: FULL_TEXT_MAX_BYTES });
    const agent = await agentOn(app);
    try {
      const { tools } = await agent.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'search_docs']);

      const found = textOf(
        await agent.callTool({
          name: 'search_docs',
          arguments: { query: 'static export bundle', limit: 3 },
        }),
      );
      const hitUrl = /http:\/\/test\/docs\/[^\s)#]+/.exec(found)?.[0];
      expect(hitUrl).toBeDefined();
      const hitPage = await agent.callTool({ name: 'get_page', arguments: { path: hitUrl! } });
      expect(hitPage.isError).toBeFalsy();
      expect(textOf(hitPage)).toContain(`Source: ${hitUrl}`);

      // The page the assistant cites for a question, read by its citation URL.
      const answer = await readStream(
        await app.request(`http://test/discovery/v1/assistant/${DEMO.domain}/message`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${DEMO.assistantKey}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(askBody('How do I export the docs as a static bundle?')),
        }),
      );
      const cited = sourcesOf(answer)[0]!.url;
      const page = await agent.callTool({ name: 'get_page', arguments: { path: cited } });
      expect(page.isError).toBeFalsy();
      const markdown = textOf(page);
      expect(markdown).toMatch(/\n# \S/);
      expect(markdown).toContain(`Source: ${cited.split('#')[0]}`);
      // The page as the site serves it at its URL plus .md, word for word.
      const served = await app.request(`${cited.split('#')[0]}.md`);
      expect(markdown).toContain(await served.text());
    } finally {
      await agent.close();
    }

    const docs = await sampleDocs();
    for (const index of ['http://test/llms.txt', 'http://test/.well-known/llms.txt']) {
      const { pages, parts } = await followEveryLink((url) => app.request(url), index);
      expect(pages).toHaveLength(docs.pages.length);
      expect(parts.length).toBeGreaterThan(1);
    }
  });

  it('follows every llms.txt link in the exported bundle and on docs-assistant host, in every deployment type', async () => {
    const app = await exportApp({ fullTextMaxBytes: FULL_TEXT_MAX_BYTES });
    const started = await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: DEMO.domain });
    const { jobId } = (await started.json()) as { jobId: string };
    await app.exports.idle();
    const { bundleUrl } = (await (
      await adminCall(app, 'POST', `/v1/static-export/jobs/${jobId}/bundle`)
    ).json()) as { bundleUrl: string };
    const docs = await sampleDocs();

    // The bundle as files: each link is a Markdown file beside its page, from llms.txt and from
    // .well-known/llms.txt alike.
    const dir = await unpack(new Uint8Array(await (await app.request(bundleUrl)).arrayBuffer()));
    for (const indexFile of ['llms.txt', '.well-known/llms.txt']) {
      const { pages, parts } = linksOf(await readFile(join(dir, indexFile), 'utf8'));
      expect(pages).toHaveLength(docs.pages.length);
      expect(parts.length).toBeGreaterThan(1);
      for (const link of [...pages, ...parts]) {
        expect(link, indexFile).not.toMatch(/^[a-z]+:|^\//);
        const file = normalize(join(dirname(join(dir, indexFile)), link));
        expect(file.startsWith(dir), link).toBe(true);
        expect(await readFile(file, 'utf8'), link).toContain('Source: ');
      }
    }
    expect(await readFile(join(dir, 'guides/react.html'), 'utf8')).toContain(
      '<link rel="alternate" type="text/markdown" href="react.md"',
    );

    for (const deployment of [
      'deployment:\n  type: cloud\nassistant:\n  baseUrl: https://api.example.com\n  apiKey: svc_dsc_public\n',
      'deployment:\n  type: client-hosted\nassistant:\n  upstream: http://upstream.test\n',
      'deployment:\n  type: air-gapped\n',
    ]) {
      const host = hostFrom(`${deployment}${chartValues(bundleUrl, undefined)}`, {
        cacheDir: await tempDir(),
        fetch: viaApp(app),
      });
      await host.install();
      const get = (url: string) => host.app.request(url);
      for (const index of ['http://host/llms.txt', 'http://host/.well-known/llms.txt']) {
        const { pages } = await followEveryLink(get, index);
        expect(pages, deployment).toHaveLength(docs.pages.length);
      }
      const page = await get('http://host/guides/react.md');
      expect(await page.text()).toContain('Source: react.html');
      // Its HTML page points agents at it, as the served site's pages do.
      expect((await get('http://host/guides/react')).headers.get('link')).toBe(
        '</guides/react.md>; rel="alternate"; type="text/markdown", </llms.txt>; rel="llms-txt"',
      );
    }
  });
});
