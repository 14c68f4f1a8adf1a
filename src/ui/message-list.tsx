import type { ChatMessage } from '../chat/message.js';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CitationContext } from './citation-context.js';
import type { QueuedQuestion } from '../chat/use-docs-assistant.js';
import { confidenceLevel, type ConfidenceLevel } from '../protocol/annotations.js';
import { FEEDBACK_REASONS, type FeedbackReason } from '../protocol/limits.js';
import type { ContextItem } from '../protocol/types.js';
import { CopyButton } from './copy-button.js';
import { QuestionButtons } from './empty-state.js';
import {
  ArrowDownIcon,
  CloseIcon,
  NotCoveredIcon,
  RetryIcon,
  ThumbDownIcon,
  ThumbUpIcon,
  UnsureIcon,
} from './icons.js';
import { useDocsBaseUrl, useTranslations } from './translations.js';
import {
  Citations,
  citationsOf,
  citedNumbers,
  MessageParts,
  type PartComponents,
} from './parts.js';

export type FeedbackValue = 'up' | 'down';

/** Why an answer was not helpful, as the reader picked it. */
export type { FeedbackReason };

export interface FeedbackDetails {
  value: FeedbackValue;
  reasons?: FeedbackReason[];
  comment?: string;
}

/** How an answer ended, shown as `data-state` on its list item. */
export type AnswerState = 'streaming' | 'done' | 'stopped' | 'failed';

export interface MessageListProps {
  messages: ChatMessage[];
  busy: boolean;
  /** The last request failed (its banner, with the one Retry, is the footer). */
  failed: boolean;
  stopped: string[];
  queue: QueuedQuestion[];
  sentContext: Record<string, ContextItem[]>;
  newTab: boolean;
  showDeveloperDetails: boolean;
  components: PartComponents | undefined;
  onRetry(): void;
  /** Asks a follow-up question the answer offered. */
  onAsk(question: string): void;
  onUnqueue(id: string): void;
  onFeedback(message: ChatMessage, feedback: FeedbackDetails): void;
  /** Shown after the last message (error banner). */
  footer?: ReactNode;
  /** Shown when there are no messages. */
  empty: ReactNode;
}

/** How close to the bottom counts as "at the bottom" (sub-pixel rounding, a last line of slack). */
const PIN_SLACK_PX = 32;

function answerText(message: ChatMessage): string {
  return (
    (message.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n') ||
    message.content
  );
}

/** How many follow-up questions are shown, and how long one may be; the server's data is not trusted. */
const MAX_FOLLOW_UPS = 3;
const MAX_FOLLOW_UP_CHARS = 200;

/**
 * Follow-up questions: those the server offered in an `8:` annotation `{type:'suggestions', questions}`,
 * else one per page of the answer's `suggestions` block, about its title.
 */
export function followUpsOf(message: ChatMessage, followUpAbout: string): string[] {
  const offered = (message.annotations ?? []).flatMap((item) => {
    const value = item as { type?: unknown; questions?: unknown } | null;
    return value &&
      typeof value === 'object' &&
      value.type === 'suggestions' &&
      Array.isArray(value.questions)
      ? value.questions
      : [];
  });
  const block = /```suggestions\n([\s\S]*?)\n```/.exec(answerText(message))?.[1] ?? '';
  const titles = [...block.matchAll(/^\((.+?)\)\[[^\]]*\]$/gm)].map((match) =>
    followUpAbout.replace('{title}', match[1]!),
  );
  const clean = (offered.length ? offered : titles)
    .filter(
      (q): q is string =>
        typeof q === 'string' && q.trim().length > 0 && q.length <= MAX_FOLLOW_UP_CHARS,
    )
    .map((q) => q.trim());
  return [...new Set(clean)].slice(0, MAX_FOLLOW_UPS);
}

function FollowUps({ questions, onAsk }: { questions: string[]; onAsk(question: string): void }) {
  const { followUps = 'Ask next' } = useTranslations('message');
  return (
    <div className="da-starters da-follow-ups" role="group" aria-label={followUps}>
      <p className="da-suggestions-title">{followUps}</p>
      <QuestionButtons questions={questions} onAsk={onAsk} />
    </div>
  );
}

