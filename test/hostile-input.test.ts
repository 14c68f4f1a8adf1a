import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { MAX_QUERY_TERMS, MAX_TERM_CHARS } from '../src/server/answering/terms.js';
import { DEMO } from '../src/server/config.js';
import {
  askBody,
  demoApp,
  MESSAGE_URL,
  post,
  readStream,
  sampleDocs,
  tempDir,
  textOf,
  type TestApp,
} from './helpers/server.js';

/** A request from a given socket address (what @hono/node-server passes as the env). */
const from = (app: TestApp, ip: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(
    MESSAGE_URL,
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${DEMO.assistantKey}`,
        ...headers,
      },
      body: JSON.stringify(body),
    },
    { incoming: { socket: { remoteAddress: ip } } },
  );

describe('questions of any size within the body limit', () => {
  // Before the cap, "i" x 60,000 took 8-25 s and left RSS at 3.5 GB; the longer ones answered 500.
  const words: [string, string][] = [
    ['"i" x 60,000', 'i'.repeat(60_000)],
    ['"a" x 500,000', 'a'.repeat(500_000)],
    ['a ~1 MiB word', 'x'.repeat(1_000_000)],
    ['a long unicode word', 'é字🙂'.repeat(100_000)],
    ['many distinct terms', Array.from({ length: 30_000 }, (_, i) => `term${i}`).join(' ')],
    ['many dotted names', Array.from({ length: 100_000 }, (_, i) => `a.b${i % 50}`).join(' ')],
  ];
  for (const [name, text] of words) {
    it(`answers ${name} with a complete stream and bounded memory`, async () => {
      const app = await demoApp({ limits: { maxBodyBytes: 4 * 1024 * 1024 } });
      const rssBefore = process.memoryUsage().rss;
      const response = await post(app, askBody(text));
      expect(response.status).toBe(200);
      const parts = await readStream(response);
      expect(parts.at(-1)?.type).toBe('finish_message');
      expect(textOf(parts).length).toBeGreaterThan(0);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 * 1024);
    });
  }

  it('searches at most MAX_QUERY_TERMS terms of at most MAX_TERM_CHARS characters', async () => {
    const retriever = createRetriever(await sampleDocs());
    const terms = retriever.terms(
      `${'q'.repeat(5000)} ${Array.from({ length: 500 }, (_, i) => `install${i}`).join(' ')}`,
    );
    expect(terms).toHaveLength(MAX_QUERY_TERMS);
    expect(Math.max(...terms.map((t) => t.length))).toBe(MAX_TERM_CHARS);
    // A real question still finds its page.
    expect(
      retriever.search('How do I install it?', { limit: 3 }).hits[0]?.section.pagePath,
    ).toMatch(/install/);
  });
});

describe('rate limits cannot be used to lock an organisation out', () => {
  it('charges the organisation only for authenticated, valid requests', async () => {
    const app = await demoApp({ limits: { orgPerHour: 5 } });
    for (let i = 0; i < 40; i++) {
      const junk = await from(
        app,
        '10.0.0.1',
        i % 2
          ? { fp: 1 }
          : { fp: 'x', messages: [{ id: 'a', role: 'assistant', content: 'hi', parts: [] }] },
      );
      expect(junk.status).toBe(400);
    }
    const reader = await from(app, '10.0.0.2', askBody('How do I install it?'));
    expect(reader.status).toBe(200);
  });

  it('lets one address use only its share of the hourly quota (a fifth by default)', async () => {
    const app = await demoApp({ limits: { orgPerHour: 10 } });
    expect((await from(app, '10.0.0.1', askBody('install'))).status).toBe(200);
    expect((await from(app, '10.0.0.1', askBody('install'))).status).toBe(200);
    const third = await from(app, '10.0.0.1', askBody('install'));
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringContaining('IP address'),
      retryAfterSeconds: expect.any(Number),
    });
    expect((await from(app, '10.0.0.2', askBody('install'))).status).toBe(200);
  });

  it('behind a trusted proxy, reads the address the proxy appended, not one the client wrote', async () => {
    const app = await demoApp({ limits: { ipPerDay: 1 }, trustProxy: true });
    const viaProxy = (spoofed: string) =>
      from(app, '127.0.0.1', askBody('install'), { 'X-Forwarded-For': `${spoofed}, 203.0.113.7` });
    expect((await viaProxy('1.1.1.1')).status).toBe(200);
    expect((await viaProxy('2.2.2.2')).status).toBe(429);
  });

  it('counts N trusted hops from the right', async () => {
    const app = await demoApp({ limits: { ipPerDay: 1 }, trustProxy: 2 });
    const via = (chain: string) =>
      from(app, '127.0.0.1', askBody('install'), { 'X-Forwarded-For': chain });
    expect((await via('9.9.9.9, 203.0.113.7, 10.0.0.5')).status).toBe(200);
    expect((await via('8.8.8.8, 203.0.113.7, 10.0.0.6')).status).toBe(429);
    expect((await via('203.0.113.8, 10.0.0.5')).status).toBe(200);
  });

  it('keeps the counters across a restart on the same data folder', async () => {
    const dataDir = await tempDir();
    const before = await demoApp({ dataDir, limits: { orgPerHour: 1 } });
    expect((await post(before, askBody('install'))).status).toBe(200);
    await before.close();
    const after = await demoApp({ dataDir, limits: { orgPerHour: 1 } });
    expect((await post(after, askBody('install'))).status).toBe(429);
    await after.close();
  });
});
