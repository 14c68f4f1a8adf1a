import { useEffect, type RefObject } from 'react';
import type { AssistantHandle } from './docs-assistant.js';
import { attachPageContext, type PageContextOptions } from './page-context.js';

export type UsePageContextOptions = Omit<PageContextOptions, 'onAttach'>;

/**
 * The script tag's page features for a React docs site: "Ask AI" by text selections and on code
 * blocks, attaching context to the assistant behind `assistant`. Runs only in the browser.
 */
export function usePageContext(
  assistant: RefObject<AssistantHandle | null>,
  options: UsePageContextOptions = {},
): void {
  const { codeBlockSelector, label, nonce } = options;
  useEffect(
    () =>
      attachPageContext({
        ...(codeBlockSelector ? { codeBlockSelector } : {}),
        ...(label ? { label } : {}),
        ...(nonce ? { nonce } : {}),
        isOwn: (node) => node instanceof Element && node.classList.contains('da-root'),
        onAttach: (item) => assistant.current?.addContext(item),
      }),
    [assistant, codeBlockSelector, label, nonce],
  );
}
