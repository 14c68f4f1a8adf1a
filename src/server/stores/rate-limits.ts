import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from './fs.js';
import type { RateLimitStore } from './types.js';

interface Window {
  start: number;
  windowMs: number;
  count: number;
}

/** Counters in a Map, with finished windows swept now and then so a flood of distinct keys cannot grow it forever. */
function counters() {
  const windows = new Map<string, Window>();
  let lastSweep = 0;
  return {
    windows,
    increment(key: string, windowMs: number, now: number) {
      if (now - lastSweep > 60_000) {
        for (const [k, w] of windows) if (now - w.start >= w.windowMs) windows.delete(k);
        lastSweep = now;
      }
      let window = windows.get(key);
      if (!window || now - window.start >= window.windowMs) {
        window = { start: now, windowMs, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      return { count: window.count, resetAt: window.start + window.windowMs };
    },
  };
}

export function memoryRateLimitStore(): RateLimitStore {
  const { increment } = counters();
  return {
    async open() {},
    increment: async (key, windowMs, now) => increment(key, windowMs, now),
    async close() {},
  };
}

const savedSchema = z.record(
  z.object({ start: z.number(), windowMs: z.number(), count: z.number() }),
);

/**
 * Counters in memory, saved to `file` at most every `flushMs` and on close, so a restart does not
 * hand every client a fresh quota. A kill -9 loses at most the last `flushMs` of hits.
 */
export function fileRateLimitStore(
  file: string,
  { flushMs = 1000 }: { flushMs?: number } = {},
): RateLimitStore {
  const state = counters();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    timer = undefined;
    const snapshot = JSON.stringify(Object.fromEntries(state.windows));
    flushing = flushing
      .then(() => writeFileDurably(file, snapshot))
      .catch((error: unknown) =>
        console.error('[docs-assistant] could not save rate-limit counters:', error),
      );
    return flushing;
  };
  return {
    async open() {
      await mkdir(dirname(file), { recursive: true });
      let text: string | undefined;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        // first start
      }
      const parsed = text === undefined ? undefined : savedSchema.safeParse(JSON.parse(text));
      if (parsed?.success)
        for (const [key, window] of Object.entries(parsed.data)) state.windows.set(key, window);
      // Proves the folder takes writes now rather than on the first request.
      await flush();
    },
    async increment(key, windowMs, now) {
      const result = state.increment(key, windowMs, now);
      timer ??= setTimeout(flush, flushMs).unref();
      return result;
    },
    async close() {
      if (timer) {
        clearTimeout(timer);
        await flush();
      }
      await flushing;
    },
  };
}
