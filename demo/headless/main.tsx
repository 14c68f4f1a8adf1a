// The headless example of docs/v2.md: your own chat UI on AI SDK 6's useChat, talking to the v2
// assistant operation. No widget code: only `ai`, `@ai-sdk/react` and the typed client.
import { useChat } from '@ai-sdk/react-v3';
import { DefaultChatTransport, type UIMessage } from 'ai-v6';
import { useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { assistantV2Transport, threadIdOf } from '../../src/client/index.js';

function Chat({ domain, apiKey }: { domain: string; apiKey: string }) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport<UIMessage>(
        assistantV2Transport({ baseUrl: location.origin, domain, apiKey, fp: 'headless-demo' }),
      ),
    [domain, apiKey],
  );
  const { messages, sendMessage, status, error } = useChat({ transport });
  const [input, setInput] = useState('');
  // The thread of the last answer: a follow-up continues it.
  const threadId = messages.map(threadIdOf).findLast(Boolean);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim()) return;
    void sendMessage({ text: input }, { body: { threadId } });
    setInput('');
  };

  return (
    <main>
      <h1>Ask the docs (AI SDK 6, bring your own UI)</h1>
      {messages.map((message) => (
        <div key={message.id} className={`message ${message.role}`} data-role={message.role}>
          {message.parts.map((part, i) => {
            if (part.type === 'text') return <span key={i}>{part.text}</span>;
            if (part.type === 'reasoning')
              return (
                <div key={i} className="thinking">
                  {part.text}
                </div>
              );
            return null;
          })}
          {message.parts.some((part) => part.type === 'source-url') && (
            <ul className="sources">
              {message.parts.flatMap((part, i) =>
                part.type === 'source-url' ? (
                  <li key={i}>
                    <a href={part.url}>{part.title ?? part.url}</a>
                  </li>
                ) : (
                  []
                ),
              )}
            </ul>
          )}
        </div>
      ))}
      {error && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      <form onSubmit={submit}>
        <input
          aria-label="Question"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="How do I install it?"
        />
        <button type="submit" disabled={status === 'submitted' || status === 'streaming'}>
          Ask
        </button>
      </form>
      {threadId && <p className="thread">Thread {threadId}</p>}
    </main>
  );
}

const root = document.getElementById('app')!;
const query = new URLSearchParams(location.search);
createRoot(root).render(
  <Chat
    domain={query.get('domain') ?? root.dataset.domain ?? ''}
    apiKey={query.get('key') ?? root.dataset.apiKey ?? ''}
  />,
);
