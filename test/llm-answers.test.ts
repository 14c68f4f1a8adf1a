import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli/index.js';
import type { AppOptions } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import type { LlmConfig } from '../src/server/answering/llm/model.js';
import { captureIo } from './helpers/cli.js';
import {
  askBody,
  demoApp,
  MESSAGE_URL,
  post,
  readStream,
  sourcesOf,
  tempDir,
  textOf,
  userMessage,
  type StreamPart,
} from './helpers/server.js';
import { startLlmServer, type LlmTestServer } from './helpers/llm-server.js';

// The real provider packages (@ai-sdk/openai-compatible, @ai-sdk/openai, @ai-sdk/anthropic)
// against a local server that speaks their wire formats: no network, nothing mocked in between.
let llm: LlmTestServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

const SECRET = 'sk-test-secret-0123456789';
const appWith = (config: Partial<LlmConfig> = {}, options: Partial<AppOptions> = {}) =>
  demoApp({
    llm: { baseUrl: llm.baseUrl, model: 'test-model', apiKey: SECRET, ...config },
    ...options,
  });
const systemOf = (request: LlmTestServer['requests'][number]) => {
  const messages = request.body.messages as { role: string; content: unknown }[];
  return String(
    request.body.system
      ? JSON.stringify(request.body.system)
      : messages.find((m) => m.role === 'system')?.content,
  );
};
const typesOf = (parts: StreamPart[]) => parts.map((p) => p.type);
/** The suggestions annotations of a stream (an answer also carries its confidence annotation). */
const suggestionsOf = (parts: StreamPart[]) =>
  parts
    .filter((p) => p.type === 'message_annotations')
    .flatMap((p) => p.value as { type: string }[])
    .filter((a) => a.type === 'suggestions');

/** A model silence timer the test fires itself: "too long" happens when the test says so. */
function silenceTimer() {
  let pending: (() => void) | undefined;
  return {
    start: ((fire) => {
      pending = fire;
      return () => {
        if (pending === fire) pending = undefined;
      };
    }) satisfies NonNullable<AppOptions['silenceTimer']>,
    fire() {
      expect(pending, 'the model call has a silence timer running').toBeDefined();
      pending!();
    },
  };
}

