import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local model server for tests: it speaks OpenAI's chat-completions streaming (SSE, tool calls
 * and `reasoning_content` included) at /v1/chat/completions and Anthropic's messages streaming at
 * /v1/messages, so the real AI SDK provider packages talk to it as to a real server. Each request
 * takes the next scripted reply; every request body is kept for the test to inspect.
 */
export type Reply =
  /** Streams text (in these chunks), optionally after reasoning. */
  | { text: string[]; reasoning?: string[] }
  /** Asks to call a tool. */
  | { toolCall: { name: string; args: Record<string, unknown> } }
  /** Answers with an HTTP error before any stream. */
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Streams these chunks, then stays silent forever (until the client gives up). */
  | { hangAfter: string[] }
  /** Streams these chunks, then drops the connection. */
  | { cutAfter: string[] };

export interface LlmTestServer {
  /** API root, `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  requests: { path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  /** How many streamed replies ended because the client closed the connection. */
  readonly abandoned: number;
  /** Replies for the next requests, in order. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

const sse = (res: ServerResponse, data: unknown, event?: string) =>
  res.write(
    `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
  );

function openAiStream(res: ServerResponse, reply: Reply) {
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null = null,
    extra: Record<string, unknown> = {},
  ) =>
    sse(res, {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'test',
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  if ('toolCall' in reply) {
    chunk({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          index: 0,
          id: 'call_1',
          type: 'function',
          function: { name: reply.toolCall.name, arguments: '' },
        },
      ],
    });
    chunk({
      tool_calls: [{ index: 0, function: { arguments: JSON.stringify(reply.toolCall.args) } }],
    });
    chunk({}, 'tool_calls', { usage: { prompt_tokens: 10, completion_tokens: 5 } });
    sse(res, '[DONE]');
    res.end();
    return;
  }
  const pieces =
    'text' in reply
      ? reply.text
      : 'hangAfter' in reply
        ? reply.hangAfter
        : 'cutAfter' in reply
          ? reply.cutAfter
          : [];
  for (const reasoning of 'reasoning' in reply ? (reply.reasoning ?? []) : [])
    chunk({ role: 'assistant', reasoning_content: reasoning });
  for (const piece of pieces) chunk({ role: 'assistant', content: piece });
  if ('hangAfter' in reply) return;
  if ('cutAfter' in reply) {
    // After the chunks have left, as a connection lost mid-answer would.
    setTimeout(() => res.socket?.destroy(), 50);
    return;
  }
  chunk({}, 'stop', { usage: { prompt_tokens: 10, completion_tokens: 5 } });
  sse(res, '[DONE]');
  res.end();
}

function anthropicStream(res: ServerResponse, reply: Reply) {
  sse(
    res,
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'test',
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
    'message_start',
  );
  let index = 0;
  const stop = (reason: string) => {
    sse(
      res,
      {
        type: 'message_delta',
        delta: { stop_reason: reason, stop_sequence: null },
        usage: { output_tokens: 5 },
      },
      'message_delta',
    );
    sse(res, { type: 'message_stop' }, 'message_stop');
    res.end();
  };
  if ('toolCall' in reply) {
    sse(
      res,
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: 'toolu_1', name: reply.toolCall.name, input: {} },
      },
      'content_block_start',
    );
    sse(
      res,
      {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.toolCall.args) },
      },
      'content_block_delta',
    );
    sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
    stop('tool_use');
    return;
  }
  if ('reasoning' in reply && reply.reasoning) {
    sse(
      res,
      { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } },
      'content_block_start',
    );
    for (const piece of reply.reasoning)
      sse(
        res,
        { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } },
        'content_block_delta',
      );
    sse(
      res,
      { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'sig' } },
      'content_block_delta',
    );
    sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  const pieces =
    'text' in reply
      ? reply.text
      : 'hangAfter' in reply
        ? reply.hangAfter
        : 'cutAfter' in reply
          ? reply.cutAfter
          : [];
  sse(
    res,
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    'content_block_start',
  );
  for (const piece of pieces)
    sse(
      res,
      { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      'content_block_delta',
    );
  if ('hangAfter' in reply) return;
  if ('cutAfter' in reply) {
    setTimeout(() => res.socket?.destroy(), 50);
    return;
  }
  sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
  stop('end_turn');
}

export async function startLlmServer(): Promise<LlmTestServer> {
  const queue: Reply[] = [];
  const requests: LlmTestServer['requests'] = [];
  let abandoned = 0;
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    requests.push({
      path: req.url ?? '',
      headers: req.headers,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
    });
    const reply = queue.shift() ?? { text: ['(no scripted reply)'] };
    if ('status' in reply) {
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
      res.end(
        reply.body ??
          JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'error' } }),
      );
      return;
    }
    res.on('close', () => {
      if (!res.writableEnded) abandoned++;
    });
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.flushHeaders();
    if (req.url === '/v1/messages') anthropicStream(res, reply);
    else openAiStream(res, reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get abandoned() {
      return abandoned;
    },
    script: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
