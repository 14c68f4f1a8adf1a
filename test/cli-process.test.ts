import { execFile, spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { unpack } from './helpers/export.js';
import { buildCli } from './helpers/build.js';
import { tempDir } from './helpers/server.js';

const ROOT = resolve(import.meta.dirname, '..');
/** bin/docs-assistant.js beside a private build of dist/ (test/helpers/build.ts). */
let bin: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real `docs-assistant` binary as a user runs it: its exit code and both streams. */
function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Promise<Run>((done) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env } },
      (error, stdout, stderr) =>
        done({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe('docs-assistant as a real process', () => {
  beforeAll(async () => {
    bin = (await buildCli('docs-assistant-cli-process')).bin;
  });

  it('names the option a typo meant, with exit 2 and a pointer to --help', async () => {
    const typo = await cli(['serve', '--prot', '4802']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'Unknown option --prot. Did you mean --port?\n\nRun "docs-assistant serve --help" for its options.\n',
    );
    const unrelated = await cli(['serve', '--nope']);
    expect(unrelated.code).toBe(2);
    expect(unrelated.stderr).toMatch(/^Unknown option --nope\.\n/);
    expect(unrelated.stderr).not.toContain('Did you mean');
  });

  it('says which user-supplied path is missing and what the flag expects', async () => {
    const docs = await cli(['serve', '--docs', '/no/such/dir', '--port', '0']);
    expect(docs.code).toBe(2);
    expect(docs.stderr).toContain('Docs folder not found: /no/such/dir\n');
    expect(docs.stderr).toContain('--docs expects a folder of Markdown (.md/.mdx) pages');
    expect(docs.stderr).not.toContain('ENOENT');

    const dir = await tempDir();
    const values = await cli(['host', '--values', 'nope.yaml', '--port', '0'], { cwd: dir });
    expect(values.code).toBe(2);
    expect(values.stderr).toContain(`Values file not found: ${join(dir, 'nope.yaml')}\n`);
    expect(values.stderr).toContain('--values expects the chart values YAML');
    expect(values.stderr).not.toContain('ENOENT');

    const cache = await cli(['host', '--cache', bin, '--port', '0']);
    expect(cache.code).toBe(2);
    expect(cache.stderr).toContain(`Cannot use ${bin} as the cache folder (EEXIST)`);
    expect(cache.stderr).toContain('--cache expects a folder');

    const out = await cli(['export', '--domain', 'demo', '--out', join(dir, 'missing', 'b.tgz')], {
      env: { DOCS_ASSISTANT_ADMIN_KEY: DEMO.adminKey },
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`The folder for --out does not exist: ${join(dir, 'missing')}\n`);
  });

  it('suggests starting the server or --base-url when nothing answers', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const run = await cli(
      [
        'export',
        '--domain',
        'demo',
        '--base-url',
        baseUrl,
        '--out',
        join(await tempDir(), 'b.tgz'),
      ],
      { env: { DOCS_ASSISTANT_ADMIN_KEY: DEMO.adminKey } },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Could not reach ${baseUrl}`);
    expect(run.stderr).toContain(
      `Is the docs-assistant server running at ${baseUrl}? Start it with "docs-assistant serve", or pass --base-url`,
    );
  });

  it('exports from a real docs-assistant serve on a free port', async () => {
    const data = await tempDir();
    const server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data', data], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /running at (http:\/\/[\d.:]+)\//.exec(out);
          if (match) done(match[1]!);
        });
        server.on('exit', (code) => fail(new Error(`serve exited with ${code}`)));
      });
      const dir = await tempDir();
      const exportArgs = ['export', '--domain', 'demo', '--base-url', url, '--interval-ms', '50'];
      const env = { DOCS_ASSISTANT_ADMIN_KEY: DEMO.adminKey };
      // No --out: bundle.tar.gz in the working folder.
      const first = await cli([...exportArgs, '--values', join(dir, 'values.yaml')], {
        cwd: dir,
        env,
      });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/Saved .*bundle\.tar\.gz \(\d+ bytes, \d+ pages, checked\)/);
      expect(
        await readFile(join(await unpack(join(dir, 'bundle.tar.gz')), 'script-tag.html'), 'utf8'),
      ).toContain('<h1 id="the-script-tag">The script tag</h1>');
      expect(await readFile(join(dir, 'values.yaml'), 'utf8')).toMatch(
        new RegExp(`bundleUrl: "${url}/v1/static-export/bundles/se_`),
      );

      // A second run keeps the first bundle unless told otherwise, and starts no job.
      await writeFile(join(dir, 'bundle.tar.gz'), 'last release');
      const again = await cli(exportArgs, { cwd: dir, env });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(
        `${join(dir, 'bundle.tar.gz')} already exists; nothing was started. Pass --force to overwrite it`,
      );
      expect(again.stdout).toBe('');
      expect(await readFile(join(dir, 'bundle.tar.gz'), 'utf8')).toBe('last release');
      const forced = await cli([...exportArgs, '--force'], { cwd: dir, env });
      expect(forced.code).toBe(0);
      expect((await stat(join(dir, 'bundle.tar.gz'))).size).toBeGreaterThan(1000);

      // A key the server does not know: said in terms of the variable, never the key itself.
      const wrongKey = 'svc_not_this_servers_admin';
      const refused = await cli([...exportArgs, '--out', join(dir, 'x.tgz')], {
        cwd: dir,
        env: { DOCS_ASSISTANT_ADMIN_KEY: wrongKey },
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `The server at ${url} refused the admin key read from DOCS_ASSISTANT_ADMIN_KEY (HTTP 401 unauthorized)\n` +
          'Set DOCS_ASSISTANT_ADMIN_KEY to an admin key of the organisation that owns this domain on that server.\n',
      );
      expect(refused.stderr).not.toContain(wrongKey);
    } finally {
      server.kill('SIGINT');
    }
  });
});
