import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInsightsClient } from '../src/client/insights.js';
import { insightsReportSchema } from '../src/protocol/index.js';
import { DEMO } from '../src/server/config.js';
import { buildReport, wordsOf } from '../src/server/insights/report.js';
import { fileInsightStore, memoryInsightStore } from '../src/server/stores/index.js';
import { insightFeedback, insightStoreContract, insightTurn } from './helpers/insight-store.js';
import { askBody, demoApp, post, tempDir, type TestApp } from './helpers/server.js';

const FEEDBACK_URL = `http://test/discovery/v1/assistant/${DEMO.domain}/feedback`;
const INSIGHTS_URL = `http://test/v1/insights/${DEMO.domain}`;

const admin = (app: TestApp, url = INSIGHTS_URL, method = 'GET', key: string = DEMO.adminKey) =>
  app.request(url, { method, headers: { Authorization: `Bearer ${key}` } });

/** Asks a real question and reads the answer to its end; the thread and message ids it got. */
async function ask(app: TestApp, question: string, fp = 'reader-1') {
  const response = await post(app, askBody(question, { fp }));
  expect(response.status).toBe(200);
  const raw = await response.text();
  const messageId = /"messageId":"(msg_[^"]+)"/.exec(raw)![1]!;
  return { threadId: response.headers.get('x-thread-id')!, messageId };
}

describe('insight stores', () => {
  describe('memory', () => insightStoreContract(async () => memoryInsightStore()));
  describe('files', () => insightStoreContract(async () => fileInsightStore(await tempDir())));

  it('files: a line cut by a crash is skipped and the rest of the day still counts', async () => {
    const dir = await tempDir();
    const store = fileInsightStore(dir);
    await store.open();
    await store.recordTurn(insightTurn({ question: 'kept' }));
    const [file] = (await readdir(dir)).filter((name) => name.endsWith('.jsonl'));
    await writeFile(join(dir, file!), `${await readFile(join(dir, file!), 'utf8')}{"domain":"de`);
    await store.recordTurn(insightTurn({ question: 'after', at: '2026-11-20T11:00:00.000Z' }));
    const { turns } = await store.list('demo', {
      since: '2026-11-01T00:00:00.000Z',
      until: '2026-12-01T00:00:00.000Z',
    });
    expect(turns.map((turn) => turn.question)).toEqual(['kept']);
  });
});

