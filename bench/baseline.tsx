import { useChat } from '@ai-sdk/react';
import { createRoot } from 'react-dom/client';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * The baseline: the way the live service's published example renders. useChat with the same
 * options as ours, the whole message through ReactMarkdown on every update, no throttle.
 */
function Baseline() {
  const { messages, append } = useChat({
    api: '/discovery/v1/assistant/bench/message',
    streamProtocol: 'data',
    sendExtraMessageFields: true,
    body: { fp: 'anonymous', retrievalPageSize: 5 },
  });
  (window as unknown as { __ask: (q: string) => void }).__ask = (question) => void append({ role: 'user', content: question });
  return (
    <div id="log">
      {messages.map((message) => (
        <div key={message.id} className={message.role}>
          {message.role === 'assistant' ? <ReactMarkdown remarkPlugins={[remarkGfm]}>{message.content}</ReactMarkdown> : message.content}
        </div>
      ))}
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<Baseline />);
