import { classifyKey, wrongKeySentence } from '../protocol/keys.js';
import { assistantMessageV2Url } from '../protocol/routes.js';

export { assistantMessageUrl } from '../protocol/routes.js';

/**
 * Browser code may hold an assistant key only (SPEC §5). Throws at once, before anything is sent,
 * when given an admin key.
 */
export function assertBrowserSafeKey(apiKey: string | undefined): void {
  if (apiKey !== undefined && classifyKey(apiKey) === 'admin') {
    throw new Error(wrongKeySentence('docs-assistant: the apiKey', 'assistant', 'admin'));
  }
}

export { assistantMessageV2Url } from '../protocol/routes.js';

/** What a v2 answer's `message.metadata` holds (the `finish` event's `messageMetadata`). */
export interface AssistantV2Metadata {
  /** The thread a follow-up continues: send it back as `threadId`. */
  threadId: string;
}

export interface AssistantV2Options {
  /** API root ({base_url}); `''` for the same origin. */
  baseUrl: string;
  domain: string;
  /** An assistant key (`svc_dsc_…`); omit behind a proxy that adds it. */
  apiKey?: string;
  /** The reader's id (SPEC §2.1 `fp`). */
  fp: string;
  retrievalPageSize?: number;
  filter?: { version?: string; language?: string; groups?: string[] };
}

/**
 * The options of an AI SDK 5+ `DefaultChatTransport` for the v2 operation (NOTES §8):
 * `new DefaultChatTransport(assistantV2Transport({ baseUrl, domain, apiKey, fp }))`. Throws at
 * once when given an admin key. Needs no `ai` import, so it works with SDK 5 and 6 alike.
 */
export function assistantV2Transport(options: AssistantV2Options): {
  api: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  assertBrowserSafeKey(options.apiKey);
  const { baseUrl, domain, apiKey, ...body } = options;
  return {
    api: assistantMessageV2Url(baseUrl, domain),
    headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
    body,
  };
}

/** The thread a v2 answer belongs to, from its `message.metadata`; undefined when it has none. */
export function threadIdOf(message: { metadata?: unknown }): string | undefined {
  const metadata = message.metadata as Partial<AssistantV2Metadata> | undefined;
  return typeof metadata?.threadId === 'string' ? metadata.threadId : undefined;
}