describe('answers from an OpenAI-compatible model', () => {
  it('sends the retrieved passages, the reader’s page, the context and the question, with the key', async () => {
    llm.script({ text: ['Install it with npm [1].'] });
    const app = await appWith();
    const context = [
      {
        type: 'code',
        value: 'npm install docs-assistant react react-dom',
        path: '/installation',
        elementId: 'code-1',
      },
    ];
    const response = await post(
      app,
      askBody('How do I install it?', { currentPath: '/guides/theming', context }),
    );
    expect(response.status).toBe(200);
    await response.text();
    const request = llm.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request.body.model).toBe('test-model');
    const system = systemOf(request);
    expect(system).toContain('only the numbered passages');
    expect(system).toMatch(/\[1\] Install/);
    expect(system).toContain('npm install docs-assistant react react-dom');
    expect(system).toContain('The page the reader is on: Theming and translations');
    const messages = request.body.messages as { role: string; content: string }[];
    expect(messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('How do I install it?'),
    });
    expect(messages.at(-1)!.content).toContain(
      'Code from /installation:\nnpm install docs-assistant',
    );
    expect(
      (request.body.tools as { function: { name: string } }[]).map((t) => t.function.name),
    ).toEqual(['search']);
  });

  it('streams the model’s text and reasoning, a source per cited page, and finishes with the threadId', async () => {
    llm.script({
      reasoning: ['The passages ', 'say npm.'],
      text: ['Run `npm install docs-assistant` [', '1][2]. See also [9] and [3].'],
    });
    const response = await post(await appWith(), askBody('How do I install it?'));
    const threadId = response.headers.get('x-thread-id');
    expect(threadId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    const raw = await response.text();
    const finish = raw.split('\n').find((line) => line.startsWith('d:'))!;
    expect(JSON.parse(finish.slice(2))).toMatchObject({ finishReason: 'stop', threadId });
    const parts = await readStream(new Response(raw));
    expect(
      parts
        .filter((p) => p.type === 'reasoning')
        .map((p) => p.value)
        .join(''),
    ).toBe('The passages say npm.');
    // [9] names no passage and is dropped; [1], [2] and [3] are kept, and their pages become the sources.
    const text = textOf(parts);
    expect(text).toContain('Run `npm install docs-assistant` [1][2].');
    expect(text).toContain('See also  and [3].');
    const pageOf = (n: number) =>
      new URL(
        new RegExp(`^\\[${n}\\] .* \\((http[^)]+)\\)$`, 'm').exec(systemOf(llm.requests[0]!))![1]!,
      ).pathname.replace(/^\/docs/, '') || '/';
    expect(sourcesOf(parts).map((s) => s.id)).toEqual([
      ...new Set([pageOf(1), pageOf(2), pageOf(3)]),
    ]);
    expect(sourcesOf(parts).length).toBeGreaterThan(1);
    expect(typesOf(parts).indexOf('source')).toBeGreaterThan(typesOf(parts).lastIndexOf('text'));
    expect(typesOf(parts).at(-1)).toBe('finish_message');
  });

  it('gives the model the passages’ links as the reader’s site serves them, so it copies working ones', async () => {
    llm.script(
      { toolCall: { name: 'search', args: { query: 'install with npm React guide' } } },
      { text: ['See the React guide [1].'] },
    );
    const parts = await readStream(
      await post(
        await appWith(),
        askBody('How do I install it?', { currentPath: '/installation' }),
      ),
    );
    // The installation page writes `[React guide](/guides/react)`; on this server that page is /docs/guides/react.
    const system = systemOf(llm.requests[0]!);
    expect(system).toContain('[React guide](http://test/docs/guides/react)');
    expect(system).not.toMatch(/\]\(\/(?!\/)/);
    const found = (
      parts.find((p) => p.type === 'tool_result')!.value as {
        result: { results: { text: string }[] };
      }
    ).result.results.map((r) => r.text);
    expect(found.join('\n')).not.toMatch(/\]\(\/(?!\/)/);
  });

  it('lets the model call the search tool and cite what it found', async () => {
    llm.script(
      { toolCall: { name: 'search', args: { query: 'chart values staticExport bundleUrl' } } },
      { text: ['Set `staticExport.bundleUrl` [6].'] },
    );
    const parts = await readStream(await post(await appWith(), askBody('How do I install it?')));
    const call = parts.find((p) => p.type === 'tool_call')!.value as {
      toolName: string;
      args: { query: string };
    };
    expect(call).toMatchObject({
      toolName: 'search',
      args: { query: 'chart values staticExport bundleUrl' },
    });
    const result = parts.find((p) => p.type === 'tool_result')!.value as {
      result: { results: { n: number; path: string }[] };
    };
    expect(result.result.results.map((r) => r.path)).toContain('/static-export/deployment');
    // The second model call saw the tool's passages.
    expect(JSON.stringify(llm.requests[1]!.body.messages)).toContain('staticExport.bundleUrl');
    const cited = result.result.results.find((r) => r.n === 6);
    expect(sourcesOf(parts).map((s) => s.id)).toEqual(cited ? [cited.path] : []);
  });

  it('shows a search call’s query cut short when the model copies a long question into it', async () => {
    const long = `${'How do I install it with every option there is? '.repeat(2000)}`;
    llm.script({ toolCall: { name: 'search', args: { query: long } } }, { text: ['Done.'] });
    const parts = await readStream(await post(await appWith(), askBody(long.slice(0, 20_000))));
    const call = parts.find((p) => p.type === 'tool_call')!.value as { args: { query: string } };
    expect(call.args.query.length).toBeLessThanOrEqual(500);
    expect(call.args.query.endsWith('…')).toBe(true);
    expect(long.startsWith(call.args.query.slice(0, -1))).toBe(true);
  });

  it('gives the model the thread’s earlier turns from the server’s store', async () => {
    llm.script({ text: ['Use npm [1].'] }, { text: ['Then open the page [1].'] });
    const app = await appWith();
    const first = await post(app, askBody('How do I install it?'));
    const threadId = first.headers.get('x-thread-id')!;
    await first.text();
    // The client sends a different history: the model still gets what the server recorded.
    const followUp = await post(app, {
      fp: 'anonymous',
      threadId,
      messages: [userMessage('something else entirely'), userMessage('And then?')],
    });
    await followUp.text();
    const messages = llm.requests[1]!.body.messages as { role: string; content: string }[];
    const turns = messages.filter((m) => m.role !== 'system');
    expect(turns).toEqual([
      { role: 'user', content: 'How do I install it?' },
      { role: 'assistant', content: 'Use npm [1].' },
      { role: 'user', content: 'And then?' },
    ]);
  });

  it('sends the model’s follow-up questions as a suggestions annotation, out of the text and of the stored turn', async () => {
    llm.script(
      {
        // The fence arrives split across chunks, as tokens do.
        text: [
          'Use npm [1].\n\n``',
          '`followups\n- How do I add it to a ',
          'React app?\n2. Where does the key go? [2]\n\n```\n',
        ],
      },
      { text: ['Open the page [1].'] },
    );
    const app = await appWith();
    const first = await post(app, askBody('How do I install it?'));
    const threadId = first.headers.get('x-thread-id')!;
    const parts = await readStream(first);
    expect(systemOf(llm.requests[0]!)).toContain('```followups');
    expect(textOf(parts)).toBe('Use npm [1].');
    expect(parts.filter((p) => p.type === 'message_annotations').map((p) => p.value)).toEqual([
      [{ type: 'confidence', level: 'sure' }],
      [
        {
          type: 'suggestions',
          questions: ['How do I add it to a React app?', 'Where does the key go?'],
        },
      ],
    ]);
    // Only [1] of the text is a citation; the [2] of a suggested question is not.
    expect(sourcesOf(parts)).toHaveLength(1);
    expect(typesOf(parts).at(-1)).toBe('finish_message');

    // The thread keeps the answer as the reader saw it; an answer without a block offers nothing.
    const second = await readStream(
      await post(app, { fp: 'anonymous', threadId, messages: [userMessage('And then?')] }),
    );
    const turns = (llm.requests[1]!.body.messages as { role: string; content: string }[]).filter(
      (m) => m.role === 'assistant',
    );
    expect(turns).toEqual([{ role: 'assistant', content: 'Use npm [1].' }]);
    expect(suggestionsOf(second)).toEqual([]);
  });

  it('keeps text that only looks like the start of the block', async () => {
    llm.script({ text: ['Run ``', '`npm i` or see ```fol', 'der```.'] });
    const parts = await readStream(await post(await appWith(), askBody('How do I install it?')));
    expect(textOf(parts)).toBe('Run ```npm i` or see ```folder```.');
    expect(suggestionsOf(parts)).toEqual([]);
  });
});

