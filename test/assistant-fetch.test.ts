import { processDataStream } from '@ai-sdk/ui-utils';
import { describe, expect, it, vi } from 'vitest';
import {
  createAssistantFetch,
  MAX_UPDATE_CHARS,
  type ThreadIds,
} from '../src/chat/assistant-fetch.js';
import { AssistantError } from '../src/client/index.js';
import { taskCounter } from './helpers/tasks.js';

const enc = new TextEncoder();

/** A response whose body arrives in exactly these reads; `cut` makes the connection fail after them. */
function streamResponse(
  chunks: (string | Uint8Array)[],
  { headers = {} as Record<string, string>, status = 200, cut = false } = {},
) {
  const queue = [...chunks];
  // One chunk per pull: erroring in start() would discard the queued chunks before anyone reads them.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined)
        controller.enqueue(typeof chunk === 'string' ? enc.encode(chunk) : chunk);
      else if (cut) controller.error(new TypeError('network error'));
      else controller.close();
    },
  });
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers },
  });
}

function setup(
  respond: (body: Record<string, unknown>, call: number) => Response | Promise<Response>,
  initial: ThreadIds = {},
) {
  let thread: ThreadIds = { ...initial };
  const bodies: Record<string, unknown>[] = [];
  const streamErrors: AssistantError[] = [];
  const warnings: string[] = [];
  const setThread = vi.fn((ids: ThreadIds) => {
    thread = { ...ids };
  });
  const wrapped = createAssistantFetch({
    fetch: async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      bodies.push(body);
      return respond(body, bodies.length);
    },
    getThread: () => thread,
    setThread,
    onStreamError: (e) => streamErrors.push(e),
    onWarning: (w) => warnings.push(w.sample),
  });
  const call = (body: Record<string, unknown> = { id: 'chat', messages: [] }) =>
    wrapped('http://x/message', { method: 'POST', body: JSON.stringify(body) });
  return { call, bodies, streamErrors, warnings, setThread, thread: () => thread };
}

async function sdkText(response: Response) {
  let text = '';
  await processDataStream({ stream: response.body!, onTextPart: (t) => void (text += t) });
  return text;
}

const finish = 'd:{"finishReason":"stop"}\n';