/**
 * How sure the answer is, from the server's confidence annotation: a small labelled marker above an
 * answer that is unsure or says the docs don't cover it; for a sure answer the words are only read
 * by screen readers, so each answer says which of the three it is, in text and not colour alone.
 */
function ConfidenceMarker({ level }: { level: ConfidenceLevel }) {
  const {
    sureMarker = 'Answered from the docs',
    unsureMarker = 'Not sure',
    refusedMarker = 'Not in the docs',
  } = useTranslations('message');
  if (level === 'sure') return <p className="da-visually-hidden">{sureMarker}</p>;
  return (
    <p className="da-confidence" data-level={level}>
      {level === 'unsure' ? <UnsureIcon /> : <NotCoveredIcon />}
      <span>{level === 'unsure' ? unsureMarker : refusedMarker}</span>
    </p>
  );
}

const REASONS = FEEDBACK_REASONS;

/** After a thumbs-down: a few reasons and an optional comment, sent as a second, richer feedback. */
function FeedbackForm({
  onSend,
  onClose,
}: {
  onSend(reasons: FeedbackReason[], comment: string): void;
  onClose(): void;
}) {
  const {
    title = 'What was wrong?',
    incorrect = 'Incorrect or outdated',
    unrelated = 'Didn’t answer my question',
    sources = 'Missing or wrong sources',
    unclear = 'Hard to understand',
    comment: commentLabel = 'Anything else? (optional)',
    send = 'Send feedback',
    cancel = 'Skip',
  } = useTranslations('feedback');
  const reasonLabel: Record<FeedbackReason, string> = { incorrect, unrelated, sources, unclear };
  const [reasons, setReasons] = useState<FeedbackReason[]>([]);
  const [comment, setComment] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <form
      className="da-feedback"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        onSend(reasons, comment.trim());
      }}
    >
      <fieldset>
        <legend>{title}</legend>
        {REASONS.map((reason, i) => (
          <label key={reason} className="da-feedback-reason">
            <input
              ref={i === 0 ? first : undefined}
              type="checkbox"
              checked={reasons.includes(reason)}
              onChange={(event) =>
                setReasons((all) =>
                  event.target.checked ? [...all, reason] : all.filter((r) => r !== reason),
                )
              }
            />
            {reasonLabel[reason]}
          </label>
        ))}
      </fieldset>
      <textarea
        className="da-feedback-comment"
        rows={2}
        aria-label={commentLabel}
        placeholder={commentLabel}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
      />
      <div className="da-feedback-buttons">
        <button type="button" className="da-text-button" onClick={onClose}>
          {cancel}
        </button>
        <button
          type="submit"
          className="da-text-button"
          data-variant="primary"
          disabled={reasons.length === 0 && !comment.trim()}
        >
          {send}
        </button>
      </div>
    </form>
  );
}

function AnswerActions({
  message,
  state,
  isLast,
  busy,
  onRetry,
  onFeedback,
}: {
  message: ChatMessage;
  state: AnswerState;
  isLast: boolean;
  busy: boolean;
  onRetry(): void;
  onFeedback(feedback: FeedbackDetails): void;
}) {
  const {
    stoppedMarker = 'Stopped',
    copyAnswer = 'Copy answer',
    copied = 'Copied',
    helpful = 'Helpful',
    notHelpful = 'Not helpful',
    retry = 'Retry',
    feedbackThanks = 'Thanks for the feedback.',
  } = useTranslations('message');
  const [feedback, setFeedback] = useState<FeedbackValue>();
  const [form, setForm] = useState<'closed' | 'open' | 'sent'>('closed');
  const give = (value: FeedbackValue) => {
    if (feedback === value) return;
    setFeedback(value);
    setForm(value === 'down' ? 'open' : 'closed');
    onFeedback({ value });
  };
  const text = answerText(message);
  return (
    <>
      <div className="da-actions">
        {state === 'stopped' && <span className="da-stopped-marker">{stoppedMarker}</span>}
        {text && <CopyButton text={() => text} label={copyAnswer} copiedLabel={copied} iconOnly />}
        {state === 'done' && (
          <>
            <button
              type="button"
              className="da-icon-button"
              aria-pressed={feedback === 'up'}
              aria-label={helpful}
              title={helpful}
              onClick={() => give('up')}
            >
              <ThumbUpIcon />
            </button>
            <button
              type="button"
              className="da-icon-button"
              aria-pressed={feedback === 'down'}
              aria-label={notHelpful}
              title={notHelpful}
              onClick={() => give('down')}
            >
              <ThumbDownIcon />
            </button>
          </>
        )}
        {isLast && (
          <button type="button" className="da-icon-button" disabled={busy} onClick={onRetry}>
            <RetryIcon />
            <span>{retry}</span>
          </button>
        )}
      </div>
      {form === 'open' && (
        <FeedbackForm
          onClose={() => setForm('closed')}
          onSend={(reasons, comment) => {
            onFeedback({
              value: 'down',
              ...(reasons.length ? { reasons } : {}),
              ...(comment ? { comment } : {}),
            });
            setForm('sent');
          }}
        />
      )}
      {form === 'sent' && (
        <p className="da-feedback-thanks" role="status">
          {feedbackThanks}
        </p>
      )}
    </>
  );
}

