import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ChatMessage } from '../chat/message.js';
import {
  advertisedMarkdownUrl,
  conversationMarkdown,
  fetchMarkdown,
  pageMarkdownUrl,
  servesMarkdown,
} from './copy-markdown.js';
import { writeClipboard } from './clipboard.js';
import { CheckIcon, MoreIcon } from './icons.js';
import { useDocsBaseUrl, useTranslations } from './translations.js';

/**
 * `true`: offer the page's Markdown (advertised, else its URL plus `.md`); `'check'`: only where the
 * page advertises it and a HEAD finds it there. `'check'` never guesses a URL: on a site without
 * Markdown pages, a guessed `.md` would be a 404 in the host page's console on every page.
 */
export type PageMarkdownSetting = boolean | 'check';

/** Pages whose `.md` was looked for, this page load: one request per page, however often it opens. */
const checked = new Map<string, Promise<boolean>>();

/** The page's Markdown URL when the header may offer it, found when the dialog opens. */
function usePageMarkdown(setting: PageMarkdownSetting, fetchImpl: typeof fetch | undefined) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!setting || typeof document === 'undefined') return;
    const candidate = setting === 'check' ? advertisedMarkdownUrl() : pageMarkdownUrl();
    if (!candidate) return;
    if (setting === true) return setUrl(candidate);
    let live = true;
    if (!checked.has(candidate)) checked.set(candidate, servesMarkdown(candidate, fetchImpl));
    void checked.get(candidate)!.then((exists) => {
      if (live && exists) setUrl(candidate);
    });
    return () => {
      live = false;
    };
  }, [setting, fetchImpl]);
  return url;
}

type Status = 'idle' | 'page' | 'conversation' | 'failed';

/**
 * The header's "More actions" menu (the WAI-ARIA menu button): Copy page as Markdown, when the
 * page has Markdown and the owner offers it, and Copy conversation as Markdown with its sources.
 */
export function HeaderMenu({
  messages,
  pageMarkdown,
  fetch: fetchImpl,
  onOpenChange,
}: {
  messages: readonly ChatMessage[];
  pageMarkdown: PageMarkdownSetting;
  fetch?: typeof fetch | undefined;
  /** Told when the menu opens and closes (Escape closes the menu, not the dialog). */
  onOpenChange(open: boolean): void;
}) {
  const {
    moreActions = 'More actions',
    copyPage = 'Copy page as Markdown',
    copyConversation = 'Copy conversation as Markdown',
    pageCopied = 'Page copied as Markdown',
    conversationCopied = 'Conversation copied as Markdown',
    copyFailed = 'Could not copy. Try again.',
  } = useTranslations('header');
  const { you = 'You', assistant = 'Assistant' } = useTranslations('message');
  const { title: sources = 'Sources' } = useTranslations('sources');
  const docsBaseUrl = useDocsBaseUrl();
  const pageUrl = usePageMarkdown(pageMarkdown, fetchImpl);
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<Status>('idle');
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();
  useEffect(() => () => clearTimeout(timer.current), []);

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const enabled = () => items().filter((item) => item.getAttribute('aria-disabled') !== 'true');
  const show = (next: boolean, focus?: 'first' | 'last') => {
    setOpen(next);
    onOpenChange(next);
    if (!next) return;
    // After React has drawn the menu.
    requestAnimationFrame(() => {
      const list = enabled();
      (focus === 'last' ? list.at(-1) : list[0])?.focus();
    });
  };
  const close = () => {
    show(false);
    trigger.current?.focus();
  };

  // A press anywhere outside closes it; the dialog may live in a shadow root, so ask its root.
  useEffect(() => {
    if (!open) return;
    const root = menu.current?.getRootNode() as Document | ShadowRoot | undefined;
    const outside = (event: Event) => {
      const path = event.composedPath();
      if (!path.includes(menu.current!) && !path.includes(trigger.current!)) show(false);
    };
    root?.addEventListener('pointerdown', outside);
    return () => root?.removeEventListener('pointerdown', outside);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- show only closes here
  }, [open]);

  const copy = async (what: 'page' | 'conversation') => {
    close();
    const text =
      what === 'page'
        ? fetchMarkdown(pageUrl!, fetchImpl)
        : conversationMarkdown(messages, { you, assistant, sources }, docsBaseUrl);
    const done = await writeClipboard(text);
    setStatus(done ? what : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus('idle'), 2500);
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const list = enabled();
    const at = list.indexOf(event.target as HTMLElement);
    const move: Record<string, number | undefined> = {
      ArrowDown: (at + 1) % list.length,
      ArrowUp: (at - 1 + list.length) % list.length,
      Home: 0,
      End: list.length - 1,
    };
    if (event.key in move) {
      event.preventDefault();
      list[move[event.key]!]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') show(false);
  };

  const said =
    status === 'page'
      ? pageCopied
      : status === 'conversation'
        ? conversationCopied
        : status === 'failed'
          ? copyFailed
          : '';
  const empty = messages.length === 0;
  return (
    <div className="da-menu-wrap">
      {/* Polite, without role="status": the dialog's announcer is its one status region. */}
      <span className="da-menu-status" aria-live="polite" data-status={status}>
        {said}
      </span>
      <button
        ref={trigger}
        type="button"
        className="da-icon-button"
        title={moreActions}
        aria-label={moreActions}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        data-state={open ? 'open' : 'closed'}
        onClick={() => (open ? show(false) : show(true))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            show(true, event.key === 'ArrowUp' ? 'last' : 'first');
          }
        }}
      >
        {status === 'page' || status === 'conversation' ? <CheckIcon /> : <MoreIcon />}
      </button>
      {open && (
        <div
          ref={menu}
          id={id}
          className="da-menu"
          role="menu"
          aria-label={moreActions}
          onKeyDown={onMenuKey}
        >
          {pageUrl && (
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="da-menu-item"
              onClick={() => void copy('page')}
            >
              {copyPage}
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="da-menu-item"
            aria-disabled={empty}
            onClick={() => {
              if (!empty) void copy('conversation');
            }}
          >
            {copyConversation}
          </button>
        </div>
      )}
    </div>
  );
}
