import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { createApp } from '../src/server/http/app.js';
import { createSite, parsePage } from '../src/server/site/docs.js';
import { siteReader } from '../src/server/site/watch.js';
import { startWorkers } from './helpers/build.js';
import { captureIo } from './helpers/cli.js';
import { askBody, readStream, searchResultsOf, tempDir, textOf } from './helpers/server.js';

const KEY = 'svc_dsc_watch';

/** `serve --watch` on `args` (a --docs or --site folder), with helpers to ask, search and fetch pages. */
async function watchedServer(args: string[]) {
  const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: KEY });
  const exit = runCli(
    ['serve', ...args, '--watch', '--domain', 'acme', '--port', '0', '--data', await tempDir()],
    run.io,
  );
  const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
  const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` };
  return {
    run,
    page: (path: string) => fetch(`${url}/docs${path}`),
    ask: async (question: string) => {
      const response = await fetch(`${url}/discovery/v1/assistant/acme/message`, {
        method: 'POST',
        headers,
        body: JSON.stringify(askBody(question)),
      });
      return readStream(response);
    },
    search: async (query: string) => {
      const response = await fetch(`${url}/discovery/v1/search/acme`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as { path: string; content: string }[];
    },
    /** Runs `edit`, then waits for the re-index line it causes and returns it. */
    async edited(edit: () => Promise<unknown>): Promise<string> {
      const from = run.out.length;
      await edit();
      return (await run.waitFor(/Re-indexed [^\n]*/, from))[0];
    },
    /** Runs `edit`, then waits on re-index lines until the page at `path` shows `text`. */
    async editedUntil(edit: () => Promise<unknown>, path: string, text: string): Promise<void> {
      let at = run.out.length;
      await edit();
      for (;;) {
        const line = await run.waitFor(/Re-indexed [^\n]*\n/, at);
        at += line.index! + line[0].length;
        if ((await (await fetch(`${url}/docs${path}`)).text()).includes(text)) return;
      }
    },
    stop: async () => {
      run.interrupt();
      return exit;
    },
  };
}

describe('serve --watch', () => {
  it('serves an edited, an added and a removed Markdown page as they are now, and logs each re-index', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.md'), '# Acme Gauges\n\nGauges for dashboards.\n');
    await writeFile(
      join(dir, 'install.md'),
      '# Install\n\nInstall the gauges with npm install acme-gauges.\n',
    );
    const server = await watchedServer(['--docs', dir]);
    try {
      expect(await (await server.page('/install')).text()).not.toContain('pnpm');

      const line = await server.edited(() =>
        writeFile(
          join(dir, 'install.md'),
          '# Install\n\nInstall the gauges with pnpm add acme-gauges, then restart the dev server.\n',
        ),
      );
      expect(line).toMatch(/^Re-indexed 1 page in \d+ ms: install\.md changed\.$/);
      expect(await (await server.page('/install')).text()).toContain('pnpm add acme-gauges');
      expect(textOf(await server.ask('How do I install the gauges with pnpm?'))).toContain(
        'pnpm add acme-gauges',
      );
      expect((await server.search('pnpm'))[0]?.content).toContain('pnpm add acme-gauges');

      expect(
        await server.edited(async () => {
          await mkdir(join(dir, 'guides'));
          await writeFile(
            join(dir, 'guides', 'themes.md'),
            '# Themes\n\nA gauge takes its colours from the theme prop: dark or light.\n',
          );
        }),
      ).toMatch(/Re-indexed 1 page .*guides\/themes\.md added/);
      expect((await server.page('/guides/themes')).status).toBe(200);
      expect(
        searchResultsOf(await server.ask('Which theme colours can a gauge take?'))[0]?.path,
      ).toBe('/guides/themes');

      expect(await server.edited(() => rm(join(dir, 'install.md')))).toMatch(
        /Re-indexed 1 page .*install\.md removed/,
      );
      expect((await server.page('/install')).status).toBe(404);
      expect((await server.search('pnpm')).map((hit) => hit.path)).not.toContain('/install');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("offers the docs' starter questions as they are after an edit", async () => {
    // What --watch does on an edit (app.replaceDocs, as the CLI calls it), on an app with built
    // assets so the /docs pages carry the script tag and its starters: a fresh clone has no dist/.
    const assetsDir = await tempDir();
    await mkdir(join(assetsDir, 'embed'), { recursive: true });
    await writeFile(join(assetsDir, 'embed', 'docs-assistant.js'), '');
    const root = (starters: string[]) =>
      createSite(
        [
          parsePage(
            'index.md',
            `---\nstarters:\n${starters.map((q) => `  - ${q}\n`).join('')}---\n\n# Acme Gauges\n\nGauges for dashboards.\n`,
          ),
        ],
        [],
        undefined,
      );
    const app = createApp({
      orgs: [{ id: 'acme', plan: 'free', keys: [KEY] }],
      sites: [{ domain: 'acme', org: 'acme', docs: root(['How do I install the gauges?']) }],
      assetsDir,
    });
    const startersOnPage = async () =>
      /data-starter-questions="([^"]*)"/.exec(
        await (await app.request('http://test/docs/')).text(),
      )?.[1];
    expect(await startersOnPage()).toBe('How do I install the gauges?');
    app.replaceDocs('acme', root(['Which themes are there?', 'Can a gauge blink?']));
    expect(await startersOnPage()).toBe('Which themes are there?|Can a gauge blink?');
    await app.close();
  });

  it('re-reads a built site: an edited HTML page is served and cited as rebuilt', async () => {
    const dir = join(await tempDir(), 'build');
    await cp('e2e/sites/sphinx/build', dir, { recursive: true });
    const server = await watchedServer(['--site', dir, '--public-url', 'https://docs.acme.dev']);
    try {
      const file = join(dir, 'getting-started.html');
      const html = await readFile(file, 'utf8');
      expect(
        await server.edited(() =>
          writeFile(
            file,
            html.replace(
              'Install the package with npm.',
              'Install the package with Yarn Berry (yarn add acme-widgets).',
            ),
          ),
        ),
      ).toMatch(/Re-indexed 1 page .*getting-started\.html changed/);
      expect(await (await server.page('/getting-started')).text()).toContain('Yarn Berry');
      const parts = await server.ask('Can I install Acme Widgets with Yarn Berry?');
      expect(textOf(parts)).toContain('Yarn Berry');
      expect(searchResultsOf(parts).map((hit) => hit.url)).toContain(
        'https://docs.acme.dev/getting-started.html#install',
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('follows a clean rebuild that deletes the output folder and writes it again', async () => {
    const dir = join(await tempDir(), 'build');
    await cp('e2e/sites/mkdocs/site', dir, { recursive: true });
    const server = await watchedServer(['--site', dir]);
    try {
      const file = join(dir, 'getting-started', 'index.html');
      const html = await readFile(file, 'utf8');
      // The first read may come mid-copy: wait on re-index lines until the rebuilt page is served.
      await server.editedUntil(
        async () => {
          await rm(dir, { recursive: true });
          await cp('e2e/sites/mkdocs/site', dir, { recursive: true });
          await writeFile(
            file,
            html.replace('Install the package with npm.', 'Install it with Bun.'),
          );
        },
        '/getting-started/',
        'Install it with Bun.',
      );
      // The new folder is watched: a later edit is seen too.
      expect(
        await server.edited(() =>
          writeFile(file, html.replace('Install the package with npm.', 'Install it with Deno.')),
        ),
      ).toMatch(/Re-indexed 1 page/);
      expect(await (await server.page('/getting-started/')).text()).toContain(
        'Install it with Deno.',
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('keeps serving the pages it has when a re-read fails, and says why', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.md'), '# Acme\n\nGauges for dashboards.\n');
    const server = await watchedServer(['--docs', dir]);
    try {
      const from = server.run.err.length;
      await rm(join(dir, 'index.md'));
      await new Promise<void>((done) => {
        const check = () =>
          server.run.err.slice(from).includes('Kept the pages already served')
            ? done()
            : setTimeout(check, 20);
        check();
      });
      expect(server.run.err.slice(from)).toMatch(
        /Kept the pages already served: No Markdown pages \(\.md or \.mdx\) found in /,
      );
      expect((await server.page('/')).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('re-reads in every worker of --workers, so each one serves the edit', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.md'), '# Acme Gauges\n\nGauges for dashboards.\n');
    const server = await startWorkers(
      'docs-assistant-watch-test',
      ['--docs', dir, '--watch', '--domain', 'acme', '--data', await tempDir()],
      { ...process.env, DOCS_ASSISTANT_SERVER_KEYS: KEY },
    );
    const { url, waitFor } = server;
    try {
      // Each worker watches before it listens; the primary says "running" once both listen.
      await writeFile(
        join(dir, 'index.md'),
        '# Acme Gauges\n\nGauges for dashboards and kiosks.\n',
      );
      await waitFor(/(Re-indexed 1 page [^\n]*\(worker \d+\)\n[^]*){2}/);
      // Connections go round-robin: several requests reach both workers.
      for (let i = 0; i < 4; i++)
        expect(
          await (await fetch(`${url}/docs/`, { headers: { Connection: 'close' } })).text(),
        ).toContain('kiosks');
    } finally {
      await server.stop('SIGINT');
    }
  });

  it('says --watch needs a folder to watch', async () => {
    const run = captureIo();
    expect(await runCli(['serve', '--watch', '--port', '0'], run.io)).toBe(2);
    expect(run.err).toContain('--watch re-reads the folder of --docs or --site');
  });
});

describe('replacing the docs a server answers from', () => {
  it('lets an answer already streaming end from the pages it began with', async () => {
    const page = (text: string) =>
      createSite([parsePage('install.md', `# Install\n\n${text}\n`)], [], undefined);
    const app = createApp({
      orgs: [{ id: 'acme', plan: 'free', keys: [KEY] }],
      sites: [
        {
          domain: 'acme',
          org: 'acme',
          docs: page(
            'Install the gauges with npm install acme-gauges. Each gauge then needs a theme, a range and a label before it renders anything on the dashboard.',
          ),
        },
      ],
      chunkDelayMs: 5,
    });
    const ask = (question: string) =>
      app.request('http://test/discovery/v1/assistant/acme/message', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` },
        body: JSON.stringify(askBody(question)),
      });
    const response = await ask('How do I install the gauges?');
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);

    app.replaceDocs('acme', page('Gauges are installed by the platform team; nothing to do.'));

    const rest: Uint8Array[] = [first.value!];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest.push(chunk.value);
    // Text still came after the swap: the answer was in flight, not already written.
    expect(Buffer.concat(rest.slice(1)).toString()).toMatch(/^0:/m);
    const parts = await readStream(new Response(Buffer.concat(rest)));
    expect(textOf(parts)).toContain('npm install acme-gauges');
    expect(parts.some((part) => part.type === 'finish_message')).toBe(true);
    expect(parts.some((part) => part.type === 'error')).toBe(false);

    const after = await readStream(await ask('How do I install the gauges?'));
    expect(textOf(after)).toContain('platform team');
    await app.close();
  });
});

describe('a re-read of a docs folder', () => {
  it('parses only the pages whose files changed', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.md'), '# A\n\nFirst.\n');
    await writeFile(join(dir, 'b.md'), '# B\n\nSecond.\n');
    const reader = siteReader({ kind: 'docs', dir });
    const first = await reader.read();
    await writeFile(join(dir, 'b.md'), '# B\n\nSecond, edited.\n');
    const second = await reader.read();
    expect(second.changed).toEqual(['b.md']);
    expect(second.site.byPath.get('/a')).toBe(first.site.byPath.get('/a'));
    expect(second.site.byPath.get('/b')?.markdown).toContain('edited');
  });
});