/** What went with a question: compact chips that open to show the whole snippet. */
function SentContext({ items }: { items: ContextItem[] }) {
  const {
    sentWith = 'Sent with this question',
    contextCode = 'code',
    contextSelection = 'selection',
  } = useTranslations('message');
  return (
    <ul className="da-sent-context" aria-label={sentWith}>
      {items.map((item, i) => {
        const preview = item.value.trim().split('\n')[0]!.slice(0, 60);
        return (
          <li key={i} data-type={item.type}>
            <details className="da-sent-chip">
              <summary>
                <span className="da-sent-chip-kind">
                  {item.type === 'code' ? contextCode : contextSelection}
                </span>
                <span className="da-sent-chip-preview">{preview}</span>
              </summary>
              {item.type === 'code' ? (
                <pre>{item.value}</pre>
              ) : (
                <blockquote>{item.value}</blockquote>
              )}
            </details>
          </li>
        );
      })}
    </ul>
  );
}

interface AssistantMessageProps {
  message: ChatMessage;
  state: AnswerState;
  isLast: boolean;
  busy: boolean;
  newTab: boolean;
  showDeveloperDetails: boolean;
  components: PartComponents | undefined;
  /** Offer the answer's follow-up questions (the last finished answer, with nothing queued). */
  followUps: boolean;
  onRetry(): void;
  onAsk(question: string): void;
  onFeedback(message: ChatMessage, feedback: FeedbackDetails): void;
}

const NONE_CITED = new Set<number>();

function AssistantMessage({
  message,
  state,
  isLast,
  busy,
  newTab,
  showDeveloperDetails,
  components,
  followUps,
  onRetry,
  onAsk,
  onFeedback,
}: AssistantMessageProps) {
  const { assistant = 'Assistant', followUpAbout = 'Tell me more about {title}' } =
    useTranslations('message');
  const docsBaseUrl = useDocsBaseUrl();
  const questions = followUps && state === 'done' ? followUpsOf(message, followUpAbout) : [];
  const citations = citationsOf(message, docsBaseUrl);
  // A stable scope while the citations stay the same: the `[n]` links re-render only when they change.
  const key = citations
    .map((c) => `${c.n} ${c.url} ${c.title} ${c.path ?? ''} ${c.snippet ?? ''}`)
    .join('\n');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const scope = useMemo(() => ({ citations, newTab }), [key, newTab]);
  const level = confidenceLevel(message.annotations);
  return (
    <li className="da-message" data-role="assistant" data-state={state} data-confidence={level}>
      <span className="da-visually-hidden">{assistant}: </span>
      {level && <ConfidenceMarker level={level} />}
      <CitationContext.Provider value={scope}>
        <MessageParts
          message={message}
          streaming={state === 'streaming'}
          showDeveloperDetails={showDeveloperDetails}
          components={components}
        />
      </CitationContext.Provider>
      <Citations
        citations={citations}
        // Reading every [n] scans the whole answer, on every streamed update: only when there are sources.
        cited={citations.length > 0 ? citedNumbers(message) : NONE_CITED}
        newTab={newTab}
        // "Not in the docs" over a row of "Sources" read as a contradiction (a newcomer's trial).
        refused={level === 'refused'}
      />
      {/* A failed answer has one Retry: the banner's. */}
      {(state === 'done' || state === 'stopped') && (
        <AnswerActions
          message={message}
          state={state}
          isLast={isLast}
          busy={busy}
          onRetry={onRetry}
          onFeedback={(feedback) => onFeedback(message, feedback)}
        />
      )}
      {questions.length > 0 && <FollowUps questions={questions} onAsk={onAsk} />}
    </li>
  );
}

