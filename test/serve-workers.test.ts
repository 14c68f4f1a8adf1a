import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { startWorkers } from './helpers/build.js';
import { askBody, FIXTURE_DOCS_DIR, readStream, tempDir, textOf } from './helpers/server.js';

describe('serve --workers', () => {
  it('shares threads, rate-limit counters and insights between worker processes', async () => {
    const data = await tempDir();
    const server = await startWorkers('docs-assistant-workers-test', ['--data', data]);
    const { url } = server;
    try {
      const ask = (question: string, thread: Record<string, string>) =>
        fetch(`${url}/discovery/v1/assistant/${DEMO.domain}/message`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${DEMO.assistantKey}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(askBody(question, thread)),
        });
      const first = await ask('How do I install it?', {});
      expect(first.status).toBe(200);
      const thread = {
        threadId: first.headers.get('x-thread-id')!,
        ...(first.headers.get('x-thread-key')
          ? { threadKey: first.headers.get('x-thread-key')! }
          : {}),
      };
      expect(textOf(await readStream(first)).length).toBeGreaterThan(0);
      // Connections go round-robin: follow-ups land on both workers, each must see every turn so far.
      let messageId = '';
      for (let i = 1; i < 6; i++) {
        const response = await ask(`Follow-up ${i}: and the theme?`, thread);
        expect(response.status, `follow-up ${i}`).toBe(200);
        messageId = /"messageId":"(msg_[^"]+)"/.exec(await response.text())![1]!;
      }
      // A thumbs through one worker, the owner's report through both: one insight store behind them.
      const thumbs = await fetch(`${url}/discovery/v1/assistant/${DEMO.domain}/feedback`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${DEMO.assistantKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          fp: 'anonymous',
          threadId: thread.threadId,
          messageId,
          rating: 'down',
          reason: 'unclear',
        }),
      });
      expect(thumbs.status).toBe(204);
      const report = async () =>
        (
          await fetch(`${url}/v1/insights/${DEMO.domain}`, {
            headers: { Authorization: `Bearer ${DEMO.adminKey}` },
          })
        ).json();
      // Every worker's turns reach the one recorder in the primary.
      await expect.poll(async () => (await report()).totals.questions).toBe(6);
      for (let i = 0; i < 2; i++) {
        expect((await report()).feedback.items).toEqual([
          expect.objectContaining({
            rating: 'down',
            reasons: ['unclear'],
            question: 'Follow-up 5: and the theme?',
          }),
        ]);
      }
    } finally {
      await server.stop();
    }
    expect(server.output()).toContain('Server stopped.');
    // One owner wrote the stores: the thread has all six turns in order, and the org counter all six hits.
    const [file] = (await readdir(join(data, 'threads'))).filter((name) => name.endsWith('.json'));
    const stored = JSON.parse(await readFile(join(data, 'threads', file!), 'utf8')) as {
      turns: { question: string }[];
    };
    expect(stored.turns.map((turn) => turn.question)).toEqual([
      'How do I install it?',
      ...[1, 2, 3, 4, 5].map((i) => `Follow-up ${i}: and the theme?`),
    ]);
    const counters = JSON.parse(await readFile(join(data, 'rate-limits.json'), 'utf8')) as Record<
      string,
      { count: number }
    >;
    // Six questions and the thumbs: feedback counts against the same quota as the messages.
    expect(counters[`org:${DEMO.org}`]?.count).toBe(7);
  });

  it('keeps one page and index cache for both workers: a restart of both parses and builds nothing', async () => {
    const data = await tempDir();
    const docs = await tempDir();
    await cp(FIXTURE_DOCS_DIR, docs, { recursive: true });
    const env = { ...process.env, DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_workers' };
    const args = ['--docs', docs, '--data', data];
    const workerLines = /(Cache [^\n]*\(worker \d+\)\n)[\s\S]*(Cache [^\n]*\(worker \d+\)\n)/;
    const first = await startWorkers('docs-assistant-workers-test', args, env);
    await first.waitFor(workerLines);
    await first.stop();
    // The primary parsed the pages (and kept them); each worker then read them from the cache.
    expect(first.output()).toMatch(/Cache [^\n]*: 0 pages reused, (\d+) parsed\.\n/);

    const second = await startWorkers('docs-assistant-workers-test', args, env);
    const [, one, two] = await second.waitFor(workerLines);
    await second.stop();
    for (const line of [one, two])
      expect(line).toMatch(/: \d+ pages reused, 0 parsed; index reused\./);
    expect(second.output()).toMatch(/Cache [^\n]*: \d+ pages reused, 0 parsed\.\n/);
    expect(second.output()).not.toMatch(/Ignored|Cannot keep/);
    // Written whole or not at all: no half-written file is left behind.
    const files = await readdir(join(data, 'cache'), { recursive: true });
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
