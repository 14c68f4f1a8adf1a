import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** A page to parse, as `parsePage` (`docs`) or `parseHtmlPage` (`site`) takes it. */
export interface ParseTask {
  kind: 'docs' | 'site';
  /** Folder-relative file. */
  file: string;
  /** The file to read: the thread reads it, so its text never passes through the server's thread. */
  path: string;
  language: string;
  /** Send the page back as a page store keeps it (page-format.ts `packPage`), not whole. */
  packed: boolean;
}

/**
 * What a parse thread sends back for a page (in a list of those it parsed since it last sent): the
 * page (or a built page's reason to skip it), the message of what the parse threw, or `inThread`
 * when the page could not be sent (parse it here instead).
 */
export type ParseReply<Page> =
  { id: number; page: Page } | { id: number; error: string } | { id: number; inThread: true };

/**
 * Parses pages on worker threads: one folder read at a time, so a 20,000-page first start uses
 * every core, and the syntax trees each page's parse throws away are collected in the threads'
 * heaps, not the server's (docs/scale-history.md).
 */
export interface ParsePool<Page> {
  /** `task` parsed on a thread, or by `inThread` here when no thread can take it. */
  parse(task: ParseTask, inThread: () => Page): Promise<Page>;
  /** Pages parsed on threads so far. */
  readonly parsedOnThreads: number;
  /** Stops the threads; a parse still waiting for one is refused. */
  close(): Promise<void>;
}

/** Pages parsed here before the threads start: a re-read after an edit parses one or two. */
const IN_THREAD_FIRST = 8;
/**
 * Pages handed to one thread at a time, so it never waits for the next between two: the server's
 * thread, which sends them and takes the results, may wait milliseconds for a core on a loaded
 * machine. With 2, each thread sat idle for a fifth to a third of a 20,000-page first start.
 */
const IN_FLIGHT = 32;

/** Threads that parse pages by default: one per core (`os.availableParallelism()`). */
export const defaultParseThreads = () => availableParallelism();

/**
 * The thread's module, beside this one once built to JavaScript (dist/, the CLI bundle's folder).
 * Run from the TypeScript sources (vitest) there is none: pages are then parsed in this thread.
 */
function workerFile(): string | undefined {
  try {
    const file = fileURLToPath(import.meta.resolve('./parse-worker.js'));
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

interface Pending<Page> {
  id: number;
  task: ParseTask;
  inThread: () => Page;
  resolve: (page: Page) => void;
  reject: (error: Error) => void;
}

interface Thread<Page> {
  worker: Worker;
  running: Map<number, Pending<Page>>;
}

/**
 * A pool of `threads` parse threads, started when more than a few pages are parsed. With no
 * threads (0), or no thread module to run, every page is parsed in this thread, as before. A
 * thread that fails (it could not start, or died) hands its pages back to this thread, so a page
 * parses to the same page, or the same error, either way.
 */
export function parsePool<Page>(
  threads = defaultParseThreads(),
  /** Pages parsed in this thread before the threads start. */
  { inThreadFirst = IN_THREAD_FIRST }: { inThreadFirst?: number } = {},
): ParsePool<Page> {
  let file = threads > 0 ? workerFile() : undefined;
  const pool: Thread<Page>[] = [];
  const queue: Pending<Page>[] = [];
  let calls = 0;
  let nextId = 0;
  let parsedOnThreads = 0;
  let closed = false;

  const runHere = (pending: Pending<Page>) => {
    try {
      pending.resolve(pending.inThread());
    } catch (error) {
      pending.reject(error as Error);
    }
  };
  const dispatch = () => {
    for (const thread of pool) {
      while (thread.running.size < IN_FLIGHT && queue.length > 0) {
        const pending = queue.shift()!;
        thread.running.set(pending.id, pending);
        thread.worker.postMessage({ id: pending.id, ...pending.task });
      }
    }
    // Every thread gone: what is left is parsed here.
    if (pool.length === 0) queue.splice(0).forEach(runHere);
  };
  const lose = (thread: Thread<Page>) => {
    const at = pool.indexOf(thread);
    if (at === -1) return;
    pool.splice(at, 1);
    // Later pages go to the threads left, or are parsed here: never a thread started again.
    if (pool.length === 0) file = undefined;
    const running = [...thread.running.values()];
    thread.running.clear();
    if (!closed) running.forEach(runHere);
    void thread.worker.terminate();
    dispatch();
  };
  const start = (path: string) => {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(path);
      const thread: Thread<Page> = { worker, running: new Map() };
      worker.on('message', (replies: ParseReply<Page>[]) => {
        for (const reply of replies) {
          const pending = thread.running.get(reply.id);
          if (!pending) continue;
          thread.running.delete(reply.id);
          if ('page' in reply) {
            parsedOnThreads++;
            pending.resolve(reply.page);
          } else if ('error' in reply) pending.reject(new Error(reply.error));
          else runHere(pending);
        }
        dispatch();
      });
      worker.on('error', () => lose(thread));
      worker.on('exit', () => lose(thread));
      pool.push(thread);
    }
  };

  return {
    parse(task, inThread) {
      calls++;
      if (closed) return Promise.reject(new Error('The page parser was stopped.'));
      if (!file || calls <= inThreadFirst) {
        try {
          return Promise.resolve(inThread());
        } catch (error) {
          return Promise.reject(error as Error);
        }
      }
      if (pool.length === 0) start(file);
      return new Promise<Page>((resolve, reject) => {
        queue.push({ id: nextId++, task, inThread, resolve, reject });
        dispatch();
      });
    },
    get parsedOnThreads() {
      return parsedOnThreads;
    },
    async close() {
      closed = true;
      const refused = queue.splice(0);
      const stopping = pool.splice(0);
      for (const pending of [...refused, ...stopping.flatMap((t) => [...t.running.values()])])
        pending.reject(new Error('The page parser was stopped.'));
      await Promise.all(stopping.map((thread) => thread.worker.terminate()));
    },
  };
}
