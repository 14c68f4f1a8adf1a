import { spawnSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fileJobStore,
  fileRateLimitStore,
  fileSigningKeyStore,
  fileThreadStore,
  memoryJobStore,
  memoryRateLimitStore,
  memorySigningKeyStore,
  memoryThreadStore,
  type JobRecord,
  type ThreadTurn,
} from '../src/server/stores/index.js';
import { tempDir } from './helpers/server.js';

const THREAD = '01JD8X3K2M0000000000000001';
const turn = (n: number): ThreadTurn => ({
  messageId: `msg_${n}`,
  question: `q${n}`,
  answer: `a${n}`,
  sources: [],
  at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
});
const job = (n: number, domain = 'demo', status: JobRecord['status'] = 'queued'): JobRecord => ({
  jobId: `se_01JD8X3K2M00000000000000${String(n).padStart(2, '0')}`,
  domain,
  status,
  progress: 0,
  pageCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  org: 'demo',
});

// Every implementation keeps the same contract: the database stores will run these too.
const threadStores = {
  memory: async () => memoryThreadStore(),
  file: async () => fileThreadStore(join(await tempDir(), 'threads')),
};
for (const [name, make] of Object.entries(threadStores)) {
  describe(`${name} thread store`, () => {
    it('gives back a created thread, bound to its fp, and nothing for unknown ids', async () => {
      const store = await make();
      await store.open();
      await store.create({ threadId: THREAD, domain: 'demo', fp: 'fp-a', createdAt: turn(0).at });
      expect(await store.get(THREAD)).toMatchObject({ threadId: THREAD, fp: 'fp-a', turns: [] });
      expect(await store.get('01JD8X3K2M0000000000000002')).toBeUndefined();
      expect(await store.get('../../etc/passwd')).toBeUndefined();
    });

    it('keeps only the last maxTurns turns and reports a missing thread', async () => {
      const store = await make();
      await store.open();
      await store.create({ threadId: THREAD, domain: 'demo', fp: 'fp', createdAt: turn(0).at });
      for (let n = 1; n <= 5; n++)
        expect(await store.appendTurn(THREAD, turn(n), { maxTurns: 3 })).toBe(true);
      expect((await store.get(THREAD))!.turns.map((t) => t.question)).toEqual(['q3', 'q4', 'q5']);
      expect(await store.appendTurn('01JD8X3K2M0000000000000009', turn(1), { maxTurns: 3 })).toBe(
        false,
      );
    });

    it('discards a thread only while it has no turns', async () => {
      const store = await make();
      await store.open();
      const empty = '01JD8X3K2M00000000000000B1';
      await store.create({ threadId: empty, domain: 'demo', fp: 'fp', createdAt: turn(0).at });
      await store.create({ threadId: THREAD, domain: 'demo', fp: 'fp', createdAt: turn(0).at });
      await store.appendTurn(THREAD, turn(1), { maxTurns: 3 });
      expect(await store.discard(empty)).toBe(true);
      expect(await store.discard(THREAD)).toBe(false);
      expect(await store.discard('01JD8X3K2M0000000000000009')).toBe(false);
      expect(await store.get(empty)).toBeUndefined();
      expect((await store.get(THREAD))!.turns).toHaveLength(1);
    });

    it('prunes threads by count (oldest first)', async () => {
      const store = await make();
      await store.open();
      const ids = [
        '01JD8X3K2M00000000000000A1',
        '01JD8X3K2M00000000000000A2',
        '01JD8X3K2M00000000000000A3',
      ];
      for (const [i, threadId] of ids.entries()) {
        await store.create({ threadId, domain: 'demo', fp: 'fp', createdAt: turn(i).at });
        // File mtimes need to differ for the file store to know the order.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await store.prune({ updatedBefore: '2000-01-01T00:00:00.000Z', maxThreads: 2 })).toBe(
        1,
      );
      expect(await store.get(ids[0]!)).toBeUndefined();
      expect(await store.get(ids[2]!)).toBeDefined();
    });
  });
}

describe('file thread store', () => {
  it('keeps threads for a new process and removes crash leftovers when it opens', async () => {
    const dir = join(await tempDir(), 'threads');
    const before = fileThreadStore(dir);
    await before.open();
    await before.create({ threadId: THREAD, domain: 'demo', fp: 'fp', createdAt: turn(0).at });
    await before.appendTurn(THREAD, turn(1), { maxTurns: 10 });
    await writeFile(join(dir, `${THREAD}.json.4242.17.tmp`), '{"half":');
    const after = fileThreadStore(dir);
    await after.open();
    expect((await after.get(THREAD))!.turns).toHaveLength(1);
    expect(await readdir(dir)).toEqual([`${THREAD}.json`]);
  });

  it('refuses to open where it cannot write', async () => {
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, 'not a folder');
    await expect(fileThreadStore(join(file, 'threads')).open()).rejects.toThrow(/ENOTDIR|EEXIST/);
  });

  it('prunes threads not updated since the cutoff', async () => {
    const store = fileThreadStore(join(await tempDir(), 'threads'));
    await store.open();
    await store.create({ threadId: THREAD, domain: 'demo', fp: 'fp', createdAt: turn(0).at });
    expect(
      await store.prune({
        updatedBefore: new Date(Date.now() + 60_000).toISOString(),
        maxThreads: 100,
      }),
    ).toBe(1);
    expect(await store.get(THREAD)).toBeUndefined();
  });
});

