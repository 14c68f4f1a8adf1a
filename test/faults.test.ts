import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { bundleCli } from './helpers/build.js';
import { askBody, tempDir, userMessage } from './helpers/server.js';

/**
 * Faults against real server processes: kill -9 mid-answer and mid-export, a data folder that
 * cannot be written (at start and while running), then a restart on the same folder. What a
 * client was told must still be true afterwards, and nothing half-written may remain.
 */
const ROOT = join(import.meta.dirname, '..');
let cli: string;
const KEYS = `${DEMO.assistantKey},${DEMO.adminKey}`;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  // One bundled file of the real CLI: the same code `docs-assistant serve` runs.
  cli = await bundleCli(ROOT, 'docs-assistant-faults');
});

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

interface Server {
  url: string;
  child: ChildProcess;
  pid: number;
  output(): string;
}

/** Starts `serve` and resolves once it says it is running; rejects with its output if it exits first. */
function serve(args: string[]): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      cli,
      'serve',
      '--port',
      '0',
      '--docs',
      join(ROOT, 'test', 'fixtures', 'sample-docs'),
      '--domain',
      DEMO.domain,
      ...args,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DOCS_ASSISTANT_SERVER_KEYS: KEYS },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((done, fail) => {
    child.stdout!.on('data', () => {
      const match = /running at (http:\/\/[\d.:]+)\//.exec(out);
      if (match) done({ url: match[1]!, child, pid: child.pid!, output: () => out });
    });
    child.on('exit', (code) => {
      running.delete(child);
      fail(Object.assign(new Error(`serve exited with ${code}: ${out}`), { code, out }));
    });
  });
}

async function kill9(server: Server): Promise<void> {
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGKILL');
  await exited;
  running.delete(server.child);
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGINT');
  await exited;
  running.delete(server.child);
}

const ask = (server: Server, body: unknown) =>
  fetch(`${server.url}/discovery/v1/assistant/${DEMO.domain}/message`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${DEMO.assistantKey}` },
    body: JSON.stringify(body),
  });

const admin = (server: Server, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${DEMO.adminKey}`,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

/** Every file and folder under `dir`, relative. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

/** A missing tool skips a test here, but fails it under CI, which installs the tools (.ci/run). */
function unavailable(context: { skip(note?: string): void }, message: string): void {
  if (process.env.CI) throw new Error(message);
  context.skip(message);
}

const leftovers = (paths: string[]) =>
  paths.filter((p) => /\.tmp$|\.partial$|\.new$|(^|\/)site(\/|$)/.test(p));

describe('kill -9 and restart', () => {
  it('keeps every thread whose id was sent, even when the server dies mid-answer', async () => {
    const data = await tempDir();
    const first = await serve(['--data', data, '--chunk-delay-ms', '300']);
    const response = await ask(first, {
      fp: 'reader',
      messages: [userMessage('How do I install it?')],
    });
    const threadId = response.headers.get('x-thread-id')!;
    expect(threadId).toMatch(/^[0-9A-Z]{26}$/);
    // The answer has started streaming: kill the process in the middle of it.
    const reader = response.body!.getReader();
    await reader.read();
    await kill9(first);
    await reader.read().catch(() => {});

    const second = await serve(['--data', data]);
    const followUp = await ask(second, {
      fp: 'reader',
      threadId,
      messages: [userMessage('and with a script tag?')],
    });
    expect(followUp.status).toBe(200);
    expect(followUp.headers.get('x-thread-id')).toBe(threadId);
    await followUp.text();
    await stop(second);
    expect(leftovers(await tree(data))).toEqual([]);
  });

  it('fails an export killed mid-way clearly, removes its half-written files, and exports again', async () => {
    const docs = await tempDir();
    for (let i = 0; i < 600; i++) {
      await mkdir(join(docs, `topic-${i % 6}`), { recursive: true });
      await writeFile(
        join(docs, `topic-${i % 6}`, `page-${i}.md`),
        `---\ntitle: Page ${i}\n---\n# Page ${i}\n\n${'Some words about this page. '.repeat(40)}\n\n\`\`\`ts\nconst page = ${i};\n\`\`\`\n`,
      );
    }
    const data = await tempDir();
    const args = ['--data', data, '--docs', docs];
    const first = await serve(args);
    const job = (await (
      await admin(first, 'POST', '/v1/static-export/jobs', { domain: DEMO.domain })
    ).json()) as { jobId: string };
    for (;;) {
      const state = (await (
        await admin(first, 'GET', `/v1/static-export/jobs/${job.jobId}`)
      ).json()) as { status: string; progress: number };
      expect(state.status).not.toBe('completed');
      if (state.status === 'running' && state.progress >= 10) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await kill9(first);
    // The kill really hit a half-done export.
    expect(leftovers(await tree(data)).length).toBeGreaterThan(0);

    const second = await serve(args);
    const failed = (await (
      await admin(second, 'GET', `/v1/static-export/jobs/${job.jobId}`)
    ).json()) as { status: string; error: string };
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('stopped') });
    expect(leftovers(await tree(data))).toEqual([]);

    const again = (await (
      await admin(second, 'POST', '/v1/static-export/jobs', { domain: DEMO.domain })
    ).json()) as { jobId: string };
    let status = '';
    while (status !== 'completed') {
      status = (
        (await (await admin(second, 'GET', `/v1/static-export/jobs/${again.jobId}`)).json()) as {
          status: string;
        }
      ).status;
      expect(status).not.toBe('failed');
      await new Promise((r) => setTimeout(r, 100));
    }
    const link = (await (
      await admin(second, 'POST', `/v1/static-export/jobs/${again.jobId}/bundle`)
    ).json()) as { bundleUrl: string; sizeBytes: number };
    const bundle = await fetch(link.bundleUrl);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBe(link.sizeBytes);
    await stop(second);
    expect(leftovers(await tree(data))).toEqual([]);
  });
});

