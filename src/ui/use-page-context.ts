import { useEffect, type RefObject } from 'react';
import type { AssistantHandle } from './docs-assistant.js';
import { attachPageContext, type PageContextOptions } from './page-context.js';
import type { PageContextTranslations } from './translations.js';

export type UsePageContextOptions = Omit<PageContextOptions, 'onAttach'>;

/**
 * The script tag's page features for a React docs site: "Ask AI" by text selections and on code
 * blocks, attaching context to the assistant behind `assistant`. Runs only in the browser.
 */
export function usePageContext(
  assistant: RefObject<AssistantHandle | null>,
  options: UsePageContextOptions = {},
): void {
  const { codeBlockSelector, label, nonce, translations } = options;
  // Compared by value: an inline translations object must not re-attach on every render.
  const strings = JSON.stringify(translations ?? {});
  useEffect(
    () =>
      attachPageContext({
        ...(codeBlockSelector ? { codeBlockSelector } : {}),
        ...(label ? { label } : {}),
        translations: JSON.parse(strings) as PageContextTranslations,
        ...(nonce ? { nonce } : {}),
        isOwn: (node) => node instanceof Element && node.classList.contains('da-root'),
        onAttach: (item) => assistant.current?.addContext(item),
      }),
    [assistant, codeBlockSelector, label, nonce, strings],
  );
}
