import * as Dialog from '@radix-ui/react-dialog';
import type { ChatMessage } from '../chat/message.js';
import { HeaderMenu, type PageMarkdownSetting } from './header-menu.js';
import { CloseIcon, NewIcon } from './icons.js';
import { useTranslations } from './translations.js';

/** The support link is shown only once there is a thread to carry. */
function supportHref(template: string, threadId: string): string {
  if (template.includes('{threadId}'))
    return template.replace('{threadId}', encodeURIComponent(threadId));
  return `${template}${template.includes('?') ? '&' : '?'}threadId=${encodeURIComponent(threadId)}`;
}

/**
 * The dialog's title bar: the support link (once there is a thread), New conversation, the menu
 * of copy actions, Close.
 */
export function Header({
  supportUrl,
  threadId,
  empty,
  onNewConversation,
  messages,
  pageMarkdown,
  fetch,
  onMenuOpenChange,
}: {
  supportUrl: string | undefined;
  threadId: string | undefined;
  /** Nothing to start over from: New conversation is disabled. */
  empty: boolean;
  onNewConversation(): void;
  messages: readonly ChatMessage[];
  pageMarkdown: PageMarkdownSetting;
  fetch: typeof globalThis.fetch | undefined;
  onMenuOpenChange(open: boolean): void;
}) {
  const {
    title = 'Ask the docs',
    close = 'Close',
    newConversation = 'New conversation',
    support = 'Contact support',
  } = useTranslations('header');
  return (
    <div className="da-header">
      <Dialog.Title className="da-title">{title}</Dialog.Title>
      <div className="da-header-actions">
        {supportUrl && threadId && (
          <a
            className="da-support"
            href={supportHref(supportUrl, threadId)}
            target="_blank"
            rel="noopener noreferrer"
          >
            {support}
          </a>
        )}
        <button
          type="button"
          className="da-icon-button"
          title={newConversation}
          onClick={onNewConversation}
          disabled={empty}
        >
          <NewIcon />
          <span className="da-collapsible-label">{newConversation}</span>
        </button>
        <HeaderMenu
          messages={messages}
          pageMarkdown={pageMarkdown}
          fetch={fetch}
          onOpenChange={onMenuOpenChange}
        />
        <Dialog.Close className="da-icon-button da-close" aria-label={close} title={close}>
          <CloseIcon />
        </Dialog.Close>
      </div>
    </div>
  );
}
