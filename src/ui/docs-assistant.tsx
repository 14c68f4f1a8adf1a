import * as Dialog from '@radix-ui/react-dialog';
import { SWRConfig } from 'swr';
import { useControllableState } from '@radix-ui/react-use-controllable-state';
import {
  forwardRef,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import {
  useDocsAssistant,
  type AskOptions,
  type UseDocsAssistantOptions,
} from '../chat/use-docs-assistant.js';
import type { ContextItem } from '../protocol/types.js';
import { confidenceLevel } from '../protocol/annotations.js';
import { Announcer } from './announcer.js';
import { loadMarkdown } from './answer-text.js';
import { Composer } from './composer.js';
import { EmptyState } from './empty-state.js';
import { ErrorBanner } from './error-banner.js';
import { Header } from './header.js';
import { SparkleIcon } from './icons.js';
import { MessageList, type FeedbackReason } from './message-list.js';
import type { PartComponents } from './parts.js';
import { usePushPage } from './push-page.js';
import { describeShortcut, listenForShortcut, matchesShortcut, parseShortcut } from './shortcut.js';
import { warnIfUnstyled } from './styles-check.js';
import {
  mergeTranslations,
  UiContext,
  useTranslations,
  type DocsAssistantTranslations,
  type LabelsInput,
} from './translations.js';
import { useHostTheme } from './use-host-theme.js';

export type Theme = 'light' | 'dark' | 'system' | 'auto';
export type Mode = 'popover' | 'modal' | 'panel';
export type Position = 'bottom-right' | 'bottom-left';

export interface Feedback {
  messageId: string;
  threadId: string | undefined;
  value: 'up' | 'down';
  /** After a thumbs-down, what the reader said was wrong (a second call for the same message). */
  reasons?: FeedbackReason[];
  /** The reader's own words, when they wrote any. Never part of `onEvent`. */
  comment?: string;
}

export interface DocsAssistantProps extends UseDocsAssistantOptions {
  /** Where relative links in answers point (the docs site's root). @default the page's own URL */
  docsBaseUrl?: string;
  /** Colour scheme; `system` follows the reader's OS, `auto` follows the host page's own theme switch live. @default 'system' */
  theme?: Theme;
  /** With `theme="auto"`: a CSS selector that matches (anywhere in the page) exactly when the site is dark. @default undefined (common markers) */
  themeSelector?: string;
  /** Corner of the launcher and the popover. @default 'bottom-right' */
  position?: Position;
  /** Keyboard shortcut that opens and closes the assistant (`mod` is ⌘ on Apple, else Ctrl); `false` turns it off. @default 'mod+i' */
  shortcut?: string | false;
  /** Floating popover by the launcher, centred modal, or side panel. @default 'popover' */
  mode?: Mode;
  /** With `mode="panel"`: move the page aside to make room instead of covering it (at widths ≥ 1024 px). @default false */
  push?: boolean;
  /** Up to three questions offered in the empty state. @default [] */
  starterQuestions?: string[];
  /** Any visible string, per component: `{ launcher: { buttonText }, composer: { placeholder }, … }`. @default English */
  translations?: DocsAssistantTranslations;
  /** @deprecated The flat labels of 0.1 (`{ send, placeholder, … }`); still honoured, `translations` wins. @default undefined */
  labels?: LabelsInput;
  /** Controlled open state. @default undefined (uncontrolled) */
  open?: boolean;
  /** Initial open state when uncontrolled. @default false */
  defaultOpen?: boolean;
  /** Called when the dialog wants to open or close. @default undefined */
  onOpenChange?: (open: boolean) => void;
  /**
   * Called for thumbs up/down on an answer; after a thumbs-down, called again for the same message
   * with `reasons` and `comment` if the reader says what was wrong. @default undefined
   */
  onFeedback?: (feedback: Feedback) => void;
  /** Open citation, source and answer links in a new tab, so the conversation stays. Links to other sites always do. @default true */
  openLinksInNewTab?: boolean;
  /** Show tool calls as raw cards, reasoning as "Reasoning" and lines between steps, instead of the reader's one-line summaries. @default false */
  showDeveloperDetails?: boolean;
  /** Custom renderers per message part and per tool name, e.g. `{ tools: { search: MySearch } }`. @default undefined */
  components?: PartComponents;
  /** Support page; `{threadId}` in it is replaced, else `threadId` is added as a query parameter. @default undefined */
  supportUrl?: string;
  /**
   * "Copy page as Markdown" in the header menu: `true` copies the page's Markdown (its
   * `<link rel="alternate" type="text/markdown">`, else its URL plus `.md`); `'check'` offers it
   * only where the page advertises its Markdown and that URL serves it (the script tag's choice;
   * no URL is guessed, so a site without Markdown pages sees no request). @default false
   */
  pageMarkdown?: boolean | 'check';
  /** Render the floating launcher button. @default true */
  showLauncher?: boolean;
  /** Element the dialog is portalled into (a shadow root's container for the embed). @default document.body */
  container?: HTMLElement | null;
  /** Element that gets focus back when the dialog closes, when the launcher is not ours. @default the launcher */
  returnFocus?: () => HTMLElement | null | undefined;
}

export interface AssistantHandle {
  open(): void;
  close(): void;
  toggle(): void;
  /**
   * Opens the dialog and asks. While an answer is being written the question waits, visibly, and is
   * sent when that answer ends (in order). Returns false only for an empty question.
   */
  ask(question: string, options?: AskOptions): boolean;
  addContext(item: ContextItem): void;
  reset(): void;
}

/** sessionStorage key that keeps a panel open across page loads of one site, in one tab. */
const PANEL_OPEN_KEY = (domain: string) => `docs-assistant:panel:${domain}`;

/** sessionStorage, or nothing (server rendering, sandboxed frames, privacy modes that throw). */
function session(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * The assistant: a launcher and a dialog with the conversation, on one docs site.
 * useChat keeps messages in SWR's module-wide cache; each mounted widget gets its own, so a
 * remount starts from saved history (not a stale cache) and `destroy()` really forgets.
 */
export const DocsAssistant = forwardRef<AssistantHandle, DocsAssistantProps>(
  function DocsAssistant(props, ref) {
    const [provider] = useState(() => () => new Map());
    const { translations, labels, docsBaseUrl } = props;
    const ui = useMemo(
      () => ({ translations: mergeTranslations(translations, labels), docsBaseUrl }),
      [translations, labels, docsBaseUrl],
    );
    return (
      <SWRConfig value={{ provider }}>
        <UiContext.Provider value={ui}>
          <Assistant {...props} ref={ref} />
        </UiContext.Provider>
      </SWRConfig>
    );
  },
);

const Assistant = forwardRef<AssistantHandle, DocsAssistantProps>(function Assistant(props, ref) {
  const {
    theme = 'system',
    mode = 'popover',
    position = 'bottom-right',
    shortcut = 'mod+i',
    starterQuestions = [],
    supportUrl,
    showLauncher = true,
    container,
    openLinksInNewTab = true,
    showDeveloperDetails = false,
    components,
  } = props;
  const shownTheme = useHostTheme(theme, props.themeSelector);
  const { buttonText = 'Ask AI' } = useTranslations('launcher');
  const chat = useDocsAssistant(props);
  const { emit } = chat;

  const [open = false, setOpen] = useControllableState({
    prop: props.open,
    defaultProp: props.defaultOpen ?? false,
    onChange: props.onOpenChange,
    caller: 'DocsAssistant',
  });
  // In panel mode the panel stays open across the site's pages: remembered for this tab only.
  const panelKey = PANEL_OPEN_KEY(props.domain);
  const remembersPanel = mode === 'panel' && props.open === undefined;
  useEffect(() => {
    if (remembersPanel && session()?.getItem(panelKey) === 'open') setOpen(true);
    // Read once, on the first page render after a navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!remembersPanel) return;
    try {
      if (open) session()?.setItem(panelKey, 'open');
      else session()?.removeItem(panelKey);
    } catch {
      // Storage full or disabled: the panel simply won't reopen on the next page.
    }
  }, [open, remembersPanel, panelKey]);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current !== open) emit({ type: open ? 'open' : 'close' });
    wasOpen.current = open;
    // Fetch the Markdown renderer while the reader types, so the first answer renders at once.
    if (open || chat.messages.length > 0) void loadMarkdown();
  }, [open, emit, chat.messages.length]);

  const panel = useRef<HTMLDivElement>(null);
  /** The header menu is open: Escape is its, not the dialog's. */
  const menuOpen = useRef(false);
  usePushPage(open && mode === 'panel' && !!props.push, panel);

  const input = useRef<HTMLTextAreaElement>(null);
  const chatRef = useRef(chat);
  chatRef.current = chat;
  useImperativeHandle(
    ref,
    (): AssistantHandle => ({
      open: () => setOpen(true),
      close: () => setOpen(false),
      toggle: () => setOpen((shown) => !shown),
      ask: (question, options) => {
        setOpen(true);
        return chatRef.current.ask(question, options);
      },
      addContext: (item) => {
        chatRef.current.addContext(item);
        setOpen(true);
        // The reader attached something to ask about: the question box is where they go next.
        requestAnimationFrame(() => input.current?.focus());
      },
      reset: () => chatRef.current.reset(),
    }),
    [setOpen],
  );

  const last = chat.messages.at(-1);
  const ending = chat.error
    ? 'failed'
    : last && chat.stopped.includes(last.id)
      ? 'stopped'
      : chat.status === 'ready'
        ? 'answered'
        : 'other';

  const newConversation = () => {
    chat.reset();
    // The button disables itself once the conversation is empty; focus would fall to the page.
    input.current?.focus();
  };

  const toggle = () => setOpen((shown) => !shown);
  useEffect(
    () =>
      shortcut
        ? listenForShortcut(document, shortcut, () => setOpen((shown) => !shown))
        : undefined,
    [shortcut, setOpen],
  );
  const parsedShortcut = useMemo(
    () => (shortcut ? parseShortcut(shortcut) : undefined),
    [shortcut],
  );
  // Worked out after mount: the server doesn't know the platform, and ⌘ vs Ctrl must not mismatch on hydration.
  const [hint, setHint] = useState<ReturnType<typeof describeShortcut>>();
  useEffect(() => setHint(shortcut ? describeShortcut(shortcut) : undefined), [shortcut]);
  // Keys typed in the assistant are ours: the host's shortcuts (Ctrl+K opens its search) never see
  // them. Stopped at our root, after our own handlers ran; the shortcut still closes from inside.
  const keepKeys = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (
      event.type === 'keydown' &&
      parsedShortcut &&
      matchesShortcut(event.nativeEvent, parsedShortcut)
    ) {
      event.preventDefault();
      toggle();
    }
  };
  const rootProps = {
    className: 'da-root',
    'data-theme': shownTheme,
    'data-mode': mode,
    'data-position': position,
    onKeyDown: keepKeys,
    onKeyUp: keepKeys,
    ref: warnIfUnstyled,
  } as const;
  const starters = starterQuestions.filter((q) => q.trim()).slice(0, 3);

  return (
    // Only the modal mode is modal: popover and panel leave the page usable (the reader selects text
    // there to ask about it), and Radix's scroll lock would inject a <style> into the host page.
    <Dialog.Root open={open} onOpenChange={setOpen} modal={mode === 'modal'}>
      {showLauncher && (
        <div {...rootProps}>
          <Dialog.Trigger
            className="da-launcher"
            data-state={open ? 'open' : 'closed'}
            aria-keyshortcuts={hint?.aria}
            data-kbd={hint?.label}
          >
            <SparkleIcon />
            {buttonText}
          </Dialog.Trigger>
        </div>
      )}
      <Dialog.Portal container={container ?? undefined}>
        {/* data-state: Radix keeps this wrapper mounted while its closing animation runs (widget.css). */}
        <div {...rootProps} data-state={open ? 'open' : 'closed'}>
          {mode === 'modal' && <div className="da-overlay" aria-hidden="true" />}
          <Dialog.Content
            ref={panel}
            className="da-dialog"
            aria-describedby={undefined}
            data-status={chat.status}
            onOpenAutoFocus={(event) => {
              event.preventDefault();
              input.current?.focus();
            }}
            onEscapeKeyDown={(event) => {
              // Escape in the header menu closes the menu only.
              if (menuOpen.current) event.preventDefault();
            }}
            onInteractOutside={(event) => {
              if (mode !== 'modal') event.preventDefault();
            }}
            onCloseAutoFocus={(event) => {
              const target = props.returnFocus?.();
              if (target) {
                event.preventDefault();
                target.focus();
              }
            }}
          >
            <Header
              supportUrl={supportUrl}
              threadId={chat.threadId}
              empty={chat.messages.length === 0 && !chat.threadId}
              onNewConversation={newConversation}
              messages={chat.messages}
              pageMarkdown={props.pageMarkdown ?? false}
              fetch={props.fetch}
              onMenuOpenChange={(isOpen) => {
                menuOpen.current = isOpen;
              }}
            />
            <MessageList
              messages={chat.messages}
              busy={chat.busy}
              failed={!!chat.error}
              stopped={chat.stopped}
              queue={chat.queue}
              sentContext={chat.sentContext}
              newTab={openLinksInNewTab}
              showDeveloperDetails={showDeveloperDetails}
              components={components}
              onRetry={chat.retry}
              onAsk={(question) => chat.ask(question)}
              onUnqueue={chat.unqueue}
              onFeedback={(message, details) => {
                const feedback: Feedback = {
                  messageId: message.id,
                  threadId: chat.threadId,
                  ...details,
                };
                props.onFeedback?.(feedback);
                chat.rate({
                  messageId: message.id,
                  rating: details.value,
                  ...(details.reasons ? { reasons: details.reasons } : {}),
                  ...(details.comment ? { comment: details.comment } : {}),
                });
                // Events carry no reader text: the comment goes to onFeedback only.
                const { comment: _comment, ...event } = feedback;
                emit({ type: 'feedback', ...event });
              }}
              footer={
                <ErrorBanner error={chat.error} warning={!!chat.warning} onRetry={chat.retry} />
              }
              empty={<EmptyState starters={starters} onAsk={(question) => chat.ask(question)} />}
            />
            <Composer
              ref={input}
              busy={chat.busy}
              context={chat.context}
              onSend={(text) => chat.ask(text)}
              onStop={chat.stop}
              onRemoveContext={chat.removeContext}
            />
            <Announcer
              busy={chat.busy}
              ending={ending}
              level={last?.role === 'assistant' ? confidenceLevel(last.annotations) : undefined}
            />
          </Dialog.Content>
        </div>
      </Dialog.Portal>
    </Dialog.Root>
  );
});
