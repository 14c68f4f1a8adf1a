import { useChat } from '@ai-sdk/react';
import type { ComponentType } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * A baseline page: `useChat` with the same request options as ours and the throttle the AI SDK 4
 * docs recommend for long answers, rendering each assistant message with `Answer`.
 */
export function mountBaseline(Answer: ComponentType<{ id: string; content: string }>): void {
  function Page() {
    const { messages, append } = useChat({
      api: '/discovery/v1/assistant/bench/message',
      streamProtocol: 'data',
      sendExtraMessageFields: true,
      body: { fp: 'anonymous', retrievalPageSize: 5 },
      experimental_throttle: 50,
    });
    (window as unknown as { __ask: (q: string) => void }).__ask = (question) =>
      void append({ role: 'user', content: question });
    return (
      <div id="log">
        {messages.map((message) => (
          <div key={message.id} className={message.role}>
            {message.role === 'assistant' ? (
              <Answer id={message.id} content={message.content} />
            ) : (
              message.content
            )}
          </div>
        ))}
      </div>
    );
  }
  createRoot(document.getElementById('root')!).render(<Page />);
}
