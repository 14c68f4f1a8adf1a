import { mkdir, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { describeIssues, insightsThreadSchema } from '../../protocol/index.js';
import { isHashedFingerprint, hashFingerprint } from './fingerprint.js';
import { LruMap, probeWritable, removeTempFiles, writeFileDurably } from './fs.js';
import type { NewThread, ThreadRecord, ThreadStore, ThreadTurn } from './types.js';

/** Thread ids are ULIDs; anything else is unknown, which also keeps ids out of file paths. */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const isThreadId = (value: string): boolean => ULID.test(value);

/** A stored thread: the conversation the owner reads (insights), with its reader's hashed fp. */
const threadSchema = insightsThreadSchema.extend({
  threadId: z.string().regex(ULID),
  fp: z.string(),
});

/** A stored thread (a file, a database row) as a thread, or why it is not one. */
export function parseThreadRecord(
  json: unknown,
): { ok: true; value: ThreadRecord } | { ok: false; error: string } {
  const parsed = threadSchema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: describeIssues(parsed.error) };
}

/** A thread file's text as the thread `threadId`, or why it is not one (half-written, edited by hand). */
export function parseThreadFile(
  text: string,
  threadId: string,
): { ok: true; value: ThreadRecord } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const thread = parseThreadRecord(json);
  if (thread.ok && thread.value.threadId !== threadId)
    return { ok: false, error: `it holds thread ${thread.value.threadId}` };
  return thread;
}

const withTurn = (thread: ThreadRecord, turn: ThreadTurn, maxTurns: number): ThreadRecord => ({
  ...thread,
  updatedAt: turn.at,
  turns: [...thread.turns, turn].slice(-Math.max(1, maxTurns)),
});

/** Threads in this process only (no `--data`): bounded by retention like any other store. */
export function memoryThreadStore(): ThreadStore {
  const threads = new Map<string, ThreadRecord>();
  return {
    async open() {},
    async create(thread) {
      threads.set(thread.threadId, { ...thread, updatedAt: thread.createdAt, turns: [] });
    },
    async get(threadId) {
      return threads.get(threadId);
    },
    async appendTurn(threadId, turn, { maxTurns }) {
      const thread = threads.get(threadId);
      if (!thread) return false;
      // Re-inserting keeps the map in update order, which prune relies on.
      threads.delete(threadId);
      threads.set(threadId, withTurn(thread, turn, maxTurns));
      return true;
    },
    async discard(threadId) {
      return threads.get(threadId)?.turns.length === 0 && threads.delete(threadId);
    },
    async hashFingerprints(keyHex) {
      let changed = 0;
      for (const thread of threads.values())
        if (!isHashedFingerprint(thread.fp)) {
          thread.fp = hashFingerprint(Buffer.from(keyHex, 'hex'), thread.fp);
          changed++;
        }
      return changed;
    },
    async prune({ updatedBefore, maxThreads }) {
      let removed = 0;
      for (const [id, thread] of threads) {
        if (thread.updatedAt < updatedBefore || threads.size > maxThreads) {
          threads.delete(id);
          removed++;
        }
      }
      return removed;
    },
    async close() {},
  };
}

export interface FileThreadStoreOptions {
  /** Threads kept in memory for quick follow-ups. @default 1000 */
  cacheSize?: number;
}

/**
 * One JSON file per thread under `dir`, written durably (temporary file, fsync, rename), with the
 * most recently used threads cached in memory.
 */
