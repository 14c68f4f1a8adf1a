import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ThreadTurn {
  messageId: string;
  question: string;
  answer: string;
  sources: string[];
  at: string;
}

export interface ThreadRecord {
  threadId: string;
  domain: string;
  fp: string;
  createdAt: string;
  updatedAt: string;
  turns: ThreadTurn[];
}

export interface ThreadStore {
  get(threadId: string): Promise<ThreadRecord | undefined>;
  /** Records the thread in memory at once; the promise settles when it is on disk. */
  save(thread: ThreadRecord): Promise<void>;
}

/** Thread ids are ULIDs; anything else is unknown, which also keeps ids out of file paths. */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const isThreadId = (value: string): boolean => ULID.test(value);

/**
 * Threads kept in memory and, when `dir` is given, one JSON file each under `dir`, written to a
 * temporary file and renamed so a crash never leaves half a thread.
 */
export function createThreadStore(dir?: string): ThreadStore {
  const cache = new Map<string, ThreadRecord>();
  let ready: Promise<unknown> | undefined;
  return {
    async get(threadId) {
      if (!isThreadId(threadId)) return undefined;
      const cached = cache.get(threadId);
      if (cached || !dir) return cached;
      try {
        const thread = JSON.parse(await readFile(join(dir, `${threadId}.json`), 'utf8')) as ThreadRecord;
        cache.set(threadId, thread);
        return thread;
      } catch {
        return undefined;
      }
    },
    async save(thread) {
      if (!isThreadId(thread.threadId)) throw new Error(`Not a thread id: ${thread.threadId}`);
      cache.set(thread.threadId, thread);
      if (!dir) return;
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      const file = join(dir, `${thread.threadId}.json`);
      const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temp, JSON.stringify(thread));
      await rename(temp, file);
    },
  };
}
