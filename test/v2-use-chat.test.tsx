// @vitest-environment jsdom
import { useChat } from '@ai-sdk/react-v3';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { DefaultChatTransport, type UIMessage } from 'ai-v6';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { demoApp, type TestApp } from './helpers/server.js';
import { assistantV2Transport, threadIdOf } from '../src/client/index.js';
import { textOfMessage } from './helpers/v2.js';

// The live service's documented v2 client, as a reader's own UI uses it: the real `useChat` of
// @ai-sdk/react 3 (AI SDK 6) with its DefaultChatTransport, against the in-process server.
afterEach(cleanup);
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

function chatWith(app: TestApp, key: string = DEMO.assistantKey) {
  const threadIds: (string | null)[] = [];
  const transport = new DefaultChatTransport<UIMessage>({
    // The typed client's options, as docs/v2.md shows them.
    ...assistantV2Transport({
      baseUrl: 'http://test',
      domain: DEMO.domain,
      apiKey: key,
      fp: 'reader-1',
      retrievalPageSize: 5,
    }),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await app.request(String(input), init);
      threadIds.push(response.headers.get('x-thread-id'));
      return response;
    }) as typeof fetch,
  });
  const hook = renderHook(() => useChat({ transport }));
  return { hook, threadIds };
}

const lastAssistant = (messages: UIMessage[]) => messages.findLast((m) => m.role === 'assistant');

describe('useChat of AI SDK 6 against the v2 operation', () => {
  it('shows a quoted answer with its sources and the thread in the message metadata', async () => {
    const { hook, threadIds } = chatWith(await demoApp());
    await act(() => hook.result.current.sendMessage({ text: 'How do I install it?' }));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    const answer = lastAssistant(hook.result.current.messages)!;
    expect(textOfMessage(answer)).toMatch(/npm install/i);
    expect(answer.parts.some((part) => part.type === 'source-url')).toBe(true);
    expect(answer.metadata).toEqual({ threadId: threadIds[0] });
    expect(hook.result.current.error).toBeUndefined();
  });

  it('continues the thread when the follow-up sends the threadId from the metadata', async () => {
    const { hook, threadIds } = chatWith(await demoApp());
    await act(() => hook.result.current.sendMessage({ text: 'How do I install it?' }));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    const threadId = threadIdOf(lastAssistant(hook.result.current.messages)!);
    await act(() =>
      hook.result.current.sendMessage({ text: 'And the theme?' }, { body: { threadId } }),
    );
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    expect(hook.result.current.messages).toHaveLength(4);
    expect(threadIds).toEqual([threadId, threadId]);
  });

  it('shows the server’s sentence as the chat’s error when the key is refused', async () => {
    const { hook } = chatWith(await demoApp(), 'svc_dsc_not_a_key');
    await act(() => hook.result.current.sendMessage({ text: 'How do I install it?' }));
    await waitFor(() => expect(hook.result.current.status).toBe('error'));
    expect(hook.result.current.error?.message).toContain('unauthorized');
  });

  it('shows a thread that is gone as the chat’s error', async () => {
    const { hook } = chatWith(await demoApp());
    await act(() =>
      hook.result.current.sendMessage(
        { text: 'How do I install it?' },
        { body: { threadId: '01JZZZZZZZZZZZZZZZZZZZZZZZ' } },
      ),
    );
    await waitFor(() => expect(hook.result.current.status).toBe('error'));
    expect(hook.result.current.error?.message).toContain('thread_not_found');
  });

  it('refuses an admin key before anything is sent', () => {
    expect(() =>
      assistantV2Transport({ baseUrl: '', domain: DEMO.domain, apiKey: DEMO.adminKey, fp: 'a' }),
    ).toThrow(/admin/);
  });
});
