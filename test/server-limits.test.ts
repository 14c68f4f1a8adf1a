import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryThreadStore, type ThreadStore } from '../src/server/stores/index.js';
import { adminCall, exportApp } from './helpers/export.js';
import { askBody, demoApp, post, readStream, tempDir, userMessage } from './helpers/server.js';

const threadOf = async (response: Response) => {
  const id = response.headers.get('x-thread-id')!;
  await response.text();
  return id;
};

describe('threads', () => {
  it('belong to the fp that started them: another fp gets 404 thread_not_found and learns nothing', async () => {
    const app = await demoApp();
    const threadId = await threadOf(
      await post(app, { fp: 'reader-a', messages: [userMessage('How does static export work?')] }),
    );
    const other = await post(app, {
      fp: 'reader-b',
      threadId,
      messages: [userMessage('and then?')],
    });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({
      error: 'thread_not_found',
      message: expect.any(String),
    });
    expect(
      (await post(app, { fp: 'reader-a', threadId, messages: [userMessage('and then?')] })).status,
    ).toBe(200);
  });

  it('keep only the last maxTurns turns, so a long thread does not grow without bound', async () => {
    const dataDir = await tempDir();
    const app = await demoApp({ dataDir, threads: { maxTurns: 3 } });
    const threadId = await threadOf(await post(app, askBody('question 0 install')));
    for (let i = 1; i < 6; i++)
      await threadOf(await post(app, askBody(`question ${i} install`, { threadId })));
    const { readFile } = await import('node:fs/promises');
    const stored = JSON.parse(
      await readFile(join(dataDir, 'threads', `${threadId}.json`), 'utf8'),
    ) as { turns: { question: string }[] };
    expect(stored.turns.map((t) => t.question)).toEqual([
      'question 3 install',
      'question 4 install',
      'question 5 install',
    ]);
  });

  it('are deleted by retention once older than maxAgeDays or beyond maxThreads', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const dataDir = await tempDir();
    const app = await demoApp({ dataDir, now: () => now });
    const old = await threadOf(await post(app, askBody('install')));
    await app.close();
    now += 31 * 24 * 3_600_000;
    // The file store dates threads by file time; make this one as old as the clock says.
    const { utimes } = await import('node:fs/promises');
    const file = join(dataDir, 'threads', `${old}.json`);
    await utimes(file, new Date(now - 31 * 24 * 3_600_000), new Date(now - 31 * 24 * 3_600_000));
    const later = await demoApp({ dataDir, now: () => now });
    await later.ready;
    expect((await post(later, askBody('install', { threadId: old }))).status).toBe(404);
    await later.close();
  });

  it('are stored before their id is handed out: a store that cannot write answers 503, with no thread id', async () => {
    const failing: ThreadStore = {
      ...memoryThreadStore(),
      create: () =>
        Promise.reject(
          Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
        ),
    };
    const app = await demoApp({ stores: { threads: failing } });
    const response = await post(app, askBody('install'));
    expect(response.status).toBe(503);
    expect(response.headers.get('x-thread-id')).toBeNull();
    expect(await response.json()).toMatchObject({
      error: 'storage_unavailable',
      message: expect.any(String),
    });
  });

  it('say so in the stream when a turn cannot be saved, instead of finishing with a thread id', async () => {
    const memory = memoryThreadStore();
    const failing: ThreadStore = {
      ...memory,
      appendTurn: () => Promise.reject(new Error('EROFS: read-only file system')),
    };
    const app = await demoApp({ stores: { threads: failing } });
    const parts = await readStream(await post(app, askBody('install')));
    expect(parts.some((p) => p.type === 'finish_message')).toBe(false);
    expect(parts.at(-1)).toMatchObject({
      type: 'error',
      value: expect.stringContaining('could not be saved'),
    });
  });
});

describe('static export limits and leftovers', () => {
  it('caps the jobs one organisation may have waiting, then the jobs it may start per hour', async () => {
    const app = await exportApp({ exports: { maxActivePerOrg: 2, startsPerOrgHour: 3 } });
    const start = () => adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'demo' });
    expect((await start()).status).toBe(202);
    expect((await start()).status).toBe(202);
    const capped = await start();
    expect(capped.status).toBe(429);
    expect(await capped.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringContaining('queued or running'),
    });
    await app.exports.idle();
    expect((await start()).status).toBe(202);
    await app.exports.idle();
    const rated = await start();
    expect(rated.status).toBe(429);
    expect(await rated.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringContaining('this hour'),
    });
  });

  it('deletes finished jobs and their bundles after retentionDays', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const dataDir = await tempDir();
    const app = await exportApp({ dataDir, now: () => now });
    const job = (await (
      await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'tiny' })
    ).json()) as { jobId: string };
    await app.exports.idle();
    await app.close();
    now += 8 * 24 * 3_600_000;
    const later = await exportApp({ dataDir, now: () => now });
    await later.ready;
    expect((await adminCall(later, 'GET', `/v1/static-export/jobs/${job.jobId}`)).status).toBe(404);
    expect(await readdir(join(dataDir, 'exports'))).not.toContain(job.jobId);
  });

  it('removes what a killed export left behind when it starts again', async () => {
    const dataDir = await tempDir();
    const jobId = 'se_01JD8X3K2M0000000000000001';
    const folder = join(dataDir, 'exports', jobId);
    await mkdir(join(folder, 'site', 'guides'), { recursive: true });
    await writeFile(join(folder, 'site', 'guides', 'a.html'), '<p>half');
    await writeFile(join(folder, 'bundle.tar.gz.partial'), 'half a tarball');
    await writeFile(join(folder, 'job.json.4242.3.tmp'), '{"half"');
    const now = Date.parse('2026-11-22T10:00:00Z');
    await writeFile(
      join(folder, 'job.json'),
      JSON.stringify({
        jobId,
        domain: 'tiny',
        org: 'demo',
        status: 'running',
        progress: 40,
        pageCount: 0,
        createdAt: new Date(now).toISOString(),
        updatedAt: new Date(now).toISOString(),
      }),
    );
    const orphan = join(dataDir, 'exports', 'se_01JD8X3K2M0000000000000002');
    await mkdir(join(orphan, 'site'), { recursive: true });
    await mkdir(join(dataDir, 'threads'), { recursive: true });
    await writeFile(
      join(dataDir, 'threads', '01JD8X3K2M0000000000000001.json.4242.1.tmp'),
      '{"half"',
    );
    const app = await exportApp({ dataDir, now: () => now });
    await app.ready;
    await app.exports.idle();
    expect((await readdir(folder)).sort()).toEqual(['job.json']);
    expect(await readdir(join(dataDir, 'exports'))).not.toContain('se_01JD8X3K2M0000000000000002');
    // Only the marker that the threads' fingerprints are hashed (docs/insights.md) is left.
    expect(await readdir(join(dataDir, 'threads'))).toEqual(['.fingerprints-hashed']);
    expect(
      await (await adminCall(app, 'GET', `/v1/static-export/jobs/${jobId}`)).json(),
    ).toMatchObject({ status: 'failed' });
  });
});
