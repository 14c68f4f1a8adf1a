import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { postgresStores } from '../src/server/stores/postgres.js';
import { adminCall, exportApp } from './helpers/export.js';
import { insightStoreContract } from './helpers/insight-store.js';
import { startServerProcess } from './helpers/build.js';
import { postgresBinDir, startPostgres, type TestPostgres } from './helpers/postgres.js';
import { startLlmServer } from './helpers/llm-server.js';
import {
  askBody,
  demoApp,
  post,
  readStream,
  sampleDocs,
  tempDir,
  textOf,
} from './helpers/server.js';

const available = postgresBinDir() !== undefined;
if (!available) {
  const message =
    'PostgreSQL server binaries are missing (/usr/lib/postgresql/*/bin): the PostgreSQL store tests are SKIPPED. Install them with: apt-get install postgresql';
  // CI installs them (.ci/run): there a missing server is a failure, not a skip.
  if (process.env.CI) throw new Error(message);
  console.warn(`\n\n!!! ${message} !!!\n\n`);
}

let server: TestPostgres;
let databases = 0;
/** A fresh database per test, on the one server this file starts. */
const freshDatabase = () => server.createDatabase(`t${++databases}_${process.pid}`);

beforeAll(async () => {
  if (available) server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(!available)('PostgreSQL stores: two instances on one database', () => {
  /** Two reference servers sharing one database, each with its own disk, as two machines would. */
  async function twoInstances(extra: Parameters<typeof exportApp>[0] = {}) {
    const url = await freshDatabase();
    // Leases long enough that a loaded machine's pauses never take a job from a live instance.
    const stores = [
      postgresStores(url, { leaseMs: 10_000 }),
      postgresStores(url, { leaseMs: 10_000 }),
    ];
    const apps = await Promise.all(
      stores.map(async (s) => exportApp({ dataDir: await tempDir(), stores: s, ...extra })),
    );
    await Promise.all(apps.map((app) => app.ready));
    return {
      url,
      apps: apps as [(typeof apps)[0], (typeof apps)[0]],
      close: () =>
        Promise.all(apps.map((app) => app.close())).then(() =>
          Promise.all(stores.map((s) => s.close())),
        ),
    };
  }

  it('counts the rate limit across both instances', async () => {
    const { apps, close } = await twoInstances({ limits: { orgPerHour: 3, ipPerOrgHour: 100 } });
    const statuses: number[] = [];
    for (const app of [apps[0], apps[1], apps[0], apps[1]]) {
      const response = await post(app, askBody('How do I install it?'));
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    await close();
  });

  it('continues on one instance a thread started on the other', async () => {
    const { apps, close } = await twoInstances();
    const first = await post(apps[0], askBody('How do I install it?'));
    const threadId = first.headers.get('x-thread-id')!;
    const threadKey = first.headers.get('x-thread-key');
    await readStream(first);
    const followUp = await post(
      apps[1],
      askBody('and with React?', { threadId, ...(threadKey ? { threadKey } : {}) }),
    );
    expect(followUp.status).toBe(200);
    expect(followUp.headers.get('x-thread-id')).toBe(threadId);
    expect(textOf(await readStream(followUp)).length).toBeGreaterThan(0);
    // An unknown thread is still unknown on both.
    const unknown = await post(apps[1], askBody('hi', { threadId: '01JD8X3K2M0000000000000009' }));
    expect(unknown.status).toBe(404);
    await close();
  });

  it('polls and bundles on one instance a job started on the other, and accepts a link either one signed', async () => {
    const { apps, close } = await twoInstances();
    const started = (await (
      await adminCall(apps[0], 'POST', '/v1/static-export/jobs', { domain: 'demo', version: 'pg' })
    ).json()) as { jobId: string };
    let job: { status: string; pageCount: number };
    do
      job = (await (
        await adminCall(apps[1], 'GET', `/v1/static-export/jobs/${started.jobId}`)
      ).json()) as typeof job;
    while (job.status === 'queued' || job.status === 'running');
    expect(job).toMatchObject({
      status: 'completed',
      pageCount: (await sampleDocs()).pages.length,
    });
    // The bundle lives in the database, so the instance that did not build it serves it too.
    for (const [signer, server] of [
      [apps[0], apps[1]],
      [apps[1], apps[0]],
    ] as const) {
      const bundle = (await (
        await adminCall(signer, 'POST', `/v1/static-export/jobs/${started.jobId}/bundle`)
      ).json()) as { bundleUrl: string; sizeBytes: number };
      const download = await server.request(bundle.bundleUrl);
      expect(download.status).toBe(200);
      expect((await download.arrayBuffer()).byteLength).toBe(bundle.sizeBytes);
    }
    await close();
  });

  it('runs each queued job exactly once when both instances work the queue', async () => {
    const { apps, close, url } = await twoInstances({ exports: { maxActivePerOrg: 10 } });
    const ids: string[] = [];
    for (const domain of ['demo', 'tiny', 'demo', 'tiny']) {
      const app = ids.length % 2 ? apps[1] : apps[0];
      ids.push(
        (
          (await (await adminCall(app, 'POST', '/v1/static-export/jobs', { domain })).json()) as {
            jobId: string;
          }
        ).jobId,
      );
    }
    for (const id of ids) {
      let job: { status: string };
      do job = (await apps[0].exports.get(id))!;
      while (job.status !== 'completed' && job.status !== 'failed');
      expect(job.status).toBe('completed');
    }
    // Each job was claimed once: no instance ran a job another one had.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ job_id: string; attempts: number }>(
      'SELECT job_id, attempts FROM docs_assistant_jobs ORDER BY job_id',
    );
    await client.end();
    expect(rows).toEqual(ids.map((id) => ({ job_id: id, attempts: 1 })));
    await close();
  });
});

describe.skipIf(!available)('PostgreSQL insight store', () => {
  const opened: ReturnType<typeof postgresStores>[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((stores) => stores.close()));
  });
  insightStoreContract(async () => {
    const stores = postgresStores(await freshDatabase());
    opened.push(stores);
    return stores.insights;
  });

  it('records answers, keeps fingerprints only as a keyed hash, and hashes the ones an earlier version stored in plain', async () => {
    const url = await freshDatabase();
    const legacy = '01JD8X3K2M0000000000000077';
    const first = postgresStores(url);
    await first.threads.open();
    const at = new Date().toISOString();
    await first.threads.create({
      threadId: legacy,
      domain: DEMO.domain,
      fp: 'old-reader',
      createdAt: at,
    });
    await first.close();
    const stores = postgresStores(url);
    const app = await demoApp({ dataDir: await tempDir(), stores });
    await app.ready;
    const response = await post(app, askBody('How do I install it?', { fp: 'reader-secret-42' }));
    await response.arrayBuffer();
    const continued = await post(
      app,
      askBody('How do I install it?', { fp: 'old-reader', threadId: legacy }),
    );
    expect(continued.status).toBe(200);
    await continued.arrayBuffer();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ fp: string }>('SELECT fp FROM docs_assistant_threads');
    await client.end();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.fp).toMatch(/^h1:[\w-]{43}$/);
    // Both answers were recorded for the owner, in the database.
    const report = async () =>
      (
        await app.request(`http://test/v1/insights/${DEMO.domain}`, {
          headers: { Authorization: `Bearer ${DEMO.adminKey}` },
        })
      ).json();
    await expect.poll(async () => (await report()).totals.answered).toBe(2);
    await app.close();
    await stores.close();
  });
});

