import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO } from '../src/server/config.js';
import type { TurnSummary } from '../src/server/http/turn.js';
import {
  askBody,
  demoApp,
  MESSAGE_URL,
  post,
  readStream,
  sourcesOf,
  userMessage,
} from './helpers/server.js';
import { startLlmServer, type LlmTestServer } from './helpers/llm-server.js';

// The turn's summary is what an insights recorder gets (AppOptions.insights): one per question,
// however it ended, and never in the reader's way.
let llm: LlmTestServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(() => llm.close());
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

function recorder() {
  const summaries: TurnSummary[] = [];
  return { summaries, insights: (summary: TurnSummary) => void summaries.push(summary) };
}

describe('each turn tells the insights sink how it ended', () => {
  it('reports a quoted answer with its pages, its thread and the reader’s page as a page path', async () => {
    const { summaries, insights } = recorder();
    const app = await demoApp({ insights });
    const response = await post(
      app,
      askBody('How do I install it?', { currentPath: '/docs/guides/theming.html?tab=1#top' }),
    );
    const cited = sourcesOf(await readStream(response)).map((source) => source.id);
    await vi.waitFor(() => expect(summaries).toHaveLength(1));
    const [summary] = summaries;
    expect(summary).toMatchObject({
      outcome: 'answered',
      mode: 'quoted',
      question: 'How do I install it?',
      domain: DEMO.domain,
      currentPath: '/guides/theming',
      cited,
      threadId: response.headers.get('x-thread-id'),
    });
    expect(cited.length).toBeGreaterThan(0);
    expect(summary!.firstByteMs).toBeGreaterThanOrEqual(0);
    expect(summary!.totalMs).toBeGreaterThanOrEqual(summary!.firstByteMs!);
  });

  it('reports a question the docs do not cover as refused, without matching the sentence', async () => {
    const { summaries, insights } = recorder();
    const app = await demoApp({ insights });
    await (await post(app, askBody('What is the airspeed of an unladen swallow?'))).text();
    await vi.waitFor(() => expect(summaries.map((s) => s.outcome)).toEqual(['refused']));
  });

  it('reports an answer that shows the best places because the top hits are close as unsure', async () => {
    const { summaries, insights } = recorder();
    const app = await demoApp({ insights });
    await (await post(app, askBody('How do I change the launcher position?'))).text();
    await vi.waitFor(() => expect(summaries.map((s) => s.outcome)).toEqual(['unsure']));
    expect(summaries[0]!.cited.length).toBeGreaterThan(0);
  });

  it('reports a model failure before the answer as failed, with no thread handed out', async () => {
    const { summaries, insights } = recorder();
    const app = await demoApp({ insights, llm: { baseUrl: llm.baseUrl, model: 'test-model' } });
    llm.script({ status: 503 });
    const response = await post(app, askBody('How do I install it?'));
    expect(response.status).toBe(502);
    await vi.waitFor(() => expect(summaries).toHaveLength(1));
    expect(summaries[0]).toMatchObject({
      outcome: 'failed',
      mode: 'model',
      threadId: undefined,
      firstByteMs: undefined,
      cited: [],
    });
  });

  it('reports a model answer cut off midway as failed, and a finished one as answered', async () => {
    const { summaries, insights } = recorder();
    const app = await demoApp({ insights, llm: { baseUrl: llm.baseUrl, model: 'test-model' } });
    llm.script({ cutAfter: ['Install it'] }, { text: ['Use npm [1].'] });
    await (await post(app, askBody('How do I install it?'))).text();
    await (await post(app, askBody('How do I install it?'))).text();
    await vi.waitFor(() => expect(summaries).toHaveLength(2));
    expect(summaries.map((s) => [s.outcome, s.cited])).toEqual([
      ['failed', []],
      ['answered', ['/installation']],
    ]);
  });

  it('reports a turn whose reader went away as stopped', async () => {
    const { summaries, insights } = recorder();
    const app = await demoApp({ insights, llm: { baseUrl: llm.baseUrl, model: 'test-model' } });
    llm.script({ hangAfter: ['Install it '] });
    const reader = new AbortController();
    const response = await app.request(MESSAGE_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${DEMO.assistantKey}` },
      body: JSON.stringify(askBody('How do I install it?')),
      signal: reader.signal,
    });
    expect(response.status).toBe(200);
    reader.abort();
    await response.body!.cancel().catch(() => {});
    await vi.waitFor(() => expect(summaries.map((s) => s.outcome)).toEqual(['stopped']));
  });

  it('answers the reader even when the sink throws, and logs why', async () => {
    const app = await demoApp({
      insights: () => {
        throw new Error('recorder down');
      },
    });
    const first = await post(app, askBody('How do I install it?'));
    const threadId = first.headers.get('x-thread-id')!;
    expect((await readStream(first)).at(-1)).toMatchObject({ type: 'finish_message' });
    const followUp = await post(app, {
      fp: 'anonymous',
      threadId,
      messages: [userMessage('And then?')],
    });
    expect(followUp.status).toBe(200);
    await followUp.text();
    await vi.waitFor(() =>
      expect(
        vi
          .mocked(console.error)
          .mock.calls.flat()
          .map((arg) => String(arg)),
      ).toContain('Error: recorder down'),
    );
  });
});
