import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai-v6';
import { DEMO } from '../../src/server/config.js';
import { assistantMessageV2Url } from '../../src/protocol/routes.js';
import type { TestApp } from './server.js';

export const V2_URL = assistantMessageV2Url('http://test', DEMO.domain);

let counter = 0;
/** A user's question as an AI SDK 5+ client sends it: parts only, no `content`. */
export function uiUserMessage(text: string): UIMessage {
  return { id: `v2u${++counter}`, role: 'user', parts: [{ type: 'text', text }] };
}

/**
 * SDK 6's own client against the in-process server: `DefaultChatTransport` sends, parses the
 * event stream and hands back UI message chunks; `responses` keeps every response it got.
 */
export function v2Transport(app: TestApp, { key = DEMO.assistantKey as string | null } = {}) {
  const responses: Response[] = [];
  const transport = new DefaultChatTransport<UIMessage>({
    api: V2_URL,
    headers: key ? { Authorization: `Bearer ${key}` } : {},
    body: { fp: 'anonymous' },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await app.request(String(input), init);
      responses.push(response.clone());
      return response;
    }) as typeof fetch,
  });
  return { transport, responses };
}

/** Sends `messages` (plus `body` fields) and reads the answer with `readUIMessageStream`. */
export async function askV2(
  app: TestApp,
  messages: UIMessage[],
  body: Record<string, unknown> = {},
  options: { key?: string | null } = {},
) {
  const { transport, responses } = v2Transport(app, options);
  const errors: unknown[] = [];
  const stream = await transport.sendMessages({
    chatId: 'chat',
    messages,
    abortSignal: undefined,
    trigger: 'submit-message',
    messageId: undefined,
    body,
  });
  let message: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(e) }))
    message = m;
  return { message: message!, errors, response: responses[0]! };
}

export const textOfMessage = (message: UIMessage) =>
  message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

/** Every `data:` event of a raw v2 response, `[DONE]` as the string. */
export async function sseEvents(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice(6))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}
