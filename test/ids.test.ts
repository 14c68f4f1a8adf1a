import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newUlid } from '../src/server/ids.js';
import { isThreadId } from '../src/server/stores/threads.js';

describe('newUlid', () => {
  it('makes valid, unique ULIDs that carry their time and use the whole alphabet at random', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    // More than one block of pooled random bytes, so a refill is crossed.
    const ids = Array.from({ length: 10_000 }, () => newUlid(now));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 50)) {
      expect(isThreadId(id)).toBe(true);
      expect(decodeTime(id)).toBe(now);
    }
    // The random part (last 16 characters): each of the 32 characters about equally often.
    const counts = new Map<string, number>();
    for (const id of ids)
      for (const char of id.slice(10)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(32);
    const expected = (ids.length * 16) / 32;
    for (const count of counts.values())
      expect(Math.abs(count - expected) / expected).toBeLessThan(0.1);
  });
});
