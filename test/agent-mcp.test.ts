import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocsClient } from '../src/client/index.js';
import { agentUrls } from '../src/protocol/index.js';
import { demoApp, fastifyDocs, type TestApp } from './helpers/server.js';

const KEY = 'svc_dsc_fastify';

async function fastifyApp(site: { openToAgents?: boolean } = {}, orgPerHour?: number) {
  const docs = await fastifyDocs();
  return demoApp({
    orgs: [
      { id: 'fastify', plan: 'enterprise', keys: [KEY] },
      { id: 'other', plan: 'free', keys: ['svc_dsc_other'] },
    ],
    sites: [{ domain: 'fastify', org: 'fastify', docs, ...site }],
    ...(orgPerHour ? { limits: { orgPerHour } } : {}),
  });
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The SDK's own client, speaking Streamable HTTP to the app in-process. */
/** `null`: no key at all. */
async function connect(app: TestApp, key: string | null = KEY) {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(agentUrls.mcp('http://test', 'fastify')),
    {
      fetch: async (url, init) => app.request(String(url), init),
      ...(key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {}),
    },
  );
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result as CallToolResult).content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');

describe('the MCP server over Streamable HTTP', () => {
  it('lists search_docs and get_page with descriptions that say when to use them', async () => {
    const client = await connect(await fastifyApp());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'search_docs']);
    const search = tools.find((tool) => tool.name === 'search_docs')!;
    expect(search.description).toMatch(/Use it whenever a question is about Fastify/);
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual([
      'language',
      'limit',
      'query',
      'version',
    ]);
    expect(search.inputSchema.required).toEqual(['query']);
  });

  it('searches, then fetches the cited page whole as Markdown', async () => {
    const client = await connect(await fastifyApp());
    const found = await client.callTool({
      name: 'search_docs',
      arguments: { query: 'how do I declare a route with a schema', limit: 3 },
    });
    const results = (found as CallToolResult).content;
    expect(results).toHaveLength(3);
    const first = textOf({ content: [results[0]!] });
    const url = /^https?:\/\/\S+/m.exec(first)![0];
    expect(url).toMatch(/^http:\/\/test\/docs\//);
    const page = await client.callTool({ name: 'get_page', arguments: { path: url } });
    expect(page.isError).toBeFalsy();
    const text = textOf(page);
    expect(text).toContain(`URL: ${url.split('#')[0]}`);
    expect(text).toMatch(/^# /m);
    expect(text.length).toBeGreaterThan(first.length);
  });

  it('answers an unknown page with a tool error that names the nearest pages', async () => {
    const client = await connect(await fastifyApp());
    const result = await client.callTool({
      name: 'get_page',
      arguments: { path: '/Reference/Hook' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('There is no page at "/Reference/Hook"');
    expect(textOf(result)).toContain('/Reference/Hooks');
  });

  it('refuses a limit above 20 through the tool schema', async () => {
    const client = await connect(await fastifyApp());
    const result = await client.callTool({
      name: 'search_docs',
      arguments: { query: 'hooks', limit: 50 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/limit/);
  });

  it('takes the assistant key of the domain’s organisation, and no other', async () => {
    const app = await fastifyApp();
    await expect(connect(app, null)).rejects.toThrow(/"unauthorized"/);
    await expect(connect(app, 'svc_dsc_other')).rejects.toThrow(/another organisation/);
    await expect(connect(app, 'svc_fastify_admin')).rejects.toThrow(/wrong_key_type/);
  });

  it('lets agents in without a key when the owner opens the site to them', async () => {
    const client = await connect(await fastifyApp({ openToAgents: true }), null);
    expect((await client.listTools()).tools).toHaveLength(2);
  });

  it('counts MCP requests against the organisation’s hourly limit', async () => {
    const app = await fastifyApp({}, 15); // one IP's share: 3 an hour
    const client = await connect(app); // initialize + initialized notification: 2 requests
    await client.listTools(); // 3
    await expect(client.listTools()).rejects.toThrow(/429|Too many requests/);
  });
});

describe('the search and page operations', () => {
  const post = (app: TestApp, url: string, body: unknown, key = KEY) =>
    app.request(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('returns sections as Markdown with their path and metadata, best first', async () => {
    const app = await fastifyApp();
    const response = await post(app, agentUrls.search('http://test', 'fastify'), {
      query: 'onRequest hook',
      pageSize: 4,
    });
    expect(response.status).toBe(200);
    const hits = (await response.json()) as {
      content: string;
      path: string;
      metadata: { url: string; score: number; title: string };
    }[];
    expect(hits).toHaveLength(4);
    expect(hits[0]!.path).toBe('/Reference/Hooks');
    expect(hits[0]!.content).toContain('onRequest');
    expect(hits[0]!.metadata.url).toMatch(/^http:\/\/test\/docs\/Reference\/Hooks/);
    expect(hits.map((hit) => hit.metadata.score)).toEqual(
      [...hits.map((hit) => hit.metadata.score)].sort((a, b) => b - a),
    );
  });

  it('rejects a page size above 50 with a clear error', async () => {
    const app = await fastifyApp();
    const response = await post(app, agentUrls.search('http://test', 'fastify'), {
      query: 'hooks',
      pageSize: 51,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/pageSize/);
  });

  it('returns a page as Markdown, and 404 with a message for an unknown one', async () => {
    const app = await fastifyApp();
    const url = agentUrls.page('http://test', 'fastify');
    const response = await post(app, url, { path: '/Reference/Routes' });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { path: string; content: string };
    expect(page.path).toBe('/Reference/Routes');
    expect(page.content).toMatch(/^# Routes/m);
    const missing = await post(app, url, { path: '/Reference/Nope' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toContain('/Reference/Nope');
  });

  it('is reachable through the typed client, which parses what comes back', async () => {
    const app = await fastifyApp();
    const client = createDocsClient({
      baseUrl: 'http://test',
      domain: 'fastify',
      apiKey: KEY,
      fetch: async (url, init) => app.request(String(url), init),
    });
    const hits = await client.search({ query: 'onRequest hook', pageSize: 2 });
    expect(hits).toHaveLength(2);
    const page = await client.page({ path: hits[0]!.path });
    expect(page.content).toContain(hits[0]!.metadata.title.split(' › ')[0]!);
    await expect(client.page({ path: '/nope' })).rejects.toMatchObject({ kind: 'not_found' });
    expect(() =>
      createDocsClient({ baseUrl: 'http://test', domain: 'x', apiKey: 'svc_admin' }),
    ).toThrow(/assistant/);
  });
});
