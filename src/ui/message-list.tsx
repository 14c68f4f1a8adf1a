import type { UIMessage } from '@ai-sdk/ui-utils';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CopyButton } from './copy-button.js';
import { RetryIcon, ThumbDownIcon, ThumbUpIcon } from './icons.js';
import type { Labels } from './labels.js';
import { Citations, citationsOf, MessageParts } from './parts.js';

export type FeedbackValue = 'up' | 'down';

export interface MessageListProps {
  messages: UIMessage[];
  busy: boolean;
  labels: Labels;
  docsBaseUrl: string | undefined;
  onRetry(): void;
  onFeedback(message: UIMessage, value: FeedbackValue): void;
  /** Shown after the last message (error banner). */
  footer?: ReactNode;
  /** Shown when there are no messages. */
  empty: ReactNode;
}

/** How close to the bottom counts as "at the bottom" (sub-pixel rounding, a last line of slack). */
const PIN_SLACK_PX = 32;

function answerText(message: UIMessage): string {
  return (message.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n') || message.content;
}

function AnswerActions({ message, isLast, busy, labels, onRetry, onFeedback }: { message: UIMessage; isLast: boolean; busy: boolean; labels: Labels; onRetry(): void; onFeedback(value: FeedbackValue): void }) {
  const [feedback, setFeedback] = useState<FeedbackValue>();
  const give = (value: FeedbackValue) => {
    if (feedback === value) return;
    setFeedback(value);
    onFeedback(value);
  };
  return (
    <div className="da-actions">
      <CopyButton text={() => answerText(message)} label={labels.copyAnswer} copiedLabel={labels.copied} iconOnly />
      <button type="button" className="da-icon-button" aria-pressed={feedback === 'up'} aria-label={labels.helpful} title={labels.helpful} onClick={() => give('up')}>
        <ThumbUpIcon />
      </button>
      <button type="button" className="da-icon-button" aria-pressed={feedback === 'down'} aria-label={labels.notHelpful} title={labels.notHelpful} onClick={() => give('down')}>
        <ThumbDownIcon />
      </button>
      {isLast && (
        <button type="button" className="da-icon-button" disabled={busy} onClick={onRetry}>
          <RetryIcon />
          <span>{labels.retry}</span>
        </button>
      )}
    </div>
  );
}

/**
 * The conversation as a `role="log"`. It is not a live region: answers are announced once when
 * they start and once when they end (by the status region), never token by token.
 * Auto-scroll follows the answer until the reader scrolls up, and resumes at the bottom.
 */
export function MessageList({ messages, busy, labels, docsBaseUrl, onRetry, onFeedback, footer, empty }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const frame = useRef(0);

  // Reading scrollHeight forces a layout of the whole log; doing it on every streamed update made
  // layout the main cost of an answer. Once per frame, where the browser lays out anyway.
  const stickToBottom = useRef(() => {
    if (!pinned.current || frame.current || typeof requestAnimationFrame === 'undefined') return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const el = scroller.current;
      if (el && pinned.current) el.scrollTop = el.scrollHeight;
    });
  }).current;
  // Follow the content's size, not this component's renders: an answer also grows when the
  // Markdown renderer arrives and as formatting catches up, without the list re-rendering.
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined' || !content.current) return;
    const observer = new ResizeObserver(stickToBottom);
    observer.observe(content.current);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, [stickToBottom]);
  useEffect(() => {
    // Without ResizeObserver (old browsers, jsdom), renders are the best signal there is.
    if (typeof ResizeObserver === 'undefined') stickToBottom();
  });
  useEffect(() => {
    if (busy) pinned.current = true;
  }, [busy]);

  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return (
    <div
      ref={scroller}
      className="da-scroll"
      onScroll={(event) => {
        const el = event.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight <= PIN_SLACK_PX;
      }}
    >
      <div ref={content} className="da-scroll-content">
        {messages.length === 0 ? (
          empty
        ) : (
          <div role="log" aria-live="off" aria-label={labels.title}>
            <ol className="da-log">
              {messages.map((message, index) => {
                const streaming = busy && index === messages.length - 1 && message.role === 'assistant';
                if (message.role === 'user') {
                  return (
                    <li key={index} className="da-message" data-role="user">
                      <span className="da-visually-hidden">{labels.you}: </span>
                      <p className="da-user-text">{message.content}</p>
                    </li>
                  );
                }
                if (message.role !== 'assistant') return null;
                return (
                  <li key={index} className="da-message" data-role="assistant" data-state={streaming ? 'streaming' : 'done'}>
                    <span className="da-visually-hidden">{labels.assistant}: </span>
                    <MessageParts message={message} labels={labels} docsBaseUrl={docsBaseUrl} />
                    <Citations citations={citationsOf(message, docsBaseUrl)} labels={labels} />
                    {!streaming && (
                      <AnswerActions
                        message={message}
                        isLast={index === lastAssistant && index === messages.length - 1}
                        busy={busy}
                        labels={labels}
                        onRetry={onRetry}
                        onFeedback={(value) => onFeedback(message, value)}
                      />
                    )}
                  </li>
                );
              })}
            </ol>
          </div>
        )}
        {footer}
      </div>
    </div>
  );
}