describe('a data folder that cannot be written', () => {
  it('stops the server at start with a clear error, never "running" first (a path under a regular file)', async () => {
    const file = join(await tempDir(), 'not-a-folder');
    await writeFile(file, 'x');
    const error = (await serve(['--data', join(file, 'data')]).then(
      () => undefined,
      (e: { code: number; out: string }) => e,
    ))!;
    expect(error.code).toBe(1);
    expect(error.out).toContain('Cannot use the data folder');
    expect(error.out).not.toContain('running at');
  });

  it('stops the server at start with a clear error when the folder is read-only', async (context) => {
    const data = await tempDir();
    // root ignores permission bits; the immutable attribute stops root too (ext4, CAP_LINUX_IMMUTABLE).
    const isRoot = process.getuid?.() === 0;
    const lock = isRoot ? spawnSync('chattr', ['+i', data]) : spawnSync('chmod', ['555', data]);
    if (lock.error)
      unavailable(context, `cannot make a read-only folder here: ${lock.error.message}`);
    // A file system without the immutable attribute (some overlays): nothing to test on it.
    if (lock.status !== 0)
      context.skip(
        `this file system has no read-only folders for root: ${lock.stderr.toString().trim()}`,
      );
    try {
      const error = (await serve(['--data', data]).then(
        () => undefined,
        (e: { code: number; out: string }) => e,
      ))!;
      expect(error.code).toBe(1);
      expect(error.out).toMatch(/Cannot use the data folder .*(EPERM|EACCES|EROFS)/);
      expect(error.out).not.toContain('running at');
    } finally {
      if (isRoot) spawnSync('chattr', ['-i', data]);
      else spawnSync('chmod', ['755', data]);
    }
  });

  it('never hands out a thread id it could not store when the disk fills up while running, and loses nothing', async (context) => {
    if (spawnSync('prlimit', ['--version']).status !== 0)
      unavailable(context, 'prlimit (util-linux) is not installed');
    const data = await tempDir();
    const server = await serve(['--data', data]);
    const before = await ask(server, {
      fp: 'reader',
      messages: [userMessage('How do I install it?')],
    });
    const kept = before.headers.get('x-thread-id')!;
    await before.text();

    // RLIMIT_FSIZE 0: every write of a byte fails with EFBIG, as on a full disk (real syscalls, no mock).
    expect(spawnSync('prlimit', ['--pid', String(server.pid), '--fsize=0:unlimited']).status).toBe(
      0,
    );
    const refused = await ask(server, askBody('How do I change the theme?'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('x-thread-id')).toBeNull();
    expect(await refused.json()).toMatchObject({ error: 'storage_unavailable' });
    const followUp = await (
      await ask(server, { fp: 'reader', threadId: kept, messages: [userMessage('and then?')] })
    ).text();
    expect(followUp.trim().split('\n').at(-1)).toMatch(/^3:".*could not be saved/);

    expect(
      spawnSync('prlimit', ['--pid', String(server.pid), '--fsize=unlimited:unlimited']).status,
    ).toBe(0);
    const after = await ask(server, askBody('How do I change the theme?'));
    expect(after.status).toBe(200);
    const later = after.headers.get('x-thread-id')!;
    await after.text();
    await stop(server);

    const restarted = await serve(['--data', data]);
    for (const [threadId, fp] of [
      [kept, 'reader'],
      [later, 'anonymous'],
    ] as const) {
      const response = await ask(restarted, { fp, threadId, messages: [userMessage('again')] });
      expect(response.status).toBe(200);
      await response.text();
    }
    await stop(restarted);
    expect(leftovers(await tree(data))).toEqual([]);
    // The reader's fp is kept as its keyed hash, never as sent (docs/insights.md, "Privacy").
    expect(JSON.parse(await readFile(join(data, 'threads', `${kept}.json`), 'utf8'))).toMatchObject(
      { threadId: kept, fp: expect.stringMatching(/^h1:/) },
    );
  });
});

describe('a real server under hostile questions', () => {
  it('keeps answering /healthz while several half-megabyte words are being answered', async () => {
    const server = await serve(['--data', await tempDir()]);
    const words = Array.from({ length: 4 }, (_, i) =>
      ask(server, askBody(String.fromCharCode(97 + i).repeat(500_000))),
    );
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    for (const response of await Promise.all(words)) {
      expect(response.status).toBe(200);
      expect((await response.text()).trim().split('\n').at(-1)).toMatch(/^d:/);
    }
    await stop(server);
  });
});
