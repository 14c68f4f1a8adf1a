import { expect, it } from 'vitest';
import type { InsightFeedback, InsightStore, InsightTurn } from '../../src/server/stores/index.js';

export const insightTurn = (overrides: Partial<InsightTurn> = {}): InsightTurn => ({
  domain: 'demo',
  at: '2026-11-20T10:00:00.000Z',
  question: 'How do I install it?',
  outcome: 'answered',
  mode: 'quoted',
  cited: ['installation'],
  currentPath: 'index',
  firstByteMs: 12,
  totalMs: 40,
  threadId: '01JD8X3K2M0000000000000001',
  ...overrides,
});

export const insightFeedback = (overrides: Partial<InsightFeedback> = {}): InsightFeedback => ({
  domain: 'demo',
  at: '2026-11-20T10:01:00.000Z',
  threadId: '01JD8X3K2M0000000000000001',
  messageId: 'msg_1',
  rating: 'up',
  reasons: [],
  ...overrides,
});

const ALL = { since: '2026-01-01T00:00:00.000Z', until: '2027-01-01T00:00:00.000Z' };

/** The contract every insight store keeps (memory, files, PostgreSQL): run by each store's tests. */
export function insightStoreContract(make: () => Promise<InsightStore>) {
  it('lists a domain’s turns in its range only, oldest first', async () => {
    const store = await make();
    await store.open();
    await store.recordTurn(insightTurn({ at: '2026-11-21T09:00:00.000Z', question: 'later' }));
    await store.recordTurn(insightTurn({ at: '2026-11-19T09:00:00.000Z', question: 'earlier' }));
    await store.recordTurn(insightTurn({ domain: 'other', question: 'elsewhere' }));
    await store.recordTurn(insightTurn({ at: '2026-10-01T09:00:00.000Z', question: 'too old' }));
    const { turns } = await store.list('demo', {
      since: '2026-11-01T00:00:00.000Z',
      until: '2026-11-22T00:00:00.000Z',
    });
    expect(turns.map((turn) => turn.question)).toEqual(['earlier', 'later']);
    expect(turns[0]).toEqual(insightTurn({ at: '2026-11-19T09:00:00.000Z', question: 'earlier' }));
    await store.close();
  });

  it('keeps the latest thumbs per answer, so a thumbs-down with reasons replaces the plain one', async () => {
    const store = await make();
    await store.open();
    await store.recordFeedback(insightFeedback({ rating: 'down' }));
    await store.recordFeedback(
      insightFeedback({
        rating: 'down',
        at: '2026-11-20T10:02:00.000Z',
        reasons: ['incorrect', 'sources'],
        comment: 'The flag is wrong',
        question: 'How do I install it?',
      }),
    );
    await store.recordFeedback(insightFeedback({ messageId: 'msg_2', rating: 'up' }));
    const { feedback } = await store.list('demo', ALL);
    expect(feedback).toHaveLength(2);
    expect(feedback.find((item) => item.messageId === 'msg_1')).toMatchObject({
      rating: 'down',
      reasons: ['incorrect', 'sources'],
      comment: 'The flag is wrong',
      question: 'How do I install it?',
    });
    await store.close();
  });

  it('deletes one domain’s records and leaves the others', async () => {
    const store = await make();
    await store.open();
    await store.recordTurn(insightTurn());
    await store.recordTurn(insightTurn({ domain: 'other' }));
    await store.recordFeedback(insightFeedback());
    expect(await store.deleteDomain('demo')).toBe(2);
    expect(await store.list('demo', ALL)).toEqual({ turns: [], feedback: [] });
    expect((await store.list('other', ALL)).turns).toHaveLength(1);
    await store.close();
  });

  it('prunes whole days before the cutoff and keeps the rest', async () => {
    const store = await make();
    await store.open();
    await store.recordTurn(insightTurn({ at: '2026-08-01T12:00:00.000Z', question: 'old' }));
    await store.recordFeedback(insightFeedback({ at: '2026-08-01T12:00:00.000Z' }));
    await store.recordTurn(insightTurn({ at: '2026-11-20T12:00:00.000Z', question: 'new' }));
    expect(await store.prune('2026-09-01T00:00:00.000Z')).toBe(2);
    const { turns, feedback } = await store.list('demo', ALL);
    expect(turns.map((turn) => turn.question)).toEqual(['new']);
    expect(feedback).toEqual([]);
    await store.close();
  });
}
