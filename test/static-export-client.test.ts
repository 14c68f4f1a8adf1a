import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AssistantError, createStaticExportClient, StaticExportError } from '../src/client/node.js';
import { DEMO } from '../src/server/config.js';
import { createSite } from '../src/server/site/docs.js';
import { ADMIN, exportApp, unpack } from './helpers/export.js';
import { sampleDocs, tempDir, type TestApp } from './helpers/server.js';

const clientFor = (app: TestApp, adminKey: string = ADMIN) =>
  createStaticExportClient({
    baseUrl: 'http://test/',
    adminKey,
    fetch: ((url: string, init?: RequestInit) => app.request(url, init)) as typeof fetch,
  });

describe('static export client', () => {
  it('starts, waits with progress, generates and downloads a verified bundle', async () => {
    const app = await exportApp();
    const client = clientFor(app);
    const job = await client.startJob({ domain: 'demo', version: 'v-test' });
    expect(job.status).toBe('queued');
    const seen: string[] = [];
    const done = await client.waitForJob(job.jobId, {
      intervalMs: 5,
      onProgress: (j) => seen.push(j.status),
    });
    expect(done).toMatchObject({ status: 'completed', progress: 100, version: 'v-test' });
    expect(seen.at(-1)).toBe('completed');
    const bundle = await client.generateBundle(job.jobId);
    const file = join(await tempDir(), 'bundle.tar.gz');
    const saved = await client.downloadBundle(bundle.bundleUrl, file, {
      expectedSize: bundle.sizeBytes,
    });
    expect(saved).toEqual({ file, sizeBytes: bundle.sizeBytes });
    expect((await stat(file)).size).toBe(bundle.sizeBytes);
    expect(await readFile(join(await unpack(file), 'index.html'), 'utf8')).toContain(
      '<h1 id="introduction">Introduction</h1>',
    );
  });

  it('refuses an assistant key before sending anything', () => {
    const fetch = vi.fn();
    expect(() =>
      createStaticExportClient({ baseUrl: 'http://test', adminKey: DEMO.assistantKey, fetch }),
    ).toThrow(/needs an admin key.*assistant key/);
    expect(() =>
      createStaticExportClient({ baseUrl: 'http://test', adminKey: DEMO.assistantKey, fetch }),
    ).toThrow(expect.objectContaining({ kind: 'forbidden', code: 'wrong_key_type' }));
    expect(() =>
      createStaticExportClient({ baseUrl: 'http://test', adminKey: 'nope', fetch }),
    ).toThrow(expect.objectContaining({ kind: 'unauthorized', code: 'unauthorized' }));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('throws typed errors with status, code and message', async () => {
    const app = await exportApp();
    const free = clientFor(app, 'svc_free_admin');
    await expect(free.startJob({ domain: 'free-site' })).rejects.toMatchObject({
      name: 'AssistantError',
      kind: 'forbidden',
      status: 403,
      code: 'plan_required',
      message: expect.stringContaining('Enterprise'),
    });
    const client = clientFor(app);
    await expect(client.getJob('se_01JD8X3K2M0000000000000000')).rejects.toMatchObject({
      kind: 'not_found',
      status: 404,
      code: 'job_not_found',
    });
    await client.startJob({ domain: 'demo' });
    const queued = await client.startJob({ domain: 'demo' });
    await expect(client.generateBundle(queued.jobId)).rejects.toMatchObject({
      status: 409,
      code: 'job_not_completed',
    });
    await app.exports.idle();
    const down = createStaticExportClient({
      baseUrl: 'http://test',
      adminKey: ADMIN,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(down.getJob('x')).rejects.toMatchObject({
      kind: 'network',
      code: 'network',
      status: undefined,
    });
  });

  it("stops waiting on a failed job with the job's error", async () => {
    const broken = createSite(
      (await sampleDocs()).pages.slice(0, 1),
      ['/missing.png'],
      await tempDir(),
    );
    const app = await exportApp({ sites: [{ domain: 'broken', org: DEMO.org, docs: broken }] });
    const client = clientFor(app);
    const job = await client.startJob({ domain: 'broken' });
    const error = (await client
      .waitForJob(job.jobId, { intervalMs: 5 })
      .catch((e: unknown) => e)) as AssistantError;
    expect(error).toBeInstanceOf(AssistantError);
    expect(error).toMatchObject({ kind: 'server', code: 'job_failed' });
    expect(error.message).toMatch(/missing\.png/);
    expect(error.job?.status).toBe('failed');
  });

  it('honours timeoutMs and an abort signal while polling', async () => {
    const app = await exportApp();
    const client = clientFor(app);
    await client.startJob({ domain: 'demo' });
    const queued = await client.startJob({ domain: 'demo' });
    await expect(
      client.waitForJob(queued.jobId, { intervalMs: 50, timeoutMs: 60 }),
    ).rejects.toMatchObject({ kind: 'server', code: 'timeout', job: { status: 'queued' } });
    const controller = new AbortController();
    const waiting = client.waitForJob(queued.jobId, {
      intervalMs: 1000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await app.exports.idle();
  });

  it('leaves nothing half-written when the size does not match or the link is refused', async () => {
    const app = await exportApp();
    const client = clientFor(app);
    const job = await client.startJob({ domain: 'tiny' });
    await client.waitForJob(job.jobId, { intervalMs: 5 });
    const bundle = await client.generateBundle(job.jobId);
    const dir = await tempDir();
    await expect(
      client.downloadBundle(bundle.bundleUrl, join(dir, 'a.tar.gz'), {
        expectedSize: bundle.sizeBytes + 1,
      }),
    ).rejects.toMatchObject({ kind: 'protocol', code: 'size_mismatch' });
    await expect(
      client.downloadBundle(
        bundle.bundleUrl.replace(
          /signature=(.)/,
          (_, c: string) => `signature=${c === '0' ? '1' : '0'}`,
        ),
        join(dir, 'b.tar.gz'),
      ),
    ).rejects.toMatchObject({ status: 403, code: 'link_invalid' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('turns an answer that is not a job or a bundle link into a protocol error that names the field', async () => {
    const answering = (body: string, status = 200) =>
      createStaticExportClient({
        baseUrl: 'http://test',
        adminKey: ADMIN,
        fetch: async () => new Response(body, { status }),
      });
    await expect(
      answering('{"jobId":"se_1","status":"done"}').getJob('se_1'),
    ).rejects.toMatchObject({
      name: 'AssistantError',
      kind: 'protocol',
      code: 'bad_response',
      status: 200,
      message: expect.stringMatching(/GET \/v1\/static-export\/jobs\/se_1 .*status/),
    });
    await expect(answering('<html>oops</html>').startJob({ domain: 'demo' })).rejects.toMatchObject(
      {
        kind: 'protocol',
        code: 'bad_response',
        message: expect.stringContaining('not JSON'),
      },
    );
    await expect(
      answering(
        '{"jobId":"se_1","bundleUrl":"https://x","expiresAt":"2026-01-01T00:00:00Z"}',
      ).generateBundle('se_1'),
    ).rejects.toMatchObject({ kind: 'protocol', message: expect.stringContaining('sizeBytes') });
    // A server that is not ours, answering with HTML and no code: the status decides the kind.
    await expect(answering('<h1>Bad gateway</h1>', 502).getJob('se_1')).rejects.toMatchObject({
      kind: 'server',
      status: 502,
      code: undefined,
    });
  });

  it('keeps fields another service adds to a job', async () => {
    const job = {
      jobId: 'se_1',
      domain: 'demo',
      status: 'running',
      progress: 10,
      pageCount: 2,
      createdAt: 'x',
      updatedAt: 'x',
      region: 'eu',
    };
    const client = createStaticExportClient({
      baseUrl: 'http://test',
      adminKey: ADMIN,
      fetch: async () => Response.json(job),
    });
    expect(await client.getJob('se_1')).toEqual(job);
  });

  it('still catches with the deprecated StaticExportError name', async () => {
    const down = createStaticExportClient({
      baseUrl: 'http://test',
      adminKey: ADMIN,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    const error = await down.getJob('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaticExportError);
    expect(error).toBeInstanceOf(AssistantError);
  });
});