describe('the insights report', () => {
  const range = { since: '2026-11-18T00:00:00.000Z', until: '2026-11-21T00:00:00.000Z' };

  it('groups unanswered questions by similar wording, most asked first, with the pages readers were on', () => {
    const report = buildReport(
      'demo',
      range,
      [
        insightTurn({
          question: 'Does it work with Svelte?',
          outcome: 'refused',
          currentPath: 'index',
        }),
        insightTurn({
          question: 'How do I use it with Vue?',
          outcome: 'refused',
          currentPath: 'installation',
        }),
        insightTurn({
          question: 'use with vue',
          outcome: 'unsure',
          currentPath: 'installation',
          at: '2026-11-20T11:00:00.000Z',
        }),
        insightTurn({ question: 'How do I install it?', outcome: 'answered' }),
        insightTurn({
          question: 'Vue support?',
          outcome: 'failed',
          currentPath: 'theming',
          at: '2026-11-20T12:00:00.000Z',
        }),
      ],
      [],
    );
    expect(report.unanswered.map((group) => [group.count, group.example])).toEqual([
      [3, 'Vue support?'],
      [1, 'Does it work with Svelte?'],
    ]);
    expect(report.unanswered[0]!.pages).toEqual([
      { path: 'installation', count: 2 },
      { path: 'theming', count: 1 },
    ]);
    expect(report.unanswered[0]!.outcomes).toEqual(['unsure', 'refused', 'failed']);
    expect(report.gapPages[0]).toEqual({
      path: 'installation',
      count: 2,
      example: 'How do I use it with Vue?',
    });
    expect(report.totals).toMatchObject({
      questions: 5,
      answered: 1,
      refused: 2,
      unsure: 1,
      failed: 1,
    });
    expect(report.days.map((day) => day.day)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
    expect(report.days[2]).toMatchObject({ answered: 1, refused: 2, failed: 1, unsure: 1 });
    expect(insightsReportSchema.safeParse(report).success).toBe(true);
  });

  it('reads "installing" and "install" as the same word, and ignores the little words', () => {
    expect([...wordsOf('How do I install it?')]).toEqual(['install']);
    expect([...wordsOf('installing the widget')]).toEqual(['install', 'widget']);
  });

  it('counts thumbs and their reasons', () => {
    const report = buildReport(
      'demo',
      range,
      [],
      [
        insightFeedback({ rating: 'down', reasons: ['incorrect'], comment: 'wrong flag' }),
        insightFeedback({ messageId: 'msg_2', rating: 'down', reasons: ['incorrect', 'unclear'] }),
        insightFeedback({ messageId: 'msg_3', rating: 'up' }),
      ],
    );
    expect(report.feedback).toMatchObject({
      up: 1,
      down: 2,
      reasons: { incorrect: 2, unclear: 1 },
    });
    expect(report.feedback.items[2]).toMatchObject({
      comment: 'wrong flag',
      threadId: insightFeedback().threadId,
    });
  });
});

describe('recording real answers', () => {
  const report = async (app: TestApp) =>
    insightsReportSchema.parse(await (await admin(app)).json());

  it('keeps each answer’s outcome, mode, page, cited pages, timings and thread for the owner', async () => {
    const dataDir = await tempDir();
    const app = await demoApp({ dataDir });
    const { threadId } = await ask(app, 'How do I install it?');
    await (
      await post(
        app,
        askBody('What is the airspeed of an unladen swallow?', {
          currentPath: '/docs/guides/theming',
        }),
      )
    ).text();
    await expect.poll(async () => (await report(app)).totals.questions).toBe(2);
    const { totals, citedPages, unanswered, gapPages } = await report(app);
    expect(totals).toMatchObject({ answered: 1, refused: 1 });
    expect(citedPages.map((page) => page.path)).toContain('/installation');
    expect(unanswered).toEqual([
      expect.objectContaining({
        example: 'What is the airspeed of an unladen swallow?',
        outcomes: ['refused'],
        pages: [{ path: '/guides/theming', count: 1 }],
      }),
    ]);
    expect(gapPages).toEqual([
      { path: '/guides/theming', count: 1, example: 'What is the airspeed of an unladen swallow?' },
    ]);
    await app.close();
    const [file] = (await readdir(join(dataDir, 'insights'))).filter((f) => f.startsWith('turns-'));
    const stored = (await readFile(join(dataDir, 'insights', file!), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(stored[0]).toMatchObject({
      outcome: 'answered',
      mode: 'quoted',
      threadId,
      question: 'How do I install it?',
    });
    expect(stored[0].firstByteMs).toBeGreaterThanOrEqual(0);
    expect(stored[0].totalMs).toBeGreaterThanOrEqual(stored[0].firstByteMs);
    // No IP address, no fingerprint: nothing that names the reader.
    expect(JSON.stringify(stored)).not.toMatch(/reader-1|127\.0\.0\.1|"fp"|"ip"/);
  });

  it('counts an answer that was not sure as unsure, among the questions the docs fall short on', async () => {
    const app = await demoApp({ dataDir: await tempDir() });
    await (await post(app, askBody('How do I change the launcher position?'))).text();
    await expect.poll(async () => (await report(app)).totals.questions).toBe(1);
    const { totals, unanswered } = await report(app);
    expect(totals).toMatchObject({ answered: 0, unsure: 1, refused: 0 });
    expect(unanswered).toEqual([
      expect.objectContaining({
        example: 'How do I change the launcher position?',
        outcomes: ['unsure'],
      }),
    ]);
    await app.close();
  });

  it('cuts a long question to 500 characters', async () => {
    const store = memoryInsightStore();
    const app = await demoApp({ stores: { insights: store } });
    const question = `How do I install it? ${'really '.repeat(200)}`;
    await ask(app, question);
    const range = { since: '2000-01-01T00:00:00.000Z', until: '3000-01-01T00:00:00.000Z' };
    await expect.poll(async () => (await store.list(DEMO.domain, range)).turns.length).toBe(1);
    const [turn] = (await store.list(DEMO.domain, range)).turns;
    expect(turn!.question).toBe(question.trim().slice(0, 500));
  });

  it('answers the reader when the insight store fails, and logs the failure', async () => {
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const store = memoryInsightStore();
      store.recordTurn = () => Promise.reject(new Error('disk full'));
      const app = await demoApp({ stores: { insights: store } });
      const response = await post(app, askBody('How do I install it?'));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('npm install');
      await expect
        .poll(() => errors.map((args) => args.map(String).join(' ')).join('\n'))
        .toContain('could not record a turn for insights: Error: disk full');
    } finally {
      console.error = original;
    }
  });

  it('records nothing with recording off', async () => {
    const app = await demoApp({ recordInsights: false });
    await ask(app, 'How do I install it?');
    await app.insights.settled();
    expect((await report(app)).totals.questions).toBe(0);
  });
});

describe('feedback on the wire', () => {
  const send = (app: TestApp, body: unknown, key: string = DEMO.assistantKey) =>
    post(app, body, { url: FEEDBACK_URL, key });

  it('takes a thumbs-down with a reason and a comment for the reader’s own answer (204), and the owner sees it', async () => {
    const app = await demoApp();
    const { threadId, messageId } = await ask(app, 'How do I install it?');
    const response = await send(app, {
      fp: 'reader-1',
      threadId,
      messageId,
      rating: 'down',
      reason: 'incorrect',
      comment: 'It says npm but we use pnpm',
    });
    expect(response.status).toBe(204);
    const report = insightsReportSchema.parse(await (await admin(app)).json());
    expect(report.feedback.down).toBe(1);
    expect(report.feedback.items[0]).toMatchObject({
      rating: 'down',
      reasons: ['incorrect'],
      comment: 'It says npm but we use pnpm',
      threadId,
      messageId,
      question: 'How do I install it?',
    });
  });

  it('refuses a thumbs for a thread of another reader as the message operation does (404 thread_not_found)', async () => {
    const app = await demoApp();
    const { threadId, messageId } = await ask(app, 'How do I install it?', 'reader-1');
    const response = await send(app, { fp: 'reader-2', threadId, messageId, rating: 'up' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'thread_not_found' });
    const followUp = await post(app, askBody('And with yarn?', { fp: 'reader-2', threadId }));
    expect(followUp.status).toBe(404);
    expect((await (await admin(app)).json()).feedback.items).toEqual([]);
  });

  it('names the field of a bad body: an unknown reason, a comment over 1,000 characters, a missing rating', async () => {
    const app = await demoApp();
    const base = { fp: 'a', threadId: '01JD8X3K2M0000000000000001', messageId: 'msg_1' };
    const problems = [
      { ...base, rating: 'down', reason: 'rude' },
      { ...base, rating: 'down', comment: 'x'.repeat(1001) },
      { ...base },
    ];
    for (const [body, field] of [
      [problems[0], 'reason'],
      [problems[1], 'comment'],
      [problems[2], 'rating'],
    ] as const) {
      const response = await send(app, body);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toContain(field);
    }
  });

  it('wants the assistant key: an admin key is the wrong kind, no key is unauthorised', async () => {
    const app = await demoApp();
    const body = { fp: 'a', threadId: '01JD8X3K2M0000000000000001', messageId: 'm', rating: 'up' };
    expect((await send(app, body, DEMO.adminKey)).status).toBe(403);
    expect((await post(app, body, { url: FEEDBACK_URL, key: null })).status).toBe(401);
  });

  it('is rate-limited with the message operation’s limits', async () => {
    const app = await demoApp({ limits: { orgPerHour: 2, ipPerOrgHour: 100 } });
    const { threadId, messageId } = await ask(app, 'How do I install it?');
    const statuses = [];
    for (let i = 0; i < 2; i++)
      statuses.push(
        (await send(app, { fp: 'reader-1', threadId, messageId, rating: 'up' })).status,
      );
    expect(statuses).toEqual([204, 429]);
  });

  it('with recording off, accepts the thumbs and keeps nothing', async () => {
    const app = await demoApp({ recordInsights: false });
    const { threadId, messageId } = await ask(app, 'How do I install it?');
    expect((await send(app, { fp: 'reader-1', threadId, messageId, rating: 'up' })).status).toBe(
      204,
    );
    const report = insightsReportSchema.parse(await (await admin(app)).json());
    expect(report.totals.questions).toBe(0);
    expect(report.feedback.items).toEqual([]);
  });
});

describe('the owner’s insights operations', () => {
  it('answer the admin key of the domain’s organisation only', async () => {
    const app = await demoApp({
      orgs: [
        { id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey, DEMO.adminKey] },
        { id: 'other', plan: 'free', keys: ['svc_other_admin'] },
      ],
    });
    expect((await admin(app, INSIGHTS_URL, 'GET', DEMO.assistantKey)).status).toBe(403);
    expect((await admin(app, INSIGHTS_URL, 'GET', 'svc_other_admin')).status).toBe(403);
    expect((await app.request(INSIGHTS_URL)).status).toBe(401);
    expect((await admin(app, 'http://test/v1/insights/nope')).status).toBe(404);
    expect((await admin(app)).status).toBe(200);
  });

  it('refuses a range it cannot read, naming the parameter', async () => {
    const app = await demoApp();
    const response = await admin(app, `${INSIGHTS_URL}?since=yesterday`);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/^since:/);
    expect((await admin(app, `${INSIGHTS_URL}?since=2026-11-02&until=2026-11-01`)).status).toBe(
      400,
    );
  });

  it('let the owner read a conversation without learning who had it, and delete a domain’s insights', async () => {
    const app = await demoApp();
    const { threadId, messageId } = await ask(app, 'How do I install it?');
    await post(app, { fp: 'reader-1', threadId, messageId, rating: 'up' }, { url: FEEDBACK_URL });
    const client = createInsightsClient({
      baseUrl: 'http://test',
      adminKey: DEMO.adminKey,
      fetch: (url, init) => Promise.resolve(app.request(String(url), init)),
    });
    const thread = await client.thread(DEMO.domain, threadId);
    expect(thread.turns.map((turn) => turn.question)).toEqual(['How do I install it?']);
    expect(JSON.stringify(thread)).not.toContain('"fp"');
    expect((await client.report(DEMO.domain)).feedback.up).toBe(1);
    expect(await client.deleteAll(DEMO.domain)).toBeGreaterThan(0);
    expect((await client.report(DEMO.domain)).feedback.up).toBe(0);
    await expect(client.thread(DEMO.domain, '01JD8X3K2M0000000000000009')).rejects.toMatchObject({
      code: 'thread_not_found',
    });
  });

  it('forget insights older than the retention, and a report reaches back no further', async () => {
    let now = Date.parse('2026-01-01T12:00:00.000Z');
    const dataDir = await tempDir();
    const first = await demoApp({ dataDir, now: () => now, insightsRetentionDays: 10 });
    const { threadId, messageId } = await ask(first, 'How do I install it?');
    await post(first, { fp: 'reader-1', threadId, messageId, rating: 'up' }, { url: FEEDBACK_URL });
    await first.close();
    now += 20 * 86_400_000;
    const later = await demoApp({ dataDir, now: () => now, insightsRetentionDays: 10 });
    await later.ready;
    const report = insightsReportSchema.parse(
      await (await admin(later, `${INSIGHTS_URL}?since=2025-12-01`)).json(),
    );
    expect(report.since).toBe('2026-01-11T12:00:00.000Z');
    expect(report.feedback.items).toEqual([]);
    expect((await readdir(join(dataDir, 'insights'))).filter((f) => f.endsWith('.jsonl'))).toEqual(
      [],
    );
    await later.close();
  });
});

