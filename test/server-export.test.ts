import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { createSite } from '../src/server/site/docs.js';
import { adminCall, exportApp, searchBundle, unpack } from './helpers/export.js';
import { sampleDocs, tempDir } from './helpers/server.js';

type Job = {
  jobId: string;
  status: string;
  progress: number;
  pageCount: number;
  createdAt: string;
  updatedAt: string;
  error?: string;
  version?: string;
  domain: string;
};
type Bundle = { jobId: string; bundleUrl: string; sizeBytes: number; expiresAt: string };

const JOB_ID = /^se_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('static export lifecycle', () => {
  it('runs a job from queued to completed and hands out a bundle of the whole site', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const app = await exportApp({ now: () => now });
    const started = await adminCall(app, 'POST', '/v1/static-export/jobs', {
      domain: 'demo',
      version: '2026-11',
    });
    expect(started.status).toBe(202);
    const job = (await started.json()) as Job;
    expect(job).toEqual({
      jobId: expect.stringMatching(JOB_ID),
      domain: 'demo',
      status: 'queued',
      progress: 0,
      pageCount: 0,
      version: '2026-11',
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
    });
    await app.exports.idle();
    const done = (await (
      await adminCall(app, 'GET', `/v1/static-export/jobs/${job.jobId}`)
    ).json()) as Job;
    const pages = (await sampleDocs()).pages.length;
    expect(done).toMatchObject({ status: 'completed', progress: 100, pageCount: pages });

    now += 5_000;
    const bundleResponse = await adminCall(
      app,
      'POST',
      `/v1/static-export/jobs/${job.jobId}/bundle`,
    );
    expect(bundleResponse.status).toBe(200);
    const bundle = (await bundleResponse.json()) as Bundle;
    expect(bundle).toEqual({
      jobId: job.jobId,
      bundleUrl: expect.stringMatching(
        /^http:\/\/test\/v1\/static-export\/bundles\/se_\w+\.tar\.gz\?expires=\d+&signature=[0-9a-f]{64}$/,
      ),
      sizeBytes: expect.any(Number),
      expiresAt: '2026-11-22T11:00:05.000Z',
    });
    const download = await app.request(bundle.bundleUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(bundle.sizeBytes);

    const dir = await unpack(bytes);
    const files = (await readdir(dir, { recursive: true })).map(String).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'index.html',
        'guides/react.html',
        'v1/guides/configuration.html',
        'fr/installation.html',
        'assets/docs.css',
        'assets/search.js',
        'assets/search-index.js',
        'assets/minisearch.js',
        'images/how-it-works.svg',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.html'))).toHaveLength(pages);
    const react = await readFile(join(dir, 'guides/react.html'), 'utf8');
    expect(react).toContain('href="page-context.html"'); // Markdown link /guides/page-context, rewritten
    expect(react).toContain('href="../index.html"');
    expect(react).toContain('href="../assets/docs.css"');
    expect(react).toMatch(/<span class="hljs-keyword">import<\/span>/);
    expect(react).not.toMatch(/href="\/(?!\/)/); // no site-absolute links left: the bundle works under any prefix
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain(
      'src="images/how-it-works.svg"',
    );
    expect((await searchBundle(dir, 'presigned bundle link'))[0]!.url).toMatch(
      /^(static-export|api)\/[\w-]+\.html/,
    );
  });

  it('exports only the given paths', async () => {
    const app = await exportApp();
    const job = (await (
      await adminCall(app, 'POST', '/v1/static-export/jobs', {
        domain: 'demo',
        paths: ['/quickstart', 'installation', '/docs/quickstart.html'],
      })
    ).json()) as Job;
    await app.exports.idle();
    const bundle = (await (
      await adminCall(app, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`)
    ).json()) as Bundle;
    const dir = await unpack(
      new Uint8Array(await (await app.request(bundle.bundleUrl)).arrayBuffer()),
    );
    const html = (await readdir(dir, { recursive: true }))
      .map(String)
      .filter((f) => f.endsWith('.html'))
      .sort();
    // index.html opens the bundle at its first page (the CLI checks a bundle has one).
    expect(html).toEqual(['index.html', 'installation.html', 'quickstart.html']);
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toMatch(
      /<meta http-equiv="refresh" content="0; url=(installation|quickstart)\.html" \/>/,
    );
    const done = (await (
      await adminCall(app, 'GET', `/v1/static-export/jobs/${job.jobId}`)
    ).json()) as Job;
    expect(done.pageCount).toBe(2);
  });

  it('answers 409 while the job is not completed', async () => {
    const app = await exportApp();
    await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'demo' });
    // A domain runs one export at a time, so this second job is certainly still queued.
    const second = (await (
      await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'demo' })
    ).json()) as Job;
    const early = await adminCall(app, 'POST', `/v1/static-export/jobs/${second.jobId}/bundle`);
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual({
      error: 'job_not_completed',
      message: expect.stringContaining('queued'),
    });
    await app.exports.idle();
    expect(
      (await adminCall(app, 'POST', `/v1/static-export/jobs/${second.jobId}/bundle`)).status,
    ).toBe(200);
  });

  it('refuses expired and tampered links with 403, and a fresh link works while the job stays', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const app = await exportApp({ now: () => now, exports: { linkTtlSeconds: 60 } });
    const job = (await (
      await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'tiny' })
    ).json()) as Job;
    await app.exports.idle();
    const first = (await (
      await adminCall(app, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`)
    ).json()) as Bundle;
    expect(first.expiresAt).toBe('2026-11-22T10:01:00.000Z');
    const url = new URL(first.bundleUrl);
    const tampered = [
      first.bundleUrl.replace(
        /signature=(.)/,
        (_, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`,
      ),
      first.bundleUrl.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`),
      first.bundleUrl.replace(job.jobId, 'se_01JD8X3K2M0000000000000000'),
      `${url.origin}${url.pathname}`,
      first.bundleUrl.replace(/signature=\w+/, 'signature=../../etc'),
    ];
    for (const link of tampered) {
      const response = await app.request(link);
      expect(response.status, link).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'link_invalid' });
    }
    now += 60_000;
    const expired = await app.request(first.bundleUrl);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ error: 'link_expired' });
    expect(
      ((await (await adminCall(app, 'GET', `/v1/static-export/jobs/${job.jobId}`)).json()) as Job)
        .status,
    ).toBe('completed');
    const fresh = (await (
      await adminCall(app, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`)
    ).json()) as Bundle;
    expect(fresh.bundleUrl).not.toBe(first.bundleUrl);
    expect((await app.request(fresh.bundleUrl)).status).toBe(200);
  });
});

describe('static export auth and validation', () => {
  it('needs an Enterprise admin key', async () => {
    const app = await exportApp();
    const cases: [string | null, number, string][] = [
      [null, 401, 'unauthorized'],
      ['svc_unknown_admin', 401, 'unauthorized'],
      [DEMO.assistantKey, 403, 'wrong_key_type'],
      ['svc_free_admin', 403, 'plan_required'],
    ];
    for (const [key, status, code] of cases) {
      const response = await adminCall(
        app,
        'POST',
        '/v1/static-export/jobs',
        { domain: 'demo' },
        key,
      );
      expect(response.status, String(key)).toBe(status);
      expect(await response.json()).toEqual({ error: code, message: expect.any(String) });
    }
  });

  it('answers 400 for a bad domain or paths and 404 for unknown domains and jobs', async () => {
    const app = await exportApp();
    const bad: [unknown, string][] = [
      [{}, 'domain'],
      [{ domain: 'https://docs.example.com/guides' }, 'domain'],
      [{ domain: 'demo', paths: ['/guides/react', '/nope'] }, '"/nope"'],
      [{ domain: 'demo', paths: ['../../etc/passwd'] }, 'passwd'],
      [{ domain: 'demo', paths: [] }, 'paths'],
      ['{not json', 'JSON'],
    ];
    for (const [body, mention] of bad) {
      const response = await adminCall(app, 'POST', '/v1/static-export/jobs', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(mention);
    }
    const unknownDomain = await adminCall(app, 'POST', '/v1/static-export/jobs', {
      domain: 'nope',
    });
    expect(unknownDomain.status).toBe(404);
    expect(await unknownDomain.json()).toMatchObject({ error: 'domain_not_found' });
    const otherOrgsDomain = await adminCall(
      app,
      'POST',
      '/v1/static-export/jobs',
      { domain: 'demo' },
      'svc_other_admin',
    );
    expect(otherOrgsDomain.status).toBe(404);
    for (const id of ['se_01JD8X3K2M0000000000000000', '..%2F..%2Fetc', 'se_x']) {
      const response = await adminCall(app, 'GET', `/v1/static-export/jobs/${id}`);
      expect(response.status, id).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'job_not_found' });
    }
    const job = (await (
      await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'tiny' })
    ).json()) as Job;
    expect(
      (
        await adminCall(
          app,
          'GET',
          `/v1/static-export/jobs/${job.jobId}`,
          undefined,
          'svc_other_admin',
        )
      ).status,
    ).toBe(404);
    await app.exports.idle();
  });
});

describe('static export jobs over time', () => {
  it('fails a job that breaks with its error, and keeps serving other jobs', async () => {
    const broken = createSite(
      (await sampleDocs()).pages.slice(0, 2),
      ['/missing.png'],
      await tempDir(),
    );
    const app = await exportApp({
      sites: [
        { domain: 'broken', org: DEMO.org, docs: broken },
        { domain: 'demo', org: DEMO.org, docs: await sampleDocs() },
      ],
    });
    const job = (await (
      await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'broken' })
    ).json()) as Job;
    await app.exports.idle();
    const failed = (await (
      await adminCall(app, 'GET', `/v1/static-export/jobs/${job.jobId}`)
    ).json()) as Job;
    expect(failed).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^The export failed: .*missing\.png/),
    });
    expect(
      (await adminCall(app, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`)).status,
    ).toBe(409);
  });

  it("does not let one domain's queue stall another domain", async () => {
    const app = await exportApp({ exports: { concurrency: 2, maxActivePerOrg: 10 } });
    const demoJobs: Job[] = [];
    for (let i = 0; i < 3; i++)
      demoJobs.push(
        (await (
          await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'demo' })
        ).json()) as Job,
      );
    const tiny = (await (
      await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'tiny' })
    ).json()) as Job;
    let tinyStatus = '';
    while (tinyStatus !== 'completed') {
      tinyStatus = (
        (await (await adminCall(app, 'GET', `/v1/static-export/jobs/${tiny.jobId}`)).json()) as Job
      ).status;
      await new Promise((r) => setTimeout(r, 5));
    }
    const last = (await (
      await adminCall(app, 'GET', `/v1/static-export/jobs/${demoJobs[2]!.jobId}`)
    ).json()) as Job;
    expect(['queued', 'running']).toContain(last.status);
    await app.exports.idle();
  });

  it('after a restart, finishes queued jobs, fails interrupted ones clearly, and keeps bundles and links', async () => {
    const dataDir = await tempDir();
    let now = Date.parse('2026-11-22T10:00:00Z');
    const before = await exportApp({ dataDir, now: () => now });
    const done = (await (
      await adminCall(before, 'POST', '/v1/static-export/jobs', { domain: 'tiny' })
    ).json()) as Job;
    await before.exports.idle();
    const link = (await (
      await adminCall(before, 'POST', `/v1/static-export/jobs/${done.jobId}/bundle`)
    ).json()) as Bundle;
    // Two jobs as a stopped server left them on disk.
    const stale = (id: string, status: string) => ({
      jobId: id,
      domain: 'tiny',
      org: DEMO.org,
      status,
      progress: status === 'running' ? 40 : 0,
      pageCount: 0,
      createdAt: '2026-11-22T09:00:00.000Z',
      updatedAt: '2026-11-22T09:00:00.000Z',
    });
    for (const [id, status] of [
      ['se_01JD8X3K2M0000000000000001', 'running'],
      ['se_01JD8X3K2M0000000000000002', 'queued'],
    ] as const) {
      await mkdir(join(dataDir, 'exports', id), { recursive: true });
      await writeFile(join(dataDir, 'exports', id, 'job.json'), JSON.stringify(stale(id, status)));
    }
    now += 1000;
    const after = await exportApp({ dataDir, now: () => now });
    await after.exports.idle();
    const get = async (id: string) =>
      (await (await adminCall(after, 'GET', `/v1/static-export/jobs/${id}`)).json()) as Job;
    expect(await get('se_01JD8X3K2M0000000000000001')).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('server stopped'),
    });
    expect(await get('se_01JD8X3K2M0000000000000002')).toMatchObject({
      status: 'completed',
      progress: 100,
    });
    expect(await get(done.jobId)).toMatchObject({ status: 'completed' });
    expect((await after.request(link.bundleUrl)).status).toBe(200);
  });
});

describe('bundle links', () => {
  it('are the shortest relative path between two bundle files', async () => {
    const { relativeFrom } = await import('../src/server/export/site-export.js');
    expect(relativeFrom('guides/react.html', 'guides/page-context.html')).toBe('page-context.html');
    expect(relativeFrom('guides/react.html', 'index.html')).toBe('../index.html');
    expect(relativeFrom('index.html', 'guides/react.html')).toBe('guides/react.html');
    expect(relativeFrom('v1/guides/configuration.html', 'guides/configuration.html')).toBe(
      '../../guides/configuration.html',
    );
    expect(relativeFrom('a/b/c.html', 'a/d/e.html')).toBe('../d/e.html');
    expect(relativeFrom('guides/react.html', 'images/how-it-works.svg')).toBe(
      '../images/how-it-works.svg',
    );
  });
});