const jobStores = {
  memory: async () => memoryJobStore(),
  file: async () => fileJobStore(join(await tempDir(), 'exports')),
};
for (const [name, make] of Object.entries(jobStores)) {
  describe(`${name} job store`, () => {
    it('hands each queued job to exactly one of several concurrent claims, oldest first', async () => {
      const store = await make();
      await store.open();
      for (let n = 1; n <= 3; n++) await store.insert(job(n, `site-${n}`));
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.claim(`worker-${i}`, '2026-01-01T00:00:01.000Z')),
      );
      const claimed = claims.filter((c) => c !== undefined);
      expect(claimed.map((c) => c.jobId).sort()).toEqual([
        job(1).jobId,
        job(2).jobId,
        job(3).jobId,
      ]);
      expect(new Set(claimed.map((c) => c.workerId)).size).toBe(3);
      expect((await store.list({ status: ['running'] })).length).toBe(3);
    });

    it('never runs two jobs of one domain at once', async () => {
      const store = await make();
      await store.open();
      await store.insert(job(1));
      await store.insert(job(2));
      expect((await store.claim('w', 'now'))!.jobId).toBe(job(1).jobId);
      expect(await store.claim('w', 'now')).toBeUndefined();
      await store.update(job(1).jobId, { status: 'completed' });
      expect((await store.claim('w', 'now'))!.jobId).toBe(job(2).jobId);
    });

    it('updates, lists by organisation and deletes', async () => {
      const store = await make();
      await store.open();
      await store.insert(job(1));
      await store.insert({ ...job(2), org: 'other' });
      expect(await store.update(job(1).jobId, { progress: 50 })).toMatchObject({ progress: 50 });
      expect(await store.update('se_01JD8X3K2M0000000000000099', { progress: 50 })).toBeUndefined();
      expect((await store.list({ status: ['queued'], org: 'other' })).map((j) => j.jobId)).toEqual([
        job(2).jobId,
      ]);
      await store.delete(job(1).jobId);
      expect(await store.get(job(1).jobId)).toBeUndefined();
    });
  });
}

describe('file job store', () => {
  it('finds its jobs again after a restart', async () => {
    const dir = join(await tempDir(), 'exports');
    const before = fileJobStore(dir);
    await before.open();
    await before.insert(job(1));
    await before.claim('w', 'now');
    const after = fileJobStore(dir);
    await after.open();
    expect(await after.get(job(1).jobId)).toMatchObject({ status: 'running', workerId: 'w' });
  });
});

const rateStores = {
  memory: async () => memoryRateLimitStore(),
  file: async () => fileRateLimitStore(join(await tempDir(), 'rate-limits.json')),
};
for (const [name, make] of Object.entries(rateStores)) {
  describe(`${name} rate-limit store`, () => {
    it('counts concurrent hits atomically and starts a new window when the old one ends', async () => {
      const store = await make();
      await store.open();
      const counts = await Promise.all(
        Array.from({ length: 50 }, () => store.increment('k', 1000, 5000)),
      );
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      expect(counts[0]!.resetAt).toBe(6000);
      expect(await store.increment('other', 1000, 5500)).toEqual({ count: 1, resetAt: 6500 });
      expect(await store.increment('k', 1000, 6000)).toEqual({ count: 1, resetAt: 7000 });
      await store.close();
    });
  });
}

describe('file rate-limit store', () => {
  it('keeps the counters across a restart', async () => {
    const file = join(await tempDir(), 'rate-limits.json');
    const before = fileRateLimitStore(file);
    await before.open();
    for (let i = 0; i < 7; i++) await before.increment('org:demo', 60_000, 1000);
    await before.close();
    const after = fileRateLimitStore(file);
    await after.open();
    expect(await after.increment('org:demo', 60_000, 2000)).toEqual({ count: 8, resetAt: 61_000 });
    await after.close();
  });
});

describe('signing key stores', () => {
  it('keep the first key they were given', async () => {
    const file = join(await tempDir(), 'exports', '.signing-key');
    for (const store of [memorySigningKeyStore(), fileSigningKeyStore(file)]) {
      const first = await store.getOrCreate(Buffer.alloc(32, 1));
      expect(await store.getOrCreate(Buffer.alloc(32, 2))).toEqual(first);
    }
  });

  it('agree on one key when two processes start together', async () => {
    const file = join(await tempDir(), 'exports', '.signing-key');
    await mkdir(join(file, '..'), { recursive: true });
    const keys = await Promise.all(
      [1, 2, 3, 4].map((n) => fileSigningKeyStore(file).getOrCreate(Buffer.alloc(32, n))),
    );
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1);
    // Only the owner may read it.
    expect(spawnSync('stat', ['-c', '%a', file]).stdout.toString().trim()).toBe('600');
  });
});

describe('file thread store cache', () => {
  it('keeps only the most recently used threads in memory', async () => {
    const dir = join(await tempDir(), 'threads');
    const store = fileThreadStore(dir, { cacheSize: 2 });
    await store.open();
    const ids = [
      '01JD8X3K2M00000000000000B1',
      '01JD8X3K2M00000000000000B2',
      '01JD8X3K2M00000000000000B3',
    ];
    for (const threadId of ids)
      await store.create({ threadId, domain: 'demo', fp: 'fp', createdAt: turn(0).at });
    // With the files gone, only what the cache still holds can be found.
    const { rm } = await import('node:fs/promises');
    for (const threadId of ids) await rm(join(dir, `${threadId}.json`));
    expect(await store.get(ids[0]!)).toBeUndefined();
    expect(await store.get(ids[1]!)).toBeDefined();
    expect(await store.get(ids[2]!)).toBeDefined();
  });
});
