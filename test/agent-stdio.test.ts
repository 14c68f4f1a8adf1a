import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCli } from './helpers/build.js';

const ROOT = resolve(import.meta.dirname, '..');
const FASTIFY = resolve(import.meta.dirname, 'fixtures/corpus/fastify');

const textOf = (result: unknown) =>
  (result as CallToolResult).content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');

describe('docs-assistant mcp over stdio', () => {
  it('gives a local agent the same tools as the server, from a spawned CLI process', async () => {
    const cli = await bundleCli(ROOT, 'docs-assistant-agent-stdio');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--docs', FASTIFY, '--docs-url', 'https://fastify.dev/docs/latest'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'search_docs']);
      const found = await client.callTool({
        name: 'search_docs',
        arguments: { query: 'register a plugin with options' },
      });
      expect((found as CallToolResult).content).toHaveLength(5);
      const url = /^https:\/\/fastify\.dev\/docs\/latest\/\S+/m.exec(textOf(found))![0];
      const page = await client.callTool({ name: 'get_page', arguments: { path: url } });
      expect(page.isError).toBeFalsy();
      expect(textOf(page)).toContain(`URL: ${url.split('#')[0]}`);
      const missing = await client.callTool({ name: 'get_page', arguments: { path: 'Plugin' } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/nearest pages:[\s\S]*\/Reference\/Plugins/);
    } finally {
      await client.close();
    }
  });

  it('says what it needs when --docs is missing, with exit 2', async () => {
    const { runCli } = await import('../src/cli/index.js');
    let err = '';
    const code = await runCli(['mcp'], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (err += text) },
      env: {},
    });
    expect(code).toBe(2);
    expect(err).toContain('--docs DIR');
  });
});
