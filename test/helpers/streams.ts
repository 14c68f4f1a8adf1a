import { formatDataStreamPart } from 'ai';

export const part = formatDataStreamPart;

/** A 200 data-stream response whose body arrives in exactly these reads; `cut` breaks the connection after them. */
export function streamResponse(
  chunks: string[],
  { headers = {} as Record<string, string>, cut = false } = {},
): Response {
  const queue = [...chunks];
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (cut) controller.error(new TypeError('network error'));
      else controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Vercel-AI-Data-Stream': 'v1',
      ...headers,
    },
  });
}

export const finish = (extra: Record<string, unknown> = {}) =>
  part('finish_message', { finishReason: 'stop', ...extra } as { finishReason: 'stop' });

/** One answer using every part type of SPEC §2.3, made by the real `ai` encoder. */
export function everyPartStream(): string[] {
  return [
    part('start_step', { messageId: 'm1' }),
    part('tool_call_streaming_start', { toolCallId: 'c1', toolName: 'search' }),
    part('tool_call_delta', { toolCallId: 'c1', argsTextDelta: '{"query":"thr' }),
    part('tool_call_delta', { toolCallId: 'c1', argsTextDelta: 'eads"}' }),
    part('tool_result', {
      toolCallId: 'c1',
      result: {
        type: 'search',
        results: [
          { path: '/guides/threads', metadata: { title: 'Threads guide' } },
          { url: 'javascript:alert(1)', metadata: { title: 'Evil' } },
        ],
      },
    }),
    part('finish_step', { finishReason: 'tool-calls', isContinued: false }),
    part('start_step', { messageId: 'm1' }),
    part('reasoning', 'The threads page answers this.'),
    part('redacted_reasoning', { data: 'c2VjcmV0' }),
    part('reasoning_signature', { signature: 'sig' }),
    part('source', {
      sourceType: 'url',
      id: 's1',
      url: 'https://docs.example.com/threads',
      title: 'Threads',
    }),
    part('source', {
      sourceType: 'url',
      id: 's2',
      url: 'https://docs.example.com/threads',
      title: 'Threads (again)',
    }),
    part('source', {
      sourceType: 'url',
      id: 's3',
      url: 'javascript:alert(document.cookie)',
      title: 'Bad source',
    }),
    part('tool_call', { toolCallId: 'c2', toolName: 'lookup', args: { id: 42 } }),
    // Not a spec part type: the SDK adds a `file` part, the widget must skip it.
    part('file', { data: 'aGVsbG8=', mimeType: 'text/plain' }),
    part(
      'text',
      '## Threads\n\nEvery conversation gets a `threadId`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n',
    ),
    part('text', '```ts\nconst id = response.headers.get("X-Thread-Id");\n```\n\n'),
    part(
      'text',
      '```suggestions\n(Threads guide)[/guides/threads]\n(Evil)[javascript:alert(1)]\n```\n',
    ),
    part('finish_step', { finishReason: 'stop', isContinued: false }),
    finish(),
  ];
}

/** A stream that sends `head` at once and `tail` (then closes) only when `release()` is called. */
export function gatedStream(head: string[], tail: string[] = []) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const encoder = new TextEncoder();
  const response = () =>
    new Response(
      new ReadableStream({
        async start(controller) {
          for (const line of head) controller.enqueue(encoder.encode(line));
          await gate;
          for (const line of tail) controller.enqueue(encoder.encode(line));
          controller.close();
        },
      }),
    );
  return { response, release: () => release() };
}