describe.skipIf(!available)('PostgreSQL stores themselves', () => {
  it('keep the thread contract: bound fields, last maxTurns turns, retention', async () => {
    const stores = postgresStores(await freshDatabase());
    await stores.threads.open();
    const id = '01JD8X3K2M0000000000000001';
    await stores.threads.create({
      threadId: id,
      domain: 'demo',
      fp: 'fp-a',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const turn = (n: number) => ({
      messageId: `m${n}`,
      question: `q${n}`,
      answer: `a${n}`,
      sources: [],
      at: `2026-01-01T00:0${n}:00.000Z`,
    });
    // Concurrent appends (as from two instances) all land, and only the last 3 stay.
    expect(
      await Promise.all(
        [1, 2, 3, 4, 5].map((n) => stores.threads.appendTurn(id, turn(n), { maxTurns: 3 })),
      ),
    ).toEqual([true, true, true, true, true]);
    const thread = (await stores.threads.get(id))!;
    expect(thread).toMatchObject({ threadId: id, domain: 'demo', fp: 'fp-a' });
    expect(thread.turns).toHaveLength(3);
    expect(
      await stores.threads.appendTurn('01JD8X3K2M0000000000000009', turn(1), { maxTurns: 3 }),
    ).toBe(false);
    expect(await stores.threads.get('../../etc/passwd')).toBeUndefined();
    expect(
      await stores.threads.prune({ updatedBefore: '2027-01-01T00:00:00.000Z', maxThreads: 10 }),
    ).toBe(1);
    expect(await stores.threads.get(id)).toBeUndefined();
    await stores.close();
  });

  it('count concurrent hits exactly and agree on one signing key', async () => {
    const url = await freshDatabase();
    const [a, b] = [postgresStores(url), postgresStores(url)];
    await Promise.all([a.rateLimits.open(), b.rateLimits.open()]);
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).rateLimits.increment('k', 1000, 5000)),
    );
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(counts[0]!.resetAt).toBe(6000);
    expect(await a.rateLimits.increment('k', 1000, 6000)).toEqual({ count: 1, resetAt: 7000 });
    const keys = await Promise.all(
      [a, b, a, b].map((s, n) => s.signingKey.getOrCreate(Buffer.alloc(32, n + 1))),
    );
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('skip a damaged row with a log line instead of passing it off as a job or thread', async () => {
    const url = await freshDatabase();
    const stores = postgresStores(url);
    await Promise.all([stores.threads.open(), stores.jobs.open()]);
    const job = (n: number) => ({
      jobId: `se_01JD8X3K2M000000000000000${n}`,
      domain: 'demo',
      org: 'demo',
      status: 'queued' as const,
      progress: 0,
      pageCount: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    await stores.jobs.insert(job(1));
    await stores.jobs.insert(job(2));
    const threadId = '01JD8X3K2M0000000000000001';
    await stores.threads.create({ threadId, domain: 'demo', fp: 'fp', createdAt: 'x' });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `UPDATE docs_assistant_jobs SET data = data || '{"progress": "half"}'::jsonb WHERE job_id = $1`,
      [job(2).jobId],
    );
    await client.query(`UPDATE docs_assistant_threads SET turns = '[{"question": 1}]'::jsonb`);
    await client.end();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await stores.jobs.list({ status: ['queued'] })).map((j) => j.jobId)).toEqual([
      job(1).jobId,
    ]);
    expect(await stores.jobs.get(job(2).jobId)).toBeUndefined();
    expect(await stores.threads.get(threadId)).toBeUndefined();
    expect(logged).toHaveBeenCalledWith(
      expect.stringMatching(/docs_assistant_jobs is not a job \(progress: Expected number/),
    );
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining(`thread ${threadId} in docs_assistant_threads does not fit (turns.0`),
    );
    logged.mockRestore();
    await stores.close();
  });

  it('keep no thread row for a question the model fails before answering (real provider)', async () => {
    const url = await freshDatabase();
    const stores = postgresStores(url);
    const llm = await startLlmServer();
    const app = await demoApp({
      stores,
      llm: { baseUrl: llm.baseUrl, model: 'test-model' },
    });
    const rows = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ thread_id: string; turns: unknown[] }>(
        'SELECT thread_id, turns FROM docs_assistant_threads',
      );
      await client.end();
      return rows;
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    llm.script({ status: 503 }, { text: ['Use npm [1].'] });
    const failed = await post(app, askBody('How do I install it?'));
    expect(failed.status).toBe(502);
    expect(failed.headers.get('x-thread-id')).toBeNull();
    await failed.text();
    expect(await rows()).toEqual([]);
    const retry = await post(app, askBody('How do I install it?'));
    const threadId = retry.headers.get('x-thread-id');
    expect(textOf(await readStream(retry))).toBe('Use npm [1].');
    expect(await rows()).toEqual([
      {
        thread_id: threadId,
        turns: [expect.objectContaining({ question: 'How do I install it?' })],
      },
    ]);
    vi.mocked(console.error).mockRestore();
    await app.close();
    await stores.close();
    await llm.close();
  });

  it('say which database they cannot reach, without its password', async () => {
    const stores = postgresStores('postgres://admin:s3cret@127.0.0.1:1/nowhere');
    const error = await stores.threads.open().catch((e: Error) => e);
    expect(String(error)).toMatch(
      /Cannot connect to the database postgres:\/\/127\.0\.0\.1:1\/nowhere/,
    );
    expect(String(error)).not.toContain('s3cret');
    await stores.close();
  });
});

