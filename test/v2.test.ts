import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UIMessage } from 'ai-v6';
import { createServer } from 'node:http';
import { createApp } from '../src/server/http/app.js';
import { listen } from '../src/server/http/serve.js';
import type { TurnSummary } from '../src/server/http/turn.js';
import { DEMO } from '../src/server/config.js';
import { startLlmServer, type LlmTestServer } from './helpers/llm-server.js';
import { askBody, demoApp, post, readStream, textOf } from './helpers/server.js';
import { askV2, sseEvents, textOfMessage, uiUserMessage, V2_URL } from './helpers/v2.js';

let llm: LlmTestServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(() => llm.close());
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

const metadataOf = (message: UIMessage) => message.metadata as { threadId?: string } | undefined;

describe('the v2 operation answers an AI SDK 6 client', () => {
  it('streams a quoted answer as a UI message: search tool, reasoning, sources, text, follow-ups', async () => {
    const app = await demoApp();
    const { message, errors, response } = await askV2(app, [uiUserMessage('How do I install it?')]);
    expect(errors).toEqual([]);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(message.role).toBe('assistant');
    const types = message.parts.map((part) => part.type);
    expect(types).toContain('tool-search');
    expect(types).toContain('reasoning');
    expect(types).toContain('source-url');
    expect(types.filter((type) => type === 'step-start')).toHaveLength(2);
    expect(textOfMessage(message)).toMatch(/npm install/i);
    const search = message.parts.find((part) => part.type === 'tool-search');
    expect(search).toMatchObject({ state: 'output-available', input: expect.anything() });
    const sources = message.parts.filter((part) => part.type === 'source-url');
    expect(sources[0]).toMatchObject({ url: expect.stringMatching(/^http:\/\/test\//) });
    expect(message.parts.some((part) => part.type === 'data-suggestions')).toBe(true);
    // How sure the answer is: a data part, as the v1 stream's `8:` confidence annotation.
    expect(message.parts.filter((part) => part.type === 'data-confidence')).toEqual([
      expect.objectContaining({ type: 'data-confidence', data: { level: 'sure' } }),
    ]);
  });

  it('names the thread in the X-Thread-Id header, the message metadata and the finish event', async () => {
    const app = await demoApp();
    const { message, response } = await askV2(app, [uiUserMessage('How do I install it?')]);
    const threadId = response.headers.get('x-thread-id');
    expect(threadId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(metadataOf(message)?.threadId).toBe(threadId);

    const raw = await post(
      app,
      { fp: 'anonymous', messages: [uiUserMessage('install')] },
      {
        url: V2_URL,
      },
    );
    const events = await sseEvents(raw);
    expect(events.at(-1)).toBe('[DONE]');
    const finish = events.find((event) => (event as { type?: string }).type === 'finish');
    const rawThread = raw.headers.get('x-thread-id');
    expect(finish).toEqual({
      type: 'finish',
      finishReason: 'stop',
      threadId: rawThread,
      messageMetadata: { threadId: rawThread },
    });
  });

  it('continues a v2 conversation on v2 with the earlier question in mind', async () => {
    const app = await demoApp();
    const first = await askV2(app, [uiUserMessage('How do I install it?')]);
    const threadId = metadataOf(first.message)!.threadId;
    const next = await askV2(
      app,
      [uiUserMessage('How do I install it?'), first.message, uiUserMessage('and theming?')],
      {
        threadId,
      },
    );
    expect(next.errors).toEqual([]);
    expect(metadataOf(next.message)?.threadId).toBe(threadId);
  });

  it('continues on v2 a conversation started on v1', async () => {
    const app = await demoApp();
    const v1 = await post(app, askBody('How do I install it?'));
    const threadId = v1.headers.get('x-thread-id')!;
    await v1.text();
    const { message, errors } = await askV2(app, [uiUserMessage('How do I change the theme?')], {
      threadId,
    });
    expect(errors).toEqual([]);
    expect(metadataOf(message)?.threadId).toBe(threadId);
  });

  it('continues on v1 a conversation started on v2', async () => {
    const app = await demoApp();
    const { message } = await askV2(app, [uiUserMessage('How do I install it?')]);
    const threadId = metadataOf(message)!.threadId!;
    const v1 = await post(app, askBody('How do I change the theme?', { threadId }));
    expect(v1.status).toBe(200);
    expect(v1.headers.get('x-thread-id')).toBe(threadId);
    expect(textOf(await readStream(v1))).not.toBe('');
  });

  it('records a v2 turn with the insights sink like a v1 turn', async () => {
    const summaries: TurnSummary[] = [];
    const app = await demoApp({ insights: (summary) => void summaries.push(summary) });
    const { response } = await askV2(app, [uiUserMessage('How do I install it?')], {
      currentPath: '/docs/guides/theming.html',
    });
    await vi.waitFor(() => expect(summaries).toHaveLength(1));
    expect(summaries[0]).toMatchObject({
      outcome: 'answered',
      question: 'How do I install it?',
      currentPath: '/guides/theming',
      threadId: response.headers.get('x-thread-id'),
    });
  });

  it('accepts SDK 5 message parts it does not read (files, tool parts, metadata) and filter.groups', async () => {
    const app = await demoApp();
    const user: UIMessage = {
      id: 'u-files',
      role: 'user',
      metadata: { sentAt: 1 },
      parts: [
        { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,AA==' },
        { type: 'text', text: 'How do I install it?' },
      ],
    };
    const { message, errors } = await askV2(app, [user], { filter: { groups: ['admins'] } });
    expect(errors).toEqual([]);
    expect(textOfMessage(message)).toMatch(/npm install/i);
  });
});

describe('the v2 operation fails as v1 does', () => {
  const sendFails = (promise: Promise<unknown>) => expect(promise).rejects.toThrow();

  it('answers a bad key with 401 and the same error JSON', async () => {
    const app = await demoApp();
    await sendFails(askV2(app, [uiUserMessage('install')], {}, { key: 'svc_dsc_nope' }));
    const response = await post(
      app,
      { fp: 'a', messages: [uiUserMessage('x')] },
      {
        url: V2_URL,
        key: 'svc_dsc_nope',
      },
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('answers the hourly limit with 429 and Retry-After', async () => {
    const app = await demoApp({ limits: { orgPerHour: 1 } });
    await askV2(app, [uiUserMessage('install')]);
    const error = await askV2(app, [uiUserMessage('install')]).catch((e: Error) => e);
    expect(String(error)).toContain('rate_limited');
    const response = await post(app, { fp: 'a', messages: [uiUserMessage('x')] }, { url: V2_URL });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('answers a message without parts or a question without text with 400 invalid_request', async () => {
    const app = await demoApp();
    const noParts = await post(
      app,
      { fp: 'a', messages: [{ id: 'u', role: 'user', content: 'install' }] },
      { url: V2_URL },
    );
    expect(noParts.status).toBe(400);
    expect(await noParts.json()).toEqual({
      error: 'invalid_request',
      message: expect.stringContaining('messages.0.parts'),
    });
    const error = await askV2(app, [
      { id: 'u', role: 'user', parts: [{ type: 'step-start' }] },
    ]).catch((e: Error) => e);
    expect(String(error)).toContain('must end with a user message that has text');
  });

  it('answers a thread that is not the reader’s with 404 thread_not_found', async () => {
    const app = await demoApp();
    const error = await askV2(app, [uiUserMessage('install')], {
      threadId: '01JZZZZZZZZZZZZZZZZZZZZZZZ',
    }).catch((e: Error) => e);
    expect(String(error)).toContain('thread_not_found');
  });

  it('ends a model answer cut off midway with an error event, keeping the text so far', async () => {
    llm.script({ cutAfter: ['Install it'] });
    const app = await demoApp({ llm: { baseUrl: llm.baseUrl, model: 'test-model' } });
    const { message, errors } = await askV2(app, [uiUserMessage('How do I install it?')]);
    expect(textOfMessage(message)).toBe('Install it');
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).not.toContain('127.0.0.1');
    expect(metadataOf(message)?.threadId).toBeUndefined();
  });
});

describe('the v2 operation with a language model', () => {
  it('shows the model’s search as an SDK 5 tool part, with its input and output', async () => {
    llm.script(
      { toolCall: { name: 'search', args: { query: 'install' } } },
      { text: ['Run npm install.'] },
    );
    const app = await demoApp({ llm: { baseUrl: llm.baseUrl, model: 'test-model' } });
    const { message, errors } = await askV2(app, [uiUserMessage('How do I install it?')]);
    expect(errors).toEqual([]);
    const tool = message.parts.find((part) => part.type === 'tool-search');
    expect(tool).toMatchObject({
      type: 'tool-search',
      state: 'output-available',
      input: { query: 'install' },
      output: {
        results: expect.arrayContaining([expect.objectContaining({ path: '/installation' })]),
      },
    });
    expect(textOfMessage(message)).toBe('Run npm install.');
  });
});

describe('proxy mode forwards v2 unchanged', () => {
  it('passes the v2 request upstream and streams its UI message stream back', async () => {
    const upstreamApp = await demoApp();
    const upstream = await listen(upstreamApp, { port: 0, host: '127.0.0.1' });
    try {
      const proxy = createApp({ upstream: { baseUrl: upstream.url, key: DEMO.assistantKey } });
      const { message, errors, response } = await askV2(
        proxy as never,
        [uiUserMessage('How do I install it?')],
        {},
        { key: null },
      );
      expect(errors).toEqual([]);
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      expect(metadataOf(message)?.threadId).toBe(response.headers.get('x-thread-id'));
      expect(textOfMessage(message)).toMatch(/npm install/i);
    } finally {
      await upstream.close();
    }
  });

  it('ends a v2 stream the upstream cuts with an error event the SDK reads', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'data: {"type":"start"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"Inst',
      );
      setTimeout(() => res.destroy(), 50);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as { port: number };
      const proxy = createApp({ upstream: { baseUrl: `http://127.0.0.1:${port}` } });
      const { errors } = await askV2(proxy as never, [uiUserMessage('install')], {}, { key: null });
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toContain('cut the answer short');
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