describe('model failures reach the client clearly', () => {
  const failing = async (
    reply: Parameters<LlmTestServer['script']>[0],
    config: Partial<LlmConfig> = {},
  ) => {
    llm.script(reply);
    const app = await appWith(config);
    return { app, response: await post(app, askBody('How do I install it?')) };
  };
  const bodyOf = async (response: Response) =>
    (await response.json()) as { error: string; message: string; retryAfterSeconds?: number };

  it('answers 502 when the model rejects the key, without showing the key', async () => {
    const { response } = await failing({
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${SECRET}` } }),
    });
    expect(response.status).toBe(502);
    const body = await bodyOf(response);
    expect(body.error).toBe('upstream_error');
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(JSON.stringify(vi.mocked(console.error).mock.calls)).not.toContain(SECRET);
  });

  it('tells the owner’s log why, with the key blanked out', async () => {
    await failing({
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${SECRET}` } }),
    });
    const logged = vi
      .mocked(console.error)
      .mock.calls.map((call) => call.join(' '))
      .join('\n');
    expect(logged).toContain(`failed before answering (auth): HTTP 401 from ${llm.baseUrl}`);
    expect(logged).toContain('Incorrect API key provided: [key]');
    expect(logged).not.toContain(SECRET);
  });

  it('answers 502 when nothing listens at the model’s address, and the log says so', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const app = await appWith({ baseUrl: `http://127.0.0.1:${port}/v1` });
    const response = await post(app, askBody('How do I install it?'));
    expect(response.status).toBe(502);
    expect(JSON.stringify(await response.json())).not.toContain(String(port));
    const logged = vi
      .mocked(console.error)
      .mock.calls.map((call) => call.join(' '))
      .join('\n');
    expect(logged).toMatch(/failed before answering \(failed\):.*ECONNREFUSED/);
    expect(logged).toContain(`127.0.0.1:${port}`);
  });

  it('answers 429 with the model’s Retry-After', async () => {
    const { response } = await failing({ status: 429, headers: { 'Retry-After': '17' } });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('17');
    expect(await bodyOf(response)).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 17 });
  });

  it('answers 502 for a model server error, and keeps serving', async () => {
    const { app, response } = await failing({ status: 503 });
    expect(response.status).toBe(502);
    expect((await bodyOf(response)).message).toContain('HTTP 503');
    llm.script({ text: ['Back [1].'] });
    const next = await post(app, askBody('How do I install it?'));
    expect(next.status).toBe(200);
    expect(textOf(await readStream(next))).toBe('Back [1].');
  });

  it('answers 413 context_too_long when the prompt is over the model’s window', async () => {
    const { response } = await failing({
      status: 400,
      body: JSON.stringify({
        error: { message: "This model's maximum context length is 8192 tokens." },
      }),
    });
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).error).toBe('context_too_long');
  });

  it('answers 504 when the model says nothing in time', async () => {
    const silence = silenceTimer();
    llm.script({ hangAfter: [] });
    const app = await appWith({}, { silenceTimer: silence.start });
    const requestsBefore = llm.requests.length;
    const asked = post(app, askBody('install'));
    // The silence lasts until the test says it was too long, however slow the machine is.
    await vi.waitFor(() => expect(llm.requests.length).toBe(requestsBefore + 1));
    silence.fire();
    const response = await asked;
    expect(response.status).toBe(504);
    expect((await bodyOf(response)).error).toBe('upstream_timeout');
  });

  it('ends with an error part when the model stops mid-answer, keeping the text so far', async () => {
    const silence = silenceTimer();
    llm.script({ hangAfter: ['Install it ', 'with npm'] });
    const response = await post(
      await appWith({}, { silenceTimer: silence.start }),
      askBody('How do I install it?'),
    );
    expect(response.status).toBe(200);
    // Read until both pieces have arrived, then let the silence run out.
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let raw = '';
    while (!raw.includes('with npm')) raw += (await reader.read()).value ?? '';
    silence.fire();
    for (let next = await reader.read(); !next.done; next = await reader.read()) raw += next.value;
    const parts = await readStream(new Response(raw));
    expect(textOf(parts)).toBe('Install it with npm');
    expect(parts.at(-1)).toMatchObject({
      type: 'error',
      value: expect.stringContaining('took too long'),
    });
    expect(typesOf(parts)).not.toContain('finish_message');
  });

  it('stops the model call when the reader goes away', async () => {
    llm.script({ hangAfter: ['Install it '] });
    const app = await appWith();
    const reader = new AbortController();
    const response = await app.request(MESSAGE_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${DEMO.assistantKey}` },
      body: JSON.stringify(askBody('How do I install it?')),
      signal: reader.signal,
    });
    expect(response.status).toBe(200);
    const before = llm.abandoned;
    reader.abort();
    await response.body!.cancel().catch(() => {});
    await vi.waitFor(() => expect(llm.abandoned).toBe(before + 1));
  });

  it('ends with an error part when the connection to the model is cut', async () => {
    const { response } = await failing({ cutAfter: ['Install it'] });
    expect(response.status).toBe(200);
    const parts = await readStream(response);
    expect(textOf(parts)).toBe('Install it');
    expect(parts.at(-1)?.type).toBe('error');
    expect(String(parts.at(-1)?.value)).not.toContain('127.0.0.1');
  });
});

describe('a model failure before the answer leaves the thread store as it was', () => {
  const threadFiles = async (dataDir: string) =>
    (await readdir(join(dataDir, 'threads'))).filter((name) => name.endsWith('.json'));
  const failures: [string, Parameters<LlmTestServer['script']>[0], number][] = [
    ['a refused key (401)', { status: 401 }, 502],
    ['a rate limit (429)', { status: 429 }, 429],
    ['a server error (503)', { status: 503 }, 502],
    ['silence past the timeout', { hangAfter: [] }, 504],
  ];
  for (const [name, reply, status] of failures) {
    it(`keeps no thread for a new question that fails with ${name}, and hands out no thread id`, async () => {
      const dataDir = await tempDir();
      llm.script(reply);
      const silence = silenceTimer();
      const app = await appWith({}, { dataDir, silenceTimer: silence.start });
      const requestsBefore = llm.requests.length;
      const asked = post(app, askBody('How do I install it?'));
      if ('hangAfter' in reply) {
        await vi.waitFor(() => expect(llm.requests.length).toBe(requestsBefore + 1));
        silence.fire();
      }
      const response = await asked;
      expect(response.status).toBe(status);
      expect(response.headers.get('x-thread-id')).toBeNull();
      await response.text();
      expect(await threadFiles(dataDir)).toEqual([]);
      // Asked again, the question starts its thread as if the failure had not happened.
      llm.script({ text: ['Use npm [1].'] });
      const retry = await post(app, askBody('How do I install it?'));
      const threadId = retry.headers.get('x-thread-id');
      expect(textOf(await readStream(retry))).toBe('Use npm [1].');
      expect(await threadFiles(dataDir)).toEqual([`${threadId}.json`]);
      await app.close();
    });
  }

  it('keeps an existing thread’s turns when a follow-up fails, and a retry continues it once', async () => {
    const dataDir = await tempDir();
    const app = await appWith({}, { dataDir });
    llm.script({ text: ['Use npm [1].'] }, { status: 503 }, { text: ['Then open the page [1].'] });
    const first = await post(app, askBody('How do I install it?'));
    const threadId = first.headers.get('x-thread-id')!;
    await first.text();
    const followUp = { fp: 'anonymous', threadId, messages: [userMessage('And then?')] };
    const failed = await post(app, followUp);
    expect(failed.status).toBe(502);
    await failed.text();
    const stored = async () =>
      (
        JSON.parse(await readFile(join(dataDir, 'threads', `${threadId}.json`), 'utf8')) as {
          turns: { question: string; answer: string }[];
        }
      ).turns.map((t) => [t.question, t.answer]);
    expect(await stored()).toEqual([['How do I install it?', 'Use npm [1].']]);
    const retry = await post(app, followUp);
    expect(retry.headers.get('x-thread-id')).toBe(threadId);
    expect(textOf(await readStream(retry))).toBe('Then open the page [1].');
    // The model saw the question once, after the one earlier turn.
    const turns = (llm.requests[2]!.body.messages as { role: string; content: string }[]).filter(
      (m) => m.role !== 'system',
    );
    expect(turns).toEqual([
      { role: 'user', content: 'How do I install it?' },
      { role: 'assistant', content: 'Use npm [1].' },
      { role: 'user', content: 'And then?' },
    ]);
    expect(await stored()).toEqual([
      ['How do I install it?', 'Use npm [1].'],
      ['And then?', 'Then open the page [1].'],
    ]);
    await app.close();
  });
});

describe('the OpenAI and Anthropic providers', () => {
  it('talks to OpenAI’s chat completions with --llm-provider openai', async () => {
    llm.script({ text: ['From OpenAI [1].'] });
    const parts = await readStream(
      await post(await appWith({ provider: 'openai' }), askBody('How do I install it?')),
    );
    expect(textOf(parts)).toBe('From OpenAI [1].');
    expect(llm.requests[0]!.path).toBe('/v1/chat/completions');
    expect(llm.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('talks to Anthropic’s messages API with --llm-provider anthropic, thinking passed through', async () => {
    llm.script({ reasoning: ['Checking the passages.'], text: ['From Claude [1].'] });
    const parts = await readStream(
      await post(await appWith({ provider: 'anthropic' }), askBody('How do I install it?')),
    );
    expect(textOf(parts)).toBe('From Claude [1].');
    expect(
      parts
        .filter((p) => p.type === 'reasoning')
        .map((p) => p.value)
        .join(''),
    ).toBe('Checking the passages.');
    const request = llm.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(SECRET);
    expect(JSON.stringify(request.body.system)).toContain('only the numbered passages');
  });

  it('refuses to start a hosted provider without DOCS_ASSISTANT_LLM_API_KEY', async () => {
    await expect(demoApp({ llm: { provider: 'anthropic', model: 'claude' } })).rejects.toThrow(
      /DOCS_ASSISTANT_LLM_API_KEY/,
    );
  });
});

describe('docs-assistant serve --llm-…', () => {
  it('answers over real HTTP with the model, reading the key only from the environment', async () => {
    llm.script({ text: ['Run `npm install docs-assistant` [1].'] });
    const run = captureIo({ DOCS_ASSISTANT_LLM_API_KEY: SECRET });
    const exit = runCli(
      [
        'serve',
        '--port',
        '0',
        '--data',
        await tempDir(),
        '--llm-base-url',
        llm.baseUrl,
        '--llm-model',
        'test-model',
      ],
      run.io,
    );
    const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
    expect(run.out).toContain(`Answers by:      test-model at ${llm.baseUrl}`);
    const response = await fetch(`${url}/discovery/v1/assistant/demo/message`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO.assistantKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(askBody('How do I install it?')),
    });
    expect(textOf(await readStream(response))).toBe('Run `npm install docs-assistant` [1].');
    expect(llm.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    run.interrupt();
    expect(await exit).toBe(0);
    expect(run.out + run.err).not.toContain(SECRET);
  });

  it('has no flag for the key, and needs one for a hosted provider (exit 2)', async () => {
    const flag = captureIo();
    expect(
      await runCli(['serve', '--port', '0', '--llm-model', 'm', '--llm-api-key', SECRET], flag.io),
    ).toBe(2);
    const missing = captureIo({});
    expect(
      await runCli(
        [
          'serve',
          '--port',
          '0',
          '--llm-provider',
          'anthropic',
          '--llm-model',
          'claude-3-5-haiku-latest',
        ],
        missing.io,
      ),
    ).toBe(2);
    expect(missing.err).toContain('DOCS_ASSISTANT_LLM_API_KEY');
    const noUrl = captureIo({});
    expect(await runCli(['serve', '--port', '0', '--llm-model', 'llama3.2'], noUrl.io)).toBe(2);
    expect(noUrl.err).toContain('--llm-base-url');
  });
});

describe('the model gets the search’s confidence in its prompt', () => {
  const levelsOf = (parts: StreamPart[]) =>
    parts
      .filter((p) => p.type === 'message_annotations')
      .flatMap((p) => p.value as { type: string; level?: string }[])
      .filter((a) => a.type === 'confidence')
      .map((a) => a.level);

  it('is told when one section clearly answers, when the top hits are close, and when nothing matched', async () => {
    const app = await appWith();
    const cases = [
      ['How do I theme the widget colours?', 'one section that clearly answers', 'sure'],
      [
        'How do I change the launcher position?',
        'say plainly in one sentence that you are not sure',
        'unsure',
      ],
      [
        'Does it support single sign-on with SAML?',
        "say plainly that the docs don't cover it",
        'refused',
      ],
    ] as const;
    for (const [question, told, level] of cases) {
      llm.requests.length = 0;
      llm.script({ text: ['I am not sure; see the places below.'] });
      const parts = await readStream(await post(app, askBody(question)));
      const system = systemOf(llm.requests[0]!);
      expect(system, question).toMatch(/^Search confidence: /m);
      expect(system.toLowerCase(), question).toContain(told.toLowerCase());
      // The reader's stream carries the same level as the no-model answer's.
      expect(levelsOf(parts), question).toEqual([level]);
    }
  });
});

describe('the model is told which words of the question the search could not use', () => {
  const noteOf = (system: string) =>
    system.split('\n').filter((line) => /never use|too long to search whole/.test(line));

  it('names the words the docs never use, so it does not answer as if the passages covered them', async () => {
    const app = await appWith();
    llm.script({ text: ['The docs do not mention that [1].'] });
    await (await post(app, askBody('How do I theme the widget with flibbertigibbet?'))).text();
    expect(noteOf(systemOf(llm.requests[0]!))).toEqual([
      'Words the docs never use: “flibbertigibbet”. The search found nothing for them and no passage is about them; do not answer as if the docs covered them.',
    ]);

    // Every word found something: no such line.
    llm.requests.length = 0;
    llm.script({ text: ['Set the theme [1].'] });
    await (await post(app, askBody('How do I theme the widget?'))).text();
    expect(systemOf(llm.requests[0]!)).toMatch(/^Search confidence: /m);
    expect(noteOf(systemOf(llm.requests[0]!))).toEqual([]);
  });

  it('names the words a long question’s search left out, so it can search for them itself', async () => {
    llm.script({ text: ['Set the theme [1].'] });
    // Words of one term each ("widget12" would also be widget and 12).
    const long = `${Array.from({ length: 32 }, (_, i) => `w${i}`).join(' ')} theme launcher`;
    await (await post(await appWith(), askBody(long))).text();
    expect(noteOf(systemOf(llm.requests[0]!)).at(-1)).toBe(
      'The question was too long to search whole: the search used only its first 32 words and left out “theme”, “launcher”. Call the search tool for them if they matter to the question.',
    );
  });
});
