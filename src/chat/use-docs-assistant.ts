import { useChat } from '@ai-sdk/react';
import { generateId } from '@ai-sdk/ui-utils';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { assertBrowserSafeKey } from '../client/assistant.js';
import { AssistantError, type AssistantErrorKind } from '../client/errors.js';
import { DEFAULT_RETRIEVAL_PAGE_SIZE } from '../protocol/limits.js';
import { assistantFeedbackUrl, assistantMessageUrl } from '../protocol/routes.js';
import type { ContextItem, Filter } from '../protocol/types.js';
import type { ChatMessage } from './message.js';
import { createAssistantFetch, type StreamWarning, type ThreadIds } from './assistant-fetch.js';
import { watchPath } from './location.js';
import { clearConversation, loadConversation, saveConversation } from './persistence.js';
import { browserPath, clampCurrentPath } from './request.js';

/** What happened, for analytics hooks. Events never carry the question's text. */
export type AssistantEvent =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'ask'; contextCount: number }
  | { type: 'answer'; messageId: string; threadId: string | undefined; sourceCount: number }
  | { type: 'error'; kind: AssistantErrorKind; status: number | undefined }
  | {
      type: 'feedback';
      messageId: string;
      threadId: string | undefined;
      value: 'up' | 'down';
      reasons?: string[];
    }
  | { type: 'reset' };

export interface UseDocsAssistantOptions {
  /** The site's domain identifier (SPEC §4.1). */
  domain: string;
  /** API root of the service; '' calls the page's own origin (a same-origin proxy). @default '' */
  baseUrl?: string;
  /** Assistant key (`svc_dsc_…`); leave out behind a proxy that adds it. Admin keys are refused. */
  apiKey?: string;
  /** A stable id of the reader, sent as `fp` (SPEC §2.1; the script tag's `data-fp`). @default 'anonymous' */
  userId?: string;
  /** Search results used per answer. @default 5 */
  retrievalPageSize?: number;
  /** Only search this docs version and/or language. @default undefined */
  filter?: Filter;
  /** Path sent as `currentPath`. @default location.pathname when asking */
  currentPath?: string;
  /** Keep the conversation in localStorage across reloads. @default true */
  persist?: boolean;
  /** fetch to use (tests, custom transports). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Called for open, close, ask, answer, error, feedback and reset. @default undefined */
  onEvent?: (event: AssistantEvent) => void;
  /** Send readers' thumbs (with reasons and comment) to the server's feedback operation, for the owner's insights. @default true */
  sendFeedback?: boolean;
}

/** A reader's thumbs on one answer, as the feedback operation takes it. */
export interface AnswerRating {
  messageId: string;
  rating: 'up' | 'down';
  reasons?: string[];
  comment?: string;
}

export type AssistantStatus = 'ready' | 'submitted' | 'streaming' | 'error';

export interface AskOptions {
  /** Context for this question; replaces the attached items. */
  context?: ContextItem[];
}

/** A question asked while another was being answered: sent, in order, once the answer ends. */
export interface QueuedQuestion {
  id: string;
  question: string;
  context: ContextItem[];
}

interface QuestionBody {
  currentPath?: string;
  context?: ContextItem[];
}

function asAssistantError(error: unknown): AssistantError {
  if (error instanceof AssistantError) return error;
  return new AssistantError('protocol', error instanceof Error ? error.message : String(error));
}