describe('assistant fetch: stream hygiene', () => {
  it('drops a bad line, keeps every good one of the same read, and warns once', async () => {
    const chunk = '0:"Hello"\nzz:nonsense\n0:" world"\n0:{broken\n' + finish;
    // The stock SDK loses the whole read when one line of it is bad.
    await expect(
      processDataStream({ stream: streamResponse([chunk]).body!, onTextPart: () => {} }),
    ).rejects.toThrow();
    const { call, warnings } = setup(() => streamResponse([chunk]));
    expect(await sdkText(await call())).toBe('Hello world');
    expect(warnings).toEqual(['zz:nonsense']);
  });

  it('reassembles lines and UTF-8 characters split across reads', async () => {
    const bytes = enc.encode('0:"héllo ☃"\n' + finish);
    const { call } = setup(() =>
      streamResponse([bytes.slice(0, 5), bytes.slice(5, 10), bytes.slice(10)]),
    );
    expect(await sdkText(await call())).toBe('héllo ☃');
  });

  it('merges adjacent text deltas of one read into one part', async () => {
    const { call } = setup(() =>
      streamResponse(['f:{"messageId":"m"}\n0:"a"\n0:"b"\n0:"c"\ng:"why"\n0:"d"\n' + finish]),
    );
    const out = await (await call()).text();
    expect(out).toBe('f:{"messageId":"m"}\n0:"abc"\ng:"why"\n0:"d"\n' + finish);
  });

  it('ends a cut connection with an error part, keeping the partial answer', async () => {
    const { call, streamErrors } = setup(() =>
      streamResponse(['0:"partial "\n', '0:"answer"\n'], { cut: true }),
    );
    const out = await (await call()).text();
    // Both reads arrive within one frame, so they reach the SDK as one text part.
    expect(out).toBe(
      '0:"partial answer"\n3:"The connection was lost before the answer was complete."\n',
    );
    expect(streamErrors.map((e) => e.kind)).toEqual(['network']);
  });

  it('hands the SDK at most one update per frame, however many reads arrive', async () => {
    const reads = Array.from({ length: 200 }, (_, i) => `0:"${i} "\n`);
    const { call } = setup(() => streamResponse([...reads, finish]));
    const reader = (await call()).body!.getReader();
    let updates = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      updates++;
      text += new TextDecoder().decode(value);
    }
    expect(updates).toBeLessThan(5);
    expect(text).toBe(
      `0:${JSON.stringify(Array.from({ length: 200 }, (_, i) => `${i} `).join(''))}\n${finish}`,
    );
  });

  it('hands a burst over in slices, in order, without splitting a character', async () => {
    const answer = `${'a'.repeat(MAX_UPDATE_CHARS - 1)}😀${'b'.repeat(2 * MAX_UPDATE_CHARS)}`;
    const { call } = setup(() => streamResponse([`0:${JSON.stringify(answer)}\n${finish}`]));
    const reader = (await call()).body!.getReader();
    const updates: string[] = [];
    // Which task each update arrived in: tasks are counted while the reads go on.
    const counter = taskCounter();
    const tasks: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      updates.push(new TextDecoder().decode(value));
      tasks.push(counter.now());
    }
    counter.stop();
    const texts = updates.flatMap((update) =>
      update
        .split('\n')
        .filter((line) => line.startsWith('0:'))
        .map((line) => JSON.parse(line.slice(2)) as string),
    );
    // Each slice is its own read in its own task, so the SDK renders each in a task of its own.
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(tasks.every((at, i) => i === 0 || at > tasks[i - 1]!)).toBe(true);
    expect(texts.every((text) => text.length <= MAX_UPDATE_CHARS)).toBe(true);
    expect(texts.join('')).toBe(answer);
    expect(updates.at(-1)!.endsWith(finish)).toBe(true);
  });

  it('treats a stream that ends without a finish part as cut', async () => {
    const { call, streamErrors } = setup(() => streamResponse(['0:"half"\n']));
    expect(await (await call()).text()).toMatch(
      /^0:"half"\n3:"The connection closed before the answer was complete."\n$/,
    );
    expect(streamErrors).toHaveLength(1);
  });

  it('reports a server error part as a typed stream error', async () => {
    const { call, streamErrors } = setup(() =>
      streamResponse(['0:"so far"\n3:"model overloaded"\n']),
    );
    expect(await (await call()).text()).toBe('0:"so far"\n3:"model overloaded"\n');
    expect(streamErrors).toEqual([
      expect.objectContaining({ kind: 'server', message: 'model overloaded' }),
    ]);
  });

  it('lets an abort through as an AbortError so the SDK treats it as stop', async () => {
    const controller = new AbortController();
    const wrapped = createAssistantFetch({
      fetch: async (_u, init) => {
        init?.signal?.throwIfAborted();
        return streamResponse(['0:"x"\n', finish]);
      },
      getThread: () => ({}),
      setThread: () => {},
    });
    controller.abort();
    await expect(
      wrapped('http://x', { method: 'POST', body: '{}', signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('assistant fetch: threads', () => {
  const carriers: [string, Response][] = [
    [
      'the X-Thread-Id header',
      streamResponse(['0:"a"\n' + finish], { headers: { 'X-Thread-Id': 'T-header' } }),
    ],
    [
      'the finish message part',
      streamResponse(['0:"a"\nd:{"finishReason":"stop","threadId":"T-d"}\n']),
    ],
    [
      'a finish step part',
      streamResponse([
        '0:"a"\ne:{"finishReason":"stop","isContinued":false,"threadId":"T-e"}\n' + finish,
      ]),
    ],
    ['a data item', streamResponse(['2:[{"type":"finish","threadId":"T-2"}]\n0:"a"\n' + finish])],
    ['a message annotation', streamResponse(['8:[{"threadId":"T-8"}]\n0:"a"\n' + finish])],
  ];
  for (const [carrier, response] of carriers) {
    it(`picks up threadId from ${carrier} and sends it on the follow-up`, async () => {
      const expected = carrier.includes('header')
        ? 'T-header'
        : `T-${carrier.match(/finish message/) ? 'd' : carrier.match(/step/) ? 'e' : carrier.match(/data/) ? '2' : '8'}`;
      const { call, bodies } = setup((_b, n) => (n === 1 ? response : streamResponse([finish])));
      await (await call()).text();
      await (await call({ id: 'chat', messages: [] })).text();
      expect(bodies[0]).not.toHaveProperty('threadId');
      expect(bodies[1]).toMatchObject({ threadId: expected });
    });
  }

  it('keeps the X-Thread-Key secret and sends it with every follow-up', async () => {
    const { call, bodies } = setup((_b, n) =>
      n === 1
        ? streamResponse([finish], { headers: { 'X-Thread-Id': 'T1', 'X-Thread-Key': 'secret' } })
        : streamResponse([finish], { headers: { 'X-Thread-Id': 'T1' } }),
    );
    await (await call()).text();
    await (await call()).text();
    await (await call()).text();
    expect(bodies[1]).toMatchObject({ threadId: 'T1', threadKey: 'secret' });
    expect(bodies[2]).toMatchObject({ threadId: 'T1', threadKey: 'secret' });
  });

  it('drops a stale thread on 404 thread_not_found and asks again once as a new thread', async () => {
    const { call, bodies, setThread } = setup(
      (body) =>
        body.threadId
          ? new Response('{"error":"thread_not_found","message":"gone"}', { status: 404 })
          : streamResponse(['0:"fresh"\n' + finish], { headers: { 'X-Thread-Id': 'T-new' } }),
      { threadId: 'T-old', threadKey: 'k' },
    );
    expect(await sdkText(await call())).toBe('fresh');
    expect(bodies.map((b) => b.threadId)).toEqual(['T-old', undefined]);
    expect(bodies[1]).not.toHaveProperty('threadKey');
    expect(setThread).toHaveBeenNthCalledWith(1, {});
    expect(setThread).toHaveBeenLastCalledWith({ threadId: 'T-new' });
  });

  it('does not loop when the retry is refused too', async () => {
    const { call, bodies } = setup(
      () => new Response('{"error":"thread_not_found","message":"gone"}', { status: 404 }),
      { threadId: 'T-old' },
    );
    await expect(call()).rejects.toMatchObject({ kind: 'not_found', code: 'thread_not_found' });
    expect(bodies).toHaveLength(2);
  });
});

describe('assistant fetch: errors and request bodies', () => {
  const cases: [number, string, Record<string, string>, string, Partial<AssistantError>][] = [
    [
      401,
      '{"error":"unauthorized","message":"Bad key."}',
      {},
      'unauthorized',
      { message: 'Bad key.', code: 'unauthorized' },
    ],
    [
      403,
      '{"error":"wrong_key_type","message":"Admin key."}',
      {},
      'forbidden',
      { code: 'wrong_key_type' },
    ],
    [
      404,
      '{"error":"domain_not_found","message":"No site."}',
      {},
      'not_found',
      { code: 'domain_not_found' },
    ],
    [
      429,
      '{"error":"rate_limited","message":"Slow down."}',
      { 'Retry-After': '120' },
      'rate_limited',
      { retryAfterSeconds: 120 },
    ],
    [
      400,
      '{"error":"invalid_request","message":"fp: Required"}',
      {},
      'bad_request',
      { message: 'fp: Required' },
    ],
    [500, '<html>oops</html>', {}, 'server', { status: 500 }],
    [502, '', {}, 'server', { status: 502, message: 'The server answered 502.' }],
  ];
  for (const [status, body, headers, kind, fields] of cases) {
    it(`turns a ${status} into a typed ${kind} error`, async () => {
      const { call } = setup(() => new Response(body, { status, headers }));
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AssistantError);
      expect(error).toMatchObject({ kind, status, ...fields });
    });
  }

  it('turns a failed fetch into a network error', async () => {
    const wrapped = createAssistantFetch({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      getThread: () => ({}),
      setThread: () => {},
    });
    await expect(wrapped('http://x', { method: 'POST', body: '{}' })).rejects.toMatchObject({
      kind: 'network',
    });
  });

  it("sends only the spec's fields: no SDK chat id, no non-spec parts", async () => {
    const { call, bodies } = setup(() => streamResponse([finish]));
    await (
      await call({
        id: 'docs-assistant:demo',
        fp: 'anonymous',
        messages: [
          {
            id: 'a',
            role: 'assistant',
            content: 'x',
            parts: [
              { type: 'text', text: 'x' },
              { type: 'file', data: 'x', mimeType: 'a/b' },
              { type: 'step-start' },
            ],
          },
        ],
      })
    ).text();
    expect(bodies[0]).toEqual({
      fp: 'anonymous',
      messages: [
        {
          id: 'a',
          role: 'assistant',
          content: 'x',
          parts: [{ type: 'text', text: 'x' }, { type: 'step-start' }],
        },
      ],
    });
  });
});