export function fileThreadStore(dir: string, options: FileThreadStoreOptions = {}): ThreadStore {
  const cache = new LruMap<string, ThreadRecord>(options.cacheSize ?? 1000);
  const fileOf = (threadId: string) => join(dir, `${threadId}.json`);
  // Writes to one thread run one after another, so a slow write never overwrites a newer turn.
  const writing = new Map<string, Promise<unknown>>();
  const write = (thread: ThreadRecord) => {
    const previous = writing.get(thread.threadId) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(() => writeFileDurably(fileOf(thread.threadId), JSON.stringify(thread)));
    writing.set(thread.threadId, next);
    return next.finally(() => {
      if (writing.get(thread.threadId) === next) writing.delete(thread.threadId);
    });
  };
  const read = async (threadId: string): Promise<ThreadRecord | undefined> => {
    if (!isThreadId(threadId)) return undefined;
    const cached = cache.get(threadId);
    if (cached) return cached;
    let text: string;
    try {
      text = await readFile(fileOf(threadId), 'utf8');
    } catch {
      return undefined;
    }
    const thread = parseThreadFile(text, threadId);
    if (!thread.ok) {
      // Left on disk for a look; the reader's follow-up gets 404 thread_not_found and a new thread.
      console.error(
        `[docs-assistant] thread file ${fileOf(threadId)} is unreadable (${thread.error}); the thread is treated as unknown.`,
      );
      return undefined;
    }
    cache.set(threadId, thread.value);
    return thread.value;
  };

  return {
    async open() {
      await mkdir(dir, { recursive: true });
      await removeTempFiles(dir);
      await probeWritable(dir);
    },
    async create(thread: NewThread) {
      if (!isThreadId(thread.threadId)) throw new Error(`Not a thread id: ${thread.threadId}`);
      const record: ThreadRecord = { ...thread, updatedAt: thread.createdAt, turns: [] };
      await write(record);
      cache.set(record.threadId, record);
    },
    get: read,
    async appendTurn(threadId, turn, { maxTurns }) {
      const thread = await read(threadId);
      if (!thread) return false;
      const next = withTurn(thread, turn, maxTurns);
      await write(next);
      cache.set(threadId, next);
      return true;
    },
    async discard(threadId) {
      const thread = await read(threadId);
      if (thread?.turns.length !== 0) return false;
      // After any write still under way, so the file it would leave is removed too.
      await writing.get(threadId)?.catch(() => {});
      cache.delete(threadId);
      await rm(fileOf(threadId), { force: true });
      return true;
    },
    async hashFingerprints(keyHex) {
      // Once per data folder: the marker says every thread file was rewritten with a hashed fp.
      const marker = join(dir, '.fingerprints-hashed');
      if (await stat(marker).catch(() => undefined)) return 0;
      const key = Buffer.from(keyHex, 'hex');
      let changed = 0;
      for (const name of await readdir(dir)) {
        const id = name.replace(/\.json$/, '');
        if (!isThreadId(id) || name === id) continue;
        const thread = await read(id);
        if (!thread || isHashedFingerprint(thread.fp)) continue;
        const next = { ...thread, fp: hashFingerprint(key, thread.fp) };
        await write(next);
        // prune reads a thread's age from its file's mtime: the rewrite must not make it young.
        const updated = new Date(thread.updatedAt);
        await utimes(fileOf(id), updated, updated).catch(() => {});
        cache.set(id, next);
        changed++;
      }
      await writeFileDurably(marker, new Date().toISOString());
      return changed;
    },
    async prune({ updatedBefore, maxThreads }) {
      const cutoff = Date.parse(updatedBefore);
      const files: { id: string; mtime: number }[] = [];
      for (const name of await readdir(dir)) {
        const id = name.replace(/\.json$/, '');
        if (!isThreadId(id) || name === id) continue;
        // A thread file is rewritten on every turn: its mtime is its updatedAt.
        const info = await stat(join(dir, name)).catch(() => undefined);
        if (info) files.push({ id, mtime: info.mtimeMs });
      }
      files.sort((a, b) => b.mtime - a.mtime);
      let removed = 0;
      for (const [rank, file] of files.entries()) {
        if (file.mtime < cutoff || rank >= maxThreads) {
          cache.delete(file.id);
          await rm(fileOf(file.id), { force: true });
          removed++;
        }
      }
      return removed;
    },
    async close() {
      await Promise.allSettled(writing.values());
    },
  };
}