/** Space kept above the question pinned at the top of the message area. */
const PIN_GAP_PX = 8;

/**
 * Where the view stays while the conversation grows: `question` keeps the question just asked at
 * the top, its answer's start below it (a long answer is read from its start, not its end);
 * `end` follows the end (the reader asked for it: "Jump to latest", or scrolled to the bottom);
 * `reader` leaves the view where the reader scrolled it.
 */
type Anchor = 'question' | 'end' | 'reader';

/**
 * Keeps the question just asked at the top of the message area while its answer arrives below it,
 * unless the reader scrolls. A move the reader makes (any scroll this hook did not make) is theirs
 * to keep; "Jump to latest" follows the end from then on.
 */
function useAnswerScroll(busy: boolean, questionCount: number) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const anchor = useRef<Anchor>('question');
  const lastTop = useRef(0);
  const frame = useRef(0);
  const [away, setAway] = useState(false);

  // Reading layout forces it for the whole log; doing it on every streamed update made layout the
  // main cost of an answer. Once per frame, where the browser lays out anyway.
  const place = useRef(() => {
    if (
      anchor.current === 'reader' ||
      frame.current ||
      typeof requestAnimationFrame === 'undefined'
    )
      return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const el = scroller.current;
      if (!el || anchor.current === 'reader') return;
      const questions = el.querySelectorAll<HTMLElement>(
        '.da-message[data-role="user"]:not([data-state="queued"])',
      );
      const question = questions[questions.length - 1];
      if (anchor.current === 'end') el.scrollTop = el.scrollHeight;
      // Nothing asked yet: the welcome and its starter questions are read from the top.
      else if (question) {
        const top =
          el.scrollTop +
          question.getBoundingClientRect().top -
          el.getBoundingClientRect().top -
          PIN_GAP_PX;
        // The browser stops at the end: a short answer is seen whole with what came before it.
        el.scrollTop = Math.max(0, top);
      }
      lastTop.current = el.scrollTop;
    });
  }).current;
  // Follow the content's size, not this component's renders: an answer also grows when the
  // Markdown renderer arrives and as formatting catches up, without the list re-rendering.
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined' || !content.current) return;
    const observer = new ResizeObserver(() => {
      place();
      // Content that grows under a reader who scrolled away puts news below them.
      const el = scroller.current;
      if (el && anchor.current === 'reader')
        setAway(el.scrollHeight - el.scrollTop - el.clientHeight > PIN_SLACK_PX);
    });
    observer.observe(content.current);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, [place]);
  useEffect(() => {
    // Without ResizeObserver (old browsers, jsdom), renders are the best signal there is.
    if (typeof ResizeObserver === 'undefined') place();
  });
  // A new question (or one sent from the queue) is the reader's: show it at the top, its answer below.
  useEffect(() => {
    if (!busy) return;
    anchor.current = 'question';
    setAway(false);
    place();
  }, [busy, questionCount, place]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    // Our own moves (and the browser stopping one at the end) are not the reader's, nor is going
    // down while following the end ("Jump to latest" scrolls smoothly).
    const moved = el.scrollTop - lastTop.current;
    const following = anchor.current === 'end' && moved >= 0;
    // Content that shrinks (the welcome giving way to the question) pulls the view up to the new end.
    const clamped = moved < 0 && distance <= 1;
    if (Math.abs(moved) > 1 && !following && !clamped)
      anchor.current = distance <= PIN_SLACK_PX && busy ? 'end' : 'reader';
    lastTop.current = el.scrollTop;
    setAway(anchor.current === 'reader' && distance > PIN_SLACK_PX);
  };
  const jump = () => {
    const el = scroller.current;
    if (!el) return;
    anchor.current = 'end';
    setAway(false);
    const smooth =
      typeof matchMedia !== 'undefined' && !matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
  };
  return { scroller, content, away, onScroll, jump };
}

/**
 * The conversation as a `role="log"`. It is not a live region: answers are announced once when
 * they start and once when they end (by the status region), never token by token.
 */
