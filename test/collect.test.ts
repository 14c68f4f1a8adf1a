import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../src/server/answering/collect.js';

/**
 * A first start of a large site collects its index build's garbage at once (retrieval.ts), so the
 * heap it grew is not still full of it while the index is loaded and the first questions answered.
 */
describe('collecting garbage on demand', () => {
  it('frees what nothing holds any more, at once', async () => {
    const held = (() => new WeakRef({ words: Array.from({ length: 10_000 }, String) }))();
    // A WeakRef's target stays alive until the job that made it, or read it, ends.
    await setImmediate();
    expect(held.deref()).toBeDefined();
    await setImmediate();
    collectGarbage();
    expect(held.deref()).toBeUndefined();
  });
});
