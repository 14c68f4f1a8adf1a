// @vitest-environment jsdom
import type { UIMessage } from '@ai-sdk/ui-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  loadConversation,
  MAX_SAVED_BYTES,
  saveConversation,
  storageKey,
} from '../src/chat/persistence.js';

const message = (id: string, role: 'user' | 'assistant', text: string): UIMessage => ({
  id,
  role,
  content: text,
  parts: [{ type: 'text', text }],
});

describe('saveConversation', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the newest turns that fit the cap, starting at a question', () => {
    const long = 'x'.repeat(MAX_SAVED_BYTES / 4);
    const messages = [
      message('q1', 'user', 'First question'),
      message('a1', 'assistant', long),
      message('q2', 'user', 'Second question'),
      message('a2', 'assistant', long),
      message('q3', 'user', 'Third question'),
      message('a3', 'assistant', 'A short answer.'),
    ];
    saveConversation('docs', { messages, threadId: 't1' });
    expect(localStorage.getItem(storageKey('docs'))!.length).toBeLessThanOrEqual(MAX_SAVED_BYTES);
    const saved = loadConversation('docs')!;
    // a1 and a2 carry their text twice (content and part): only the last long answer fits.
    expect(saved.messages.map((m) => m.id)).toEqual(['q2', 'a2', 'q3', 'a3']);
    expect(saved.threadId).toBe('t1');
  });

  it('keeps the thread but no messages when the last answer alone is over the cap', () => {
    const messages = [
      message('q1', 'user', 'Show me everything'),
      message('a1', 'assistant', 'y'.repeat(MAX_SAVED_BYTES)),
    ];
    saveConversation('docs', { messages, threadId: 't1' });
    expect(loadConversation('docs')).toEqual({ messages: [], threadId: 't1' });
  });
});
