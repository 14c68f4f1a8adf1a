import { formatStreamPart as part } from '../../src/protocol/index.js';

/** Deterministic answers for the gallery: each scenario is what a fetch would return, byte for byte. */
export type ScenarioName =
  | 'empty'
  | 'answer'
  | 'every-part'
  | 'long'
  | 'streaming'
  | 'context'
  | 'stopped'
  | 'queued'
  | 'feedback'
  | 'failed'
  | 'error-unauthorized'
  | 'error-forbidden'
  | 'error-not-found'
  | 'error-rate-limited'
  | 'error-server'
  | 'error-network'
  | 'error-cut';

const finish = part('finish_message', { finishReason: 'stop' });

function stream(lines: string[], { delayMs = 0, hang = false, cut = false } = {}): Response {
  const encoder = new TextEncoder();
  const queue = [...lines];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const line = queue.shift();
      if (line === undefined) {
        if (hang) return new Promise<void>(() => {});
        if (cut) controller.error(new TypeError('network error'));
        else controller.close();
        return;
      }
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      controller.enqueue(encoder.encode(line));
    },
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Thread-Id': '01JGALLERY0000000000000000',
    },
  });
}

const search = (query: string, hits: { path: string; title: string }[]) => [
  part('start_step', { messageId: 'gallery' }),
  part('tool_call', { toolCallId: 'c1', toolName: 'search', args: { query } }),
  part('tool_result', {
    toolCallId: 'c1',
    result: hits.map((h) => ({ url: `/docs${h.path}`, path: h.path, title: h.title })),
  }),
  part('finish_step', { finishReason: 'tool-calls', isContinued: false }),
  part('start_step', { messageId: 'gallery' }),
];

const words = (text: string) => text.match(/\S+\s*/g)!.map((w) => part('text', w));

export const QUESTIONS: Partial<Record<ScenarioName, string>> = {
  answer: 'How do I install it?',
  'every-part': 'How do threads work?',
  long: 'Give me the whole configuration reference',
  streaming: 'How does static export work?',
  context: 'What does this command do?',
  stopped: 'How does static export work?',
  queued: 'How does static export work?',
  feedback: 'How do I install it?',
  failed: 'How does static export work?',
  'error-unauthorized': 'How do I install it?',
  'error-forbidden': 'How do I install it?',
  'error-not-found': 'How do I install it?',
  'error-rate-limited': 'How do I install it?',
  'error-server': 'How do I install it?',
  'error-network': 'How do I install it?',
  'error-cut': 'How does static export work?',
};

function longAnswer(): string {
  const sections = ['Retrieval', 'Filters', 'Theming', 'Labels', 'Persistence', 'Threads'].map(
    (name, i) =>
      `## ${name}\n\nThe **${name.toLowerCase()}** options change how the assistant behaves. ` +
      'Each option is a prop of the React component and a `data-` attribute of the script tag.\n\n' +
      `| Option | Default | Meaning |\n|---|---|---|\n| \`${name.toLowerCase()}A\` | \`${i}\` | The first knob. |\n| \`${name.toLowerCase()}B\` | \`true\` | The second knob. |\n\n` +
      '```tsx\n<DocsAssistant domain="acme" ' +
      `${name.toLowerCase()}A={${i + 1}}` +
      ' />\n```\n\n- One point to remember.\n- Another one, with a [link](/docs/widget#the-chat-experience).\n',
  );
  return sections.join('\n');
}