describe.skipIf(!available)('PostgreSQL stores: an instance killed mid-job', () => {
  it('leaves the job queued again and finished by the other instance, never stuck running', async () => {
    const url = await freshDatabase();
    const docs = await bigDocsFolder(200);
    const env = {
      ...process.env,
      DOCS_ASSISTANT_SERVER_KEYS: `${DEMO.assistantKey},${DEMO.adminKey}`,
      DOCS_ASSISTANT_DATABASE_URL: url,
    };
    const start = async () =>
      startServerProcess(
        ['--docs', docs, '--domain', 'demo', '--data', await tempDir(), '--job-lease-ms', '3000'],
        env,
      );
    const a = await start();
    const started = (await (
      await fetch(`${a.url}/v1/static-export/jobs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${DEMO.adminKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ domain: 'demo' }),
      })
    ).json()) as { jobId: string };
    const poll = async (base: string) =>
      (await (
        await fetch(`${base}/v1/static-export/jobs/${started.jobId}`, {
          headers: { Authorization: `Bearer ${DEMO.adminKey}` },
        })
      ).json()) as { status: string; progress: number };
    let first: { status: string };
    do first = await poll(a.url);
    while (first.status === 'queued');
    expect(first.status).toBe('running');
    a.process.kill('SIGKILL');
    const b = await start();
    let job: { status: string; progress: number };
    do job = await poll(b.url);
    while (job.status === 'running' || job.status === 'queued');
    expect(job.status, b.output()).toBe('completed');
    // Two runs: the killed instance's, whose lease ran out, and the survivor's.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ attempts: number }>(
      'SELECT attempts FROM docs_assistant_jobs WHERE job_id = $1',
      [started.jobId],
    );
    await client.end();
    expect(rows).toEqual([{ attempts: 2 }]);
    b.process.kill('SIGTERM');
  });
});

/** A docs folder of `pages` generated pages: big enough that its export is still running when the test kills it. */
async function bigDocsFolder(pages: number): Promise<string> {
  const dir = await tempDir('da-big-docs-');
  await mkdir(join(dir, 'guides'));
  await writeFile(join(dir, 'index.md'), '---\ntitle: Home\n---\n# Home\n\nA generated site.\n');
  for (let n = 0; n < pages; n++) {
    const body = Array.from(
      { length: 12 },
      (_, i) =>
        `## Section ${i}\n\nPage ${n} explains topic ${i} with \`code ${i}\` and [a link](/guides/p${(n + 1) % pages}).\n\n\`\`\`ts\nconst value${i} = ${n};\n\`\`\`\n`,
    ).join('\n');
    await writeFile(
      join(dir, 'guides', `p${n}.md`),
      `---\ntitle: Page ${n}\n---\n# Page ${n}\n\n${body}`,
    );
  }
  return dir;
}