/** The conversation with one docs site, on the AI SDK 4 chat hook. */
export function useDocsAssistant(options: UseDocsAssistantOptions) {
  const {
    domain,
    baseUrl = '',
    apiKey,
    userId,
    retrievalPageSize = DEFAULT_RETRIEVAL_PAGE_SIZE,
    filter,
    persist = true,
    sendFeedback = true,
  } = options;
  assertBrowserSafeKey(apiKey);

  const onEventRef = useRef(options.onEvent);
  onEventRef.current = options.onEvent;
  const emit = useCallback((event: AssistantEvent) => onEventRef.current?.(event), []);

  // Read once: initialMessages must be stable or useChat re-renders forever.
  const [saved] = useState(() => (persist ? loadConversation(domain) : undefined));
  const threadRef = useRef<ThreadIds>({
    ...(saved?.threadId ? { threadId: saved.threadId } : {}),
    ...(saved?.threadKey ? { threadKey: saved.threadKey } : {}),
  });
  const [threadId, setThreadId] = useState(saved?.threadId);
  const [context, setContext] = useState<ContextItem[]>([]);
  // The page each attached item came from: context is about that page, so it never follows the
  // reader to another one (client-side navigation keeps this state alive).
  const itemPages = useRef(new WeakMap<ContextItem, string | undefined>());
  const onPage = useCallback(
    (items: ContextItem[], path = browserPath()) =>
      items.filter((item) => itemPages.current.get(item) === path),
    [],
  );
  useEffect(
    () =>
      typeof window === 'undefined'
        ? undefined
        : watchPath((path) => setContext((items) => onPage(items, path))),
    [onPage],
  );
  // What went with each sent question (by user message id), and which answers the reader stopped:
  // neither is part of a message on the wire, so they live beside the messages (and are saved with them).
  const [sentContext, setSentContext] = useState<Record<string, ContextItem[]>>(
    () => saved?.context ?? {},
  );
  const [stopped, setStopped] = useState<string[]>(() => saved?.stopped ?? []);
  const [queue, setQueue] = useState<QueuedQuestion[]>([]);
  const [error, setError] = useState<AssistantError>();
  const [warning, setWarning] = useState<StreamWarning>();
  // Set the moment a request starts, before the SDK's status catches up: two `ask` calls in one tick
  // must not start two answers.
  const inFlight = useRef(false);
  const streamErrorRef = useRef<AssistantError | undefined>(undefined);
  const lastQuestionRef = useRef<QuestionBody>({});
  const fetchRef = useRef(options.fetch);
  fetchRef.current = options.fetch;

  const assistantFetch = useMemo(
    () =>
      createAssistantFetch({
        fetch: (input, init) => (fetchRef.current ?? globalThis.fetch)(input, init),
        getThread: () => threadRef.current,
        setThread: (ids) => {
          threadRef.current = ids;
          setThreadId(ids.threadId);
        },
        onStreamError: (e) => {
          streamErrorRef.current = e;
        },
        onWarning: setWarning,
      }),
    [],
  );

  const headers = useMemo(
    () => (apiKey ? { Authorization: `Bearer ${apiKey}` } : undefined),
    [apiKey],
  );
  // Keyed on the filter's values, not its identity: hosts pass a fresh object each render.
  const { version, language } = filter ?? {};
  const body = useMemo(
    () => ({
      fp: userId || 'anonymous',
      retrievalPageSize,
      ...(version || language ? { filter: { version, language } } : {}),
    }),
    [userId, retrievalPageSize, version, language],
  );

  // useChat calls generateId once while rendering (for a hook id we never use: `id` is given), and
  // Math.random() during render fails Next.js 16's prerender with cacheComponents on.
  // Message ids are only needed from event handlers, which run after mount.
  const mountedRef = useRef(false);
  useEffect(() => {
    mountedRef.current = true;
  }, []);
  const renderSafeId = useCallback(
    () => (mountedRef.current ? generateId() : 'docs-assistant-render'),
    [],
  );

  const chat = useChat({
    generateId: renderSafeId,
    // A fixed id per domain: changing `api` without one would empty the conversation.
    id: `docs-assistant:${domain}`,
    api: assistantMessageUrl(baseUrl, domain),
    streamProtocol: 'data',
    sendExtraMessageFields: true,
    ...(saved?.messages.length ? { initialMessages: saved.messages } : {}),
    ...(headers ? { headers } : {}),
    body,
    fetch: assistantFetch,
    onFinish: (message) => {
      inFlight.current = false;
      emit({
        type: 'answer',
        messageId: message.id,
        threadId: threadRef.current.threadId,
        sourceCount: (message.parts ?? []).filter((p) => p.type === 'source').length,
      });
    },
    onError: (e) => {
      inFlight.current = false;
      const typed = streamErrorRef.current ?? asAssistantError(e);
      setError(typed);
      emit({ type: 'error', kind: typed.kind, status: typed.status });
    },
  });
  const { messages, status, append, reload, stop: stopChat, setMessages } = chat;
  const messagesRef = useRef(messages);
  messagesRef.current = messages;

  // Save when an answer settles, not per token.
  useEffect(() => {
    if (!persist || status === 'submitted' || status === 'streaming') return;
    const ids = new Set(messages.map((m) => m.id));
    const keptContext = Object.fromEntries(
      Object.entries(sentContext).filter(([id]) => ids.has(id)),
    );
    saveConversation(domain, {
      messages,
      ...threadRef.current,
      context: keptContext,
      stopped: stopped.filter((id) => ids.has(id)),
    });
  }, [persist, status, messages, domain, threadId, sentContext, stopped]);

  const busy = status === 'submitted' || status === 'streaming';
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (wasBusy.current && !busy) inFlight.current = false;
    wasBusy.current = busy;
  }, [busy]);

  const startRequest = () => {
    streamErrorRef.current = undefined;
    setError(undefined);
    setWarning(undefined);
  };

  const send = useCallback(
    ({ id, question, context: items }: QueuedQuestion) => {
      const path = options.currentPath ?? browserPath();
      const questionBody: QuestionBody = {
        ...(path ? { currentPath: clampCurrentPath(path) } : {}),
        ...(items.length ? { context: items } : {}),
      };
      lastQuestionRef.current = questionBody;
      inFlight.current = true;
      startRequest();
      if (items.length) setSentContext((all) => ({ ...all, [id]: items }));
      emit({ type: 'ask', contextCount: items.length });
      void append({ id, role: 'user', content: question }, { body: questionBody });
    },
    [options.currentPath, append, emit],
  );

  /**
   * Asks a question. While another is being answered it is queued (shown as pending) and sent, in
   * order, when the answers before it end: a page's own "Ask AI" buttons never lose a question.
   * Returns false only for an empty question.
   */
  const ask = useCallback(
    (question: string, askOptions: AskOptions = {}): boolean => {
      const text = question.trim();
      if (!text) return false;
      const entry: QueuedQuestion = {
        id: generateId(),
        question: text,
        context: askOptions.context ?? onPage(context),
      };
      setContext([]);
      if (busy || inFlight.current || queue.length > 0) setQueue((items) => [...items, entry]);
      else send(entry);
      return true;
    },
    [busy, queue.length, context, onPage, send],
  );

  // The next queued question goes once the answer before it has ended (stopped or finished). After
  // an error the queue waits: the reader sees the error and retries (or removes the questions).
  useEffect(() => {
    if (status !== 'ready' || inFlight.current || queue.length === 0) return;
    const [next, ...rest] = queue;
    setQueue(rest);
    send(next!);
  }, [status, queue, send]);

  const unqueue = useCallback(
    (id: string) => setQueue((items) => items.filter((item) => item.id !== id)),
    [],
  );

  /** Stops the answer being written; it stays on screen, marked as stopped. */
  const stop = useCallback(() => {
    if (!busy) return;
    stopChat();
    inFlight.current = false;
    const last = messagesRef.current.at(-1);
    if (last) setStopped((ids) => [...ids, last.id]);
  }, [busy, stopChat]);

  /** Asks again for the last question, replacing its answer (per-request body is not kept by reload). */
  const retry = useCallback(() => {
    if (busy || inFlight.current || messages.length === 0) return;
    inFlight.current = true;
    startRequest();
    const last = messages.at(-1)!;
    setStopped((ids) => ids.filter((id) => id !== last.id));
    void reload({ body: lastQuestionRef.current });
  }, [busy, messages, reload]);

  const reset = useCallback(() => {
    stopChat();
    inFlight.current = false;
    setMessages([]);
    setQueue([]);
    setSentContext({});
    setStopped([]);
    threadRef.current = {};
    setThreadId(undefined);
    setContext([]);
    startRequest();
    lastQuestionRef.current = {};
    clearConversation(domain);
    emit({ type: 'reset' });
  }, [stopChat, setMessages, domain, emit]);

  const addContext = useCallback((item: ContextItem) => {
    itemPages.current.set(item, browserPath());
    setContext((items) =>
      items.some((i) => i.type === item.type && i.value === item.value) ? items : [...items, item],
    );
  }, []);
  const removeContext = useCallback(
    (index: number) => setContext((items) => items.filter((_, i) => i !== index)),
    [],
  );

  /**
   * Sends a thumbs to the server for the owner's insights. Fire and forget: a failure is not the
   * reader's concern, and an answer without a thread (none was stored) has nothing to attach to.
   */
  const rate = useCallback(
    ({ messageId, rating, reasons, comment }: AnswerRating) => {
      const thread = threadRef.current.threadId;
      if (!sendFeedback || !thread) return;
      void (fetchRef.current ?? globalThis.fetch)(assistantFeedbackUrl(baseUrl, domain), {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          fp: body.fp,
          threadId: thread,
          messageId,
          rating,
          ...(reasons?.length ? { reason: reasons } : {}),
          ...(comment ? { comment: comment.slice(0, 1000) } : {}),
        }),
        keepalive: true,
      }).catch(() => {});
    },
    [sendFeedback, baseUrl, domain, headers, body.fp],
  );

  return {
    messages: messages as ChatMessage[],
    status: status as AssistantStatus,
    busy,
    /** The last request's error, typed; undefined once a new request starts or after reset. */
    error: status === 'error' ? error : undefined,
    /** Set when malformed stream lines were dropped from the last answer. */
    warning,
    threadId,
    context,
    /** Context items sent with each question, by user message id. */
    sentContext,
    /** Ids of messages whose answer the reader stopped (an assistant message, or the question when nothing had arrived). */
    stopped,
    /** Questions waiting for the current answer to end, in order. */
    queue,
    unqueue,
    addContext,
    removeContext,
    ask,
    stop,
    retry,
    reset,
    emit,
    rate,
  };
}
