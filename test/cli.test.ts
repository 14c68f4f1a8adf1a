import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { DEMO } from '../src/server/config.js';
import { captureIo } from './helpers/cli.js';
import { askBody, readStream, sourcesOf, tempDir } from './helpers/server.js';

describe('docs-assistant CLI', () => {
  it('lists its commands on --help and exits 2 on an unknown command', async () => {
    const help = captureIo();
    expect(await runCli(['--help'], help.io)).toBe(0);
    expect(help.out).toMatch(/serve\s+Run the reference server/);
    const unknown = captureIo();
    expect(await runCli(['frobnicate'], unknown.io)).toBe(2);
    expect(unknown.err).toContain('Unknown command "frobnicate"');
    expect(unknown.err).not.toContain('Did you mean');
    const typo = captureIo();
    expect(await runCli(['serv', '--port', '0'], typo.io)).toBe(2);
    expect(typo.err).toMatch(/^Unknown command "serv"\. Did you mean "serve"\?\n/);
    const none = captureIo();
    expect(await runCli([], none.io)).toBe(2);
  });

  it("explains serve's options and rejects bad ones with exit 2", async () => {
    const help = captureIo();
    expect(await runCli(['serve', '--help'], help.io)).toBe(0);
    expect(help.out).toContain('--upstream URL');
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--nope'],
      ['--upstream', 'ftp://x'],
      ['--domain', '../x'],
    ]) {
      const run = captureIo();
      expect(await runCli(['serve', ...args], run.io), args.join(' ')).toBe(2);
      expect(run.err).not.toBe('');
    }
  });

  it('suggests the option a typo meant only when it is close', async () => {
    for (const [typed, meant] of [
      ['--prot', '--port'],
      ['--domian', '--domain'],
      ['--llm-modle', '--llm-model'],
      ['--docs-dir', undefined],
      ['--nope', undefined],
      ['-x', undefined],
    ] as const) {
      const run = captureIo();
      expect(await runCli(['serve', typed, 'x'], run.io), typed).toBe(2);
      expect(run.err.split('\n')[0]).toBe(
        `Unknown option ${typed}.${meant ? ` Did you mean ${meant}?` : ''}`,
      );
    }
    const missing = captureIo();
    expect(await runCli(['serve', '--port'], missing.io)).toBe(2);
    expect(missing.err).toMatch(/^--port needs a value\.\n/);
  });

  it('says a --docs path or --config file is missing or of the wrong kind', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.md'), '# Hello');
    await writeFile(
      join(dir, 'sites.json'),
      JSON.stringify({
        orgs: [{ id: 'a', keys: ['svc_dsc_a'] }],
        sites: [{ domain: 'a', org: 'a', docs: 'gone' }],
      }),
    );
    for (const [args, message] of [
      [
        ['--config', join(dir, 'sites.json')],
        `site a: docs folder not found: ${join(dir, 'gone')}`,
      ],
      [['--docs', join(dir, 'nope')], `Docs folder not found: ${join(dir, 'nope')}\n`],
      [['--docs', join(dir, 'index.md')], `${join(dir, 'index.md')} is a file, not a folder.\n`],
      [
        ['--config', join(dir, 'other.json')],
        `Config file not found: ${join(dir, 'other.json')}\n`,
      ],
    ]) {
      const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_x' });
      expect(await runCli(['serve', ...args!, '--port', '0'], run.io)).toBe(2);
      expect(run.err).toContain(message);
    }
  });

  it('refuses to serve another docs folder without its own keys', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.md'), '# Hello\n\nSome docs.');
    const run = captureIo({});
    expect(await runCli(['serve', '--docs', dir, '--port', '0'], run.io)).toBe(2);
    expect(run.err).toContain('DOCS_ASSISTANT_SERVER_KEYS');
  });

  it('refuses an admin key as the upstream key', async () => {
    const run = captureIo({ DOCS_ASSISTANT_UPSTREAM_KEY: 'svc_secret_admin' });
    expect(
      await runCli(['serve', '--upstream', 'https://api.example.com', '--port', '0'], run.io),
    ).toBe(1);
    expect(run.err).toContain('must be an assistant key');
  });

  it("serves docs-assistant's own docs by default over real HTTP on a free port and stops on Ctrl-C", async () => {
    const data = await tempDir();
    const run = captureIo();
    const exit = runCli(['serve', '--port', '0', '--data', data], run.io);
    const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
    expect(run.out).toContain(`assistant ${DEMO.assistantKey} · admin ${DEMO.adminKey}`);
    const response = await fetch(`${url}/discovery/v1/assistant/demo/message`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO.assistantKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(askBody('What does the data-offset attribute do?')),
    });
    expect(response.status).toBe(200);
    const sources = sourcesOf(await readStream(response));
    expect(sources[0]!.url).toBe(`${url}/docs/script-tag`);
    expect((await fetch(sources[0]!.url)).status).toBe(200);
    run.interrupt();
    expect(await exit).toBe(0);
    expect(run.out).toContain('Server stopped.');
  });

  it('serves a folder with keys from DOCS_ASSISTANT_SERVER_KEYS and reports a busy port', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'guides'));
    await writeFile(
      join(dir, 'guides', 'rockets.mdx'),
      '---\ntitle: Rockets\n---\nimport X from "y"\n\n# Rockets\n\nRockets need fuel to reach orbit.\n',
    );
    const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_space, svc_space_admin' });
    const exit = runCli(
      ['serve', '--docs', dir, '--domain', 'space', '--port', '0', '--data', await tempDir()],
      run.io,
    );
    const [, url, port] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:(\d+))\//);
    const ask = (key: string) =>
      fetch(`${url}/discovery/v1/assistant/space/message`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(askBody('What do rockets need?')),
      });
    const answer = await ask('svc_dsc_space');
    expect(answer.status).toBe(200);
    expect(sourcesOf(await readStream(answer))[0]).toMatchObject({
      id: '/guides/rockets',
      title: 'Rockets',
    });
    expect((await ask(DEMO.assistantKey)).status).toBe(401);
    const busy = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_space' });
    expect(await runCli(['serve', '--docs', dir, '--port', port!], busy.io)).toBe(1);
    expect(busy.err).toContain('already in use');
    // Said before the docs are read: no line about pages parsed.
    expect(busy.out).not.toContain('parsed');
    run.interrupt();
    expect(await exit).toBe(0);
  });
  it('opens the MCP server and search to agents without a key only with --open-to-agents', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.md'), '# Rockets\n\nRockets need fuel to reach orbit.\n');
    const search = (url: string) =>
      fetch(`${url}/discovery/v1/search/space`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: 'fuel' }),
      });
    for (const open of [false, true]) {
      const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_space' });
      const args = ['serve', '--docs', dir, '--domain', 'space', '--port', '0'];
      const exit = runCli(
        [...args, '--data', await tempDir(), ...(open ? ['--open-to-agents'] : [])],
        run.io,
      );
      const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
      expect(run.out).toContain(
        `MCP for agents:  ${url}/mcp/space (${open ? 'open: no key needed' : 'with the assistant key'})`,
      );
      const response = await search(url!);
      expect(response.status, `open: ${open}`).toBe(open ? 200 : 401);
      if (open) expect((await response.json())[0].content).toContain('Rockets need fuel');
      run.interrupt();
      expect(await exit).toBe(0);
    }
    const help = captureIo();
    await runCli(['serve', '--help'], help.io);
    expect(help.out).toMatch(/--open-to-agents\s+Let AI agents use this site's MCP server/);
    const withConfig = captureIo();
    expect(await runCli(['serve', '--config', 'x.json', '--open-to-agents'], withConfig.io)).toBe(
      2,
    );
    expect(withConfig.err).toContain('"openToAgents": true on each public site');
  });
});