export function respond(name: ScenarioName): Response | Promise<Response> {
  switch (name) {
    case 'empty':
      return stream([finish]);
    case 'feedback':
    case 'answer':
      return stream(
        [
          ...search('install', [
            { path: '/widget', title: 'The React widget' },
            { path: '/script-tag', title: 'The script tag' },
          ]),
          part(
            'reasoning',
            'The widget page covers npm and the script tag page the tag; I quote both.',
          ),
          part('source', {
            sourceType: 'url',
            id: '/widget',
            url: '/docs/widget',
            title: 'The React widget',
          }),
          ...words(
            'There are two ways to install the assistant [1]:\n\n1. **From npm**, for React sites:\n\n',
          ),
          part('text', '```bash\nnpm install docs-assistant react react-dom\n```\n\n'),
          ...words(
            '2. **With a script tag**, on any site. No build step is needed; see [The script tag](/docs/script-tag).',
          ),
          part('message_annotations', [
            {
              type: 'suggestions',
              questions: ['Tell me about “The script tag”', 'Tell me about “Theming”'],
            },
          ]),
          finish,
        ],
        { delayMs: 15 },
      );
    case 'every-part':
      return stream([
        part('start_step', { messageId: 'gallery' }),
        part('tool_call', {
          toolCallId: 'c1',
          toolName: 'search',
          args: { query: 'threads follow-up threadId' },
        }),
        part('tool_result', {
          toolCallId: 'c1',
          result: {
            type: 'search',
            results: [
              {
                path: '/docs/widget#the-chat-experience',
                metadata: { title: 'The chat experience' },
              },
              {
                path: '/docs/server',
                metadata: { title: 'The reference server' },
              },
            ],
          },
        }),
        part('finish_step', { finishReason: 'tool-calls', isContinued: false }),
        part('start_step', { messageId: 'gallery' }),
        part(
          'reasoning',
          'The threads guide explains follow-ups; the API page shows where the id travels.',
        ),
        part('redacted_reasoning', { data: 'c2VjcmV0' }),
        part('source', {
          sourceType: 'url',
          id: 's1',
          url: '/docs/widget#the-chat-experience',
          title: 'The chat experience',
        }),
        part('source', {
          sourceType: 'url',
          id: 's2',
          url: 'javascript:alert(1)',
          title: 'Not a link',
        }),
        part('tool_call', {
          toolCallId: 'c2',
          toolName: 'fetch_page',
          args: { path: '/widget' },
        }),
        part(
          'text',
          '### Threads\n\nEvery new conversation gets a `threadId` [1]. The widget sends it back with each follow-up.\n\n',
        ),
        part(
          'text',
          '| Carrier | Example |\n|---|---|\n| Header | `X-Thread-Id` |\n| Finish part | `d:{"threadId":…}` |\n\n',
        ),
        part(
          'text',
          '```ts\nconst threadId = response.headers.get("X-Thread-Id");\n```\n\n> A stale `threadId` gets 404; the widget starts a new thread.\n\n',
        ),
        part(
          'text',
          '```suggestions\n(The chat experience)[/docs/widget#the-chat-experience]\n(Security and hostile input)[/docs/security]\n```\n',
        ),
        part('finish_step', { finishReason: 'stop', isContinued: false }),
        finish,
      ]);
    case 'long':
      return stream([
        ...search('configuration', [{ path: '/widget', title: 'The React widget' }]),
        part('text', longAnswer()),
        finish,
      ]);
    case 'stopped':
    case 'queued':
    case 'streaming':
      return stream(
        [
          ...search('static export', [{ path: '/static-export/overview', title: 'Static export' }]),
          ...words(
            'Static export turns your documentation site into a self-contained set of HTML, CSS and JavaScript files. It runs as a job: start it, poll it',
          ),
        ],
        { delayMs: 40, hang: true },
      );
    case 'context':
      return stream(
        [
          ...search('export status', [
            { path: '/static-export/cli', title: 'Export from the command line' },
          ]),
          ...words(
            '`export status` shows a job: its status, progress and page count. Run it with the job id the export printed.',
          ),
          finish,
        ],
        { delayMs: 10 },
      );
    case 'failed':
      return stream([
        ...search('static export', [{ path: '/static-export/overview', title: 'Static export' }]),
        ...words('Static export is **asynchronous**: start a job, then'),
        part('error', 'The answer was cut short by a server error. Please ask again.'),
      ]);
    case 'error-unauthorized':
      return new Response('{"error":"unauthorized","message":"Bad key"}', { status: 401 });
    case 'error-forbidden':
      return new Response('{"error":"forbidden","message":"Other org"}', { status: 403 });
    case 'error-not-found':
      return new Response('{"error":"domain_not_found","message":"No site"}', { status: 404 });
    case 'error-rate-limited':
      return new Response(
        '{"error":"rate_limited","message":"Slow down","retryAfterSeconds":120}',
        { status: 429, headers: { 'Retry-After': '120' } },
      );
    case 'error-server':
      return new Response('', { status: 502 });
    case 'error-network':
      return Promise.reject(new TypeError('Failed to fetch'));
    case 'error-cut':
      return stream(
        [
          ...search('static export', [{ path: '/static-export/overview', title: 'Static export' }]),
          ...words('Static export is asynchronous: start a job, then'),
        ],
        { cut: true },
      );
  }
}