export function MessageList(props: MessageListProps) {
  const {
    messages,
    busy,
    failed,
    stopped,
    queue,
    sentContext,
    newTab,
    showDeveloperDetails,
    components,
    onRetry,
    onAsk,
    onUnqueue,
    onFeedback,
    footer,
    empty,
  } = props;
  const {
    logLabel = 'Ask the docs',
    you = 'You',
    assistant = 'Assistant',
    thinking = 'Thinking…',
    stoppedMarker = 'Stopped',
    retry = 'Retry',
    queued = 'Waiting to be asked',
    removeQueued = 'Don’t ask this',
    jumpToLatest = 'Jump to latest',
  } = useTranslations('message');
  // Re-pin for a new question only: an answer's first part arriving is not the reader's doing.
  const questions = messages.reduce((n, m) => n + (m.role === 'user' ? 1 : 0), 0) + queue.length;
  const { scroller, content, away, onScroll, jump } = useAnswerScroll(busy, questions);
  const last = messages.at(-1);
  // Between sending and the first part there is no assistant message yet: show one that says so.
  const pending = busy && last?.role === 'user';
  const stoppedBeforeAnswer = !busy && last?.role === 'user' && stopped.includes(last.id);

  const assistantItem = (message: ChatMessage, index: number) => {
    const isLast = index === messages.length - 1;
    const state: AnswerState =
      busy && isLast
        ? 'streaming'
        : stopped.includes(message.id)
          ? 'stopped'
          : failed && isLast
            ? 'failed'
            : 'done';
    return (
      <AssistantMessage
        key={index}
        message={message}
        state={state}
        isLast={isLast}
        busy={busy}
        newTab={newTab}
        showDeveloperDetails={showDeveloperDetails}
        components={components}
        followUps={isLast && !busy && queue.length === 0}
        onRetry={onRetry}
        onAsk={onAsk}
        onFeedback={onFeedback}
      />
    );
  };

  return (
    <div className="da-log-area">
      <div ref={scroller} className="da-scroll" onScroll={onScroll}>
        <div ref={content} className="da-scroll-content">
          {messages.length === 0 && queue.length === 0 ? (
            empty
          ) : (
            <div role="log" aria-live="off" aria-label={logLabel}>
              <ol className="da-log">
                {messages.map((message, index) => {
                  if (message.role === 'user') {
                    const items = sentContext[message.id];
                    return (
                      <li key={index} className="da-message" data-role="user">
                        <span className="da-visually-hidden">{you}: </span>
                        <p className="da-user-text">{message.content}</p>
                        {items && items.length > 0 && <SentContext items={items} />}
                      </li>
                    );
                  }
                  return message.role === 'assistant' ? assistantItem(message, index) : null;
                })}
                {pending && (
                  <li className="da-message" data-role="assistant" data-state="streaming">
                    <span className="da-visually-hidden">{assistant}: </span>
                    <p className="da-status" data-state="running">
                      {thinking}
                    </p>
                  </li>
                )}
                {stoppedBeforeAnswer && (
                  <li className="da-message" data-role="assistant" data-state="stopped">
                    <div className="da-actions">
                      <span className="da-stopped-marker">{stoppedMarker}</span>
                      <button type="button" className="da-icon-button" onClick={onRetry}>
                        <RetryIcon />
                        <span>{retry}</span>
                      </button>
                    </div>
                  </li>
                )}
                {queue.map((item) => (
                  <li key={item.id} className="da-message" data-role="user" data-state="queued">
                    <span className="da-visually-hidden">{you}: </span>
                    <p className="da-user-text">{item.question}</p>
                    {item.context.length > 0 && <SentContext items={item.context} />}
                    <p className="da-queued">
                      <span>{queued}</span>
                      <button
                        type="button"
                        className="da-icon-button"
                        aria-label={`${removeQueued}: ${item.question}`}
                        title={removeQueued}
                        onClick={() => onUnqueue(item.id)}
                      >
                        <CloseIcon />
                      </button>
                    </p>
                  </li>
                ))}
              </ol>
            </div>
          )}
          {footer}
        </div>
      </div>
      {away && (
        <button type="button" className="da-jump" onClick={jump}>
          <ArrowDownIcon />
          {jumpToLatest}
        </button>
      )}
    </div>
  );
}