describe('fingerprints', () => {
  it('are kept only as a keyed hash in thread files, and the reader still continues the thread', async () => {
    const dataDir = await tempDir();
    const app = await demoApp({ dataDir });
    const { threadId } = await ask(app, 'How do I install it?', 'reader-secret-42');
    const file = await readFile(join(dataDir, 'threads', `${threadId}.json`), 'utf8');
    expect(file).not.toContain('reader-secret-42');
    expect(JSON.parse(file).fp).toMatch(/^h1:[\w-]{43}$/);
    const followUp = await post(
      app,
      askBody('And with yarn?', { fp: 'reader-secret-42', threadId }),
    );
    expect(followUp.status).toBe(200);
    await followUp.arrayBuffer();
    await app.close();
  });

  it('stored in plain by an earlier version are hashed at start, and those threads go on', async () => {
    const dataDir = await tempDir();
    const threadId = '01JD8X3K2M0000000000000042';
    await mkdir(join(dataDir, 'threads'), { recursive: true });
    const at = new Date().toISOString();
    await writeFile(
      join(dataDir, 'threads', `${threadId}.json`),
      JSON.stringify({
        threadId,
        domain: DEMO.domain,
        fp: 'old-reader',
        createdAt: at,
        updatedAt: at,
        turns: [],
      }),
    );
    const app = await demoApp({ dataDir });
    await app.ready;
    const stored = JSON.parse(await readFile(join(dataDir, 'threads', `${threadId}.json`), 'utf8'));
    expect(stored.fp).toMatch(/^h1:/);
    const response = await post(
      app,
      askBody('How do I install it?', { fp: 'old-reader', threadId }),
    );
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await app.close();
  });
});
