import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { DEMO } from '../src/server/config.js';
import { createSite } from '../src/server/site/docs.js';
import { captureIo } from './helpers/cli.js';
import { ADMIN, exportApp, unpack } from './helpers/export.js';
import { sampleDocs, tempDir, type TestApp } from './helpers/server.js';

function io(
  app: TestApp,
  env: Record<string, string> = { DOCS_ASSISTANT_ADMIN_KEY: ADMIN },
  tty = false,
) {
  const run = captureIo(env);
  run.io.fetch = ((url: string, init?: RequestInit) => app.request(url, init)) as typeof fetch;
  run.io.stdout.isTTY = tty;
  return run;
}

const args = (...rest: string[]) => [
  'export',
  '--base-url',
  'http://test',
  '--interval-ms',
  '5',
  ...rest,
];

describe('docs-assistant export', () => {
  it('runs an export end to end and writes the bundle and chart values (--json)', async () => {
    const app = await exportApp();
    const dir = await tempDir();
    const run = io(app);
    const code = await runCli(
      args(
        '--domain',
        'demo',
        '--version',
        '2026.11',
        '--out',
        join(dir, 'site.tar.gz'),
        '--values',
        join(dir, 'values.yaml'),
        '--json',
      ),
      run.io,
    );
    expect(run.err).toBe('');
    expect(code).toBe(0);
    const events = run.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; [k: string]: unknown });
    expect(events[0]).toMatchObject({
      event: 'started',
      job: { status: 'queued', domain: 'demo' },
    });
    expect(events.filter((e) => e.event === 'progress').at(-1)).toMatchObject({
      status: 'completed',
      progress: 100,
    });
    const downloaded = events.find((e) => e.event === 'downloaded')!;
    const pages = (await sampleDocs()).pages.length;
    expect(downloaded).toMatchObject({ file: join(dir, 'site.tar.gz'), pages });
    expect((await stat(join(dir, 'site.tar.gz'))).size).toBe(downloaded.sizeBytes);
    const values = await readFile(join(dir, 'values.yaml'), 'utf8');
    expect(values).toBe(
      `staticExport:\n  enabled: true\n  bundleUrl: ${JSON.stringify(downloaded.bundleUrl)}\n  version: "2026.11"\n`,
    );
    expect((await app.request(String(downloaded.bundleUrl))).status).toBe(200);
    expect(await readdir(dir)).toEqual(['site.tar.gz', 'values.yaml']);
  });

  it('exports part of the docs with --paths, root page left out, into a bundle that opens', async () => {
    const app = await exportApp();
    const dir = await tempDir();
    const run = io(app);
    const out = join(dir, 'part.tar.gz');
    const code = await runCli(
      args('--domain', 'demo', '--paths', '/quickstart,/installation', '--out', out),
      run.io,
    );
    expect(run.err).toBe('');
    expect(code).toBe(0);
    const unpacked = await unpack(new Uint8Array(await readFile(out)));
    expect((await readdir(unpacked)).filter((f) => f.endsWith('.html')).sort()).toEqual([
      'index.html',
      'installation.html',
      'quickstart.html',
    ]);
  });

  it('shows a live progress bar on a terminal and plain lines otherwise', async () => {
    const app = await exportApp();
    const dir = await tempDir();
    const tty = io(app, { DOCS_ASSISTANT_ADMIN_KEY: ADMIN }, true);
    expect(await runCli(args('--domain', 'demo', '--out', join(dir, 'a.tar.gz')), tty.io)).toBe(0);
    expect(tty.out).toMatch(/\r\x1b\[2K\[█{24}\] 100% {2}\d+ pages {2}completed/);
    const plain = io(app);
    expect(await runCli(args('--domain', 'tiny', '--out', join(dir, 'b.tar.gz')), plain.io)).toBe(
      0,
    );
    expect(plain.out).not.toContain('\r');
    expect(plain.out).toMatch(/^completed 100% \(1 pages\)$/m);
    expect(plain.out).toMatch(/Saved .*b\.tar\.gz \(\d+ bytes, 1 pages, checked\)/);
  });

  it('shows a job and makes a fresh link', async () => {
    const app = await exportApp();
    const dir = await tempDir();
    const first = io(app);
    await runCli(args('--domain', 'tiny', '--out', join(dir, 'a.tar.gz'), '--json'), first.io);
    const jobId = (JSON.parse(first.out.split('\n')[0]!) as { job: { jobId: string } }).job.jobId;
    const status = io(app);
    expect(await runCli(['export', 'status', jobId, '--base-url', 'http://test'], status.io)).toBe(
      0,
    );
    expect(status.out).toBe(`${jobId} (tiny): completed 100%, 1 page\n`);
    const link = io(app);
    expect(
      await runCli(
        ['export', 'link', jobId, '--base-url', 'http://test', '--values', join(dir, 'v.yaml')],
        link.io,
      ),
    ).toBe(0);
    expect(link.out).toMatch(
      /^http:\/\/test\/v1\/static-export\/bundles\/.+\nExpires at .+ \(\d+ bytes\)\.\n$/,
    );
    expect(await readFile(join(dir, 'v.yaml'), 'utf8')).toContain(link.out.split('\n')[0]);
  });

  it('exits 1 naming the cause for a failed job or a service error', async () => {
    const broken = createSite(
      (await sampleDocs()).pages.slice(0, 1),
      ['/missing.png'],
      await tempDir(),
    );
    const app = await exportApp({
      sites: [
        { domain: 'broken', org: DEMO.org, docs: broken },
        { domain: 'free-site', org: 'free', docs: broken },
      ],
    });
    const failed = io(app);
    expect(
      await runCli(
        args('--domain', 'broken', '--out', join(await tempDir(), 'x.tar.gz')),
        failed.io,
      ),
    ).toBe(1);
    expect(failed.err).toMatch(/^Export se_\w+ failed: The export failed: .*missing\.png/);
    const plan = io(app, { DOCS_ASSISTANT_ADMIN_KEY: 'svc_free_admin' });
    expect(await runCli(args('--domain', 'free-site'), plan.io)).toBe(1);
    expect(plan.err).toContain('(HTTP 403 plan_required)');
    const missingJob = io(app);
    expect(
      await runCli(
        ['export', 'link', 'se_01JD8X3K2M0000000000000000', '--base-url', 'http://test'],
        missingJob.io,
      ),
    ).toBe(1);
    expect(missingJob.err).toContain('(HTTP 404 job_not_found)');
  });

  it('exits 2 for usage errors, with help for each command', async () => {
    const app = await exportApp();
    const cases: [string[], Record<string, string>, RegExp][] = [
      [args(), { DOCS_ASSISTANT_ADMIN_KEY: ADMIN }, /--domain is required/],
      [args('--domain', 'demo'), {}, /Set DOCS_ASSISTANT_ADMIN_KEY/],
      [
        args('--domain', 'demo'),
        { DOCS_ASSISTANT_ADMIN_KEY: DEMO.assistantKey },
        /must be an admin key/,
      ],
      [['export', 'status'], { DOCS_ASSISTANT_ADMIN_KEY: ADMIN }, /needs a job id/],
      [['export', 'frob'], { DOCS_ASSISTANT_ADMIN_KEY: ADMIN }, /Unknown export command/],
      [
        args('--domain', 'demo', '--otu', 'x.tgz'),
        { DOCS_ASSISTANT_ADMIN_KEY: ADMIN },
        /^Unknown option --otu\. Did you mean --out\?/,
      ],
      [
        args('--domain', 'demo', '--values', '/no/such/dir/values.yaml'),
        { DOCS_ASSISTANT_ADMIN_KEY: ADMIN },
        /The folder for --values does not exist: \/no\/such\/dir\n/,
      ],
      [
        args('--domain', 'demo', '--admin-key', 'x'),
        { DOCS_ASSISTANT_ADMIN_KEY: ADMIN },
        /^Unknown option --admin-key\.\n/,
      ],
    ];
    for (const [argv, env, message] of cases) {
      const run = io(app, env);
      expect(await runCli(argv, run.io), argv.join(' ')).toBe(2);
      expect(run.err).toMatch(message);
    }
    for (const [argv, heading] of [
      [['export', '--help'], 'Usage: docs-assistant export --domain'],
      [['export', 'status', '--help'], 'Usage: docs-assistant export status'],
      [['export', 'link', '--help'], 'Usage: docs-assistant export link'],
    ] as const) {
      const run = io(app);
      expect(await runCli([...argv], run.io)).toBe(0);
      expect(run.out.startsWith(heading)).toBe(true);
    }
  });

  it('stops polling on Ctrl-C and prints the job id to resume with', async () => {
    const app = await exportApp();
    // Queue two jobs of one domain: the second waits, so the CLI is polling when interrupted.
    const run = io(app);
    const blocker = io(app);
    const first = runCli(
      args('--domain', 'demo', '--out', join(await tempDir(), 'b.tar.gz')),
      blocker.io,
    );
    const second = runCli(
      args('--domain', 'demo', '--out', join(await tempDir(), 'c.tar.gz')),
      run.io,
    );
    await run.waitFor(/Started export (se_\w+)/);
    run.interrupt();
    expect(await second).toBe(130);
    const [, jobId] = run.out.match(/Started export (se_\w+)/)!;
    expect(run.err).toContain(`docs-assistant export status ${jobId}`);
    expect(await first).toBe(0);
    await app.exports.idle();
  });
});
