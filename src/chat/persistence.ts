import { isRecord } from '../protocol/_guards.js';
import type { ContextItem } from '../protocol/types.js';
import type { ThreadIds } from './assistant-fetch.js';
import type { ChatMessage } from './message.js';

export interface SavedConversation extends ThreadIds {
  messages: ChatMessage[];
  /** Context items sent with each question, by user message id. */
  context?: Record<string, ContextItem[]>;
  /** Ids of messages whose answer was stopped. */
  stopped?: string[];
}

function isContextMap(value: unknown): value is Record<string, ContextItem[]> {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (items) =>
        Array.isArray(items) &&
        items.every(
          (item: unknown) =>
            isRecord(item) &&
            (item.type === 'code' || item.type === 'textSelection') &&
            typeof item.value === 'string',
        ),
    )
  );
}

/** Kept small: history is a convenience, and localStorage is ~5 MB shared with the whole site. */
export const MAX_SAVED_MESSAGES = 50;
export const MAX_SAVED_BYTES = 256 * 1024;

export const storageKey = (domain: string) => `docs-assistant:v1:${domain}`;

/** localStorage, or nothing: Safari's private mode and sandboxed frames throw on mere access. */
function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function isMessage(value: unknown): value is ChatMessage {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.role === 'string' &&
    typeof value.content === 'string' &&
    Array.isArray(value.parts)
  );
}

export function loadConversation(domain: string): SavedConversation | undefined {
  try {
    const raw = storage()?.getItem(storageKey(domain));
    if (!raw) return undefined;
    const data: unknown = JSON.parse(raw);
    if (!isRecord(data)) return undefined;
    const saved = data.messages;
    if (!Array.isArray(saved) || !saved.every(isMessage)) return undefined;
    const messages = saved.map((m) => ({
      ...m,
      ...(m.createdAt ? { createdAt: new Date(m.createdAt) } : {}),
    }));
    const stopped = data.stopped;
    return {
      messages,
      ...(typeof data.threadId === 'string' ? { threadId: data.threadId } : {}),
      ...(typeof data.threadKey === 'string' ? { threadKey: data.threadKey } : {}),
      ...(isContextMap(data.context) ? { context: data.context } : {}),
      ...(Array.isArray(stopped) && stopped.every((id) => typeof id === 'string')
        ? { stopped }
        : {}),
    };
  } catch {
    return undefined;
  }
}

/** Saves the newest messages that fit the caps, oldest dropped first; a failing storage is ignored. */
export function saveConversation(domain: string, conversation: SavedConversation): void {
  const store = storage();
  if (!store) return;
  let messages = conversation.messages.slice(-MAX_SAVED_MESSAGES);
  // Each message is serialised once to measure it: an answer can be 200,000 characters, and
  // serialising the whole history again per dropped message was a long task when such an answer ended.
  const sizes = messages.map((message) => JSON.stringify(message).length + 1);
  let size = JSON.stringify({ ...conversation, messages: [] }).length;
  for (const each of sizes) size += each;
  let first = 0;
  while (first < messages.length && size > MAX_SAVED_BYTES) size -= sizes[first++]!;
  messages = messages.slice(first);
  // A history that opens on an answer reads oddly; start it at a question.
  while (messages.length > 0 && messages[0]!.role !== 'user') messages = messages.slice(1);
  try {
    if (messages.length === 0 && !conversation.threadId) store.removeItem(storageKey(domain));
    else store.setItem(storageKey(domain), JSON.stringify({ ...conversation, messages }));
  } catch {
    // Quota exceeded or storage disabled: the conversation still works, it just won't survive a reload.
  }
}

export function clearConversation(domain: string): void {
  try {
    storage()?.removeItem(storageKey(domain));
  } catch {
    // see saveConversation
  }
}
