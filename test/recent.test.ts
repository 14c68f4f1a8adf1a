import { describe, expect, it } from 'vitest';
import { Recent } from '../src/server/answering/recent.js';

describe('what a retriever keeps of the keys used last', () => {
  it('holds at most its size, and always the last half of it', () => {
    const recent = new Recent<number, string>(10);
    for (let n = 0; n < 1000; n++) {
      recent.set(n, `v${n}`);
      expect(recent.size).toBeLessThanOrEqual(10);
      // The last five set are always there.
      for (let back = 0; back < Math.min(5, n + 1); back++)
        expect(recent.get(n - back)).toBe(`v${n - back}`);
    }
    // Long gone.
    expect(recent.get(0)).toBeUndefined();
    expect(recent.get(989)).toBeUndefined();
  });

  it('keeps a key read again while others come and go', () => {
    const recent = new Recent<string, number>(4);
    recent.set('kept', 1);
    for (let n = 0; n < 100; n++) {
      recent.set(`other ${n}`, n);
      expect(recent.get('kept')).toBe(1);
    }
    expect(recent.get('other 0')).toBeUndefined();
  });

  it('tells a value that is false or null from one never set', () => {
    const recent = new Recent<string, boolean | null>(4);
    recent.set('no', false);
    recent.set('none', null);
    expect(recent.get('no')).toBe(false);
    expect(recent.get('none')).toBeNull();
    expect(recent.get('never')).toBeUndefined();
  });
});
