// First import: it must be evaluated before the modules whose listeners it records.
import { removeRecordedListeners, stopRecording } from './_listeners.js';
import { createRef } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import widgetCss from '../ui/styles/widget.css?inline';
import { addShadowStyles } from '../ui/shadow-styles.js';
import { DocsAssistant, type AssistantHandle } from '../ui/docs-assistant.js';
import type { AssistantEvent } from '../chat/use-docs-assistant.js';
import { KEY_EXAMPLE } from '../protocol/keys.js';
import { filterOf, sendsFeedback, type EmbedConfig } from './config.js';

export interface MountOptions {
  shadowRoot: ShadowRoot;
  config: EmbedConfig;
  onEvent(event: AssistantEvent): void;
  onOpenChange(open: boolean): void;
  returnFocus(): HTMLElement | null;
}

export interface ChatMount {
  handle: AssistantHandle;
  unmount(): void;
}

export type ChatModule = { mount(options: MountOptions): ChatMount };

/** Told once per page load: the same refusal comes back for every question. */
let refusedKeyTold = false;

/**
 * The site owner's side of "The assistant refused this site's key": what failed, for which domain,
 * why, and where a key comes from, without the key itself (console output ends up in bug reports).
 */
function refusedKeyMessage(config: EmbedConfig): string {
  const where = config.baseUrl || location.origin;
  const refused = `docs-assistant: ${where} refused the assistant key for domain "${config.domain}" (401 Unauthorized), so readers get no answers.`;
  return config.apiKey
    ? `${refused} The key in data-api-key (or init({ apiKey })) is wrong, revoked, for another ` +
        `organisation, or not an assistant key (${KEY_EXAMPLE.assistant}). Copy the assistant key ` +
        `from the API keys page of your organisation's dashboard (with the reference server: one of ` +
        `its configured keys).`
    : `${refused} The page sends no key, so a proxy at ${where} must add the assistant key ` +
        `(${KEY_EXAMPLE.assistant}); check the key it adds.`;
}

/** Renders the React widget into the embed's shadow root: a thin factory, never a second widget. */
function mount({
  shadowRoot,
  config,
  onEvent,
  onOpenChange,
  returnFocus,
}: MountOptions): ChatMount {
  addShadowStyles(shadowRoot, widgetCss, config.nonce);
  const container = shadowRoot.ownerDocument.createElement('div');
  shadowRoot.append(container);
  const root = createRoot(container);
  const ref = createRef<AssistantHandle>();
  const filter = filterOf(config);
  flushSync(() =>
    root.render(
      <DocsAssistant
        ref={ref}
        domain={config.domain}
        baseUrl={config.baseUrl}
        {...(config.apiKey ? { apiKey: config.apiKey } : {})}
        {...(config.fp ? { userId: config.fp } : {})}
        {...(config.retrievalPageSize ? { retrievalPageSize: config.retrievalPageSize } : {})}
        {...(filter ? { filter } : {})}
        {...(config.docsBaseUrl ? { docsBaseUrl: config.docsBaseUrl } : {})}
        {...(config.starterQuestions ? { starterQuestions: config.starterQuestions } : {})}
        {...(config.translations ? { translations: config.translations } : {})}
        theme={config.theme ?? 'auto'}
        {...(config.themeSelector ? { themeSelector: config.themeSelector } : {})}
        mode={config.mode ?? 'popover'}
        push={config.push ?? false}
        sendFeedback={sendsFeedback(config)}
        position={config.position ?? 'bottom-right'}
        shortcut={config.openShortcut ?? 'mod+i'}
        showLauncher={false}
        // The script tag offers "Copy page as Markdown" where the page's .md exists.
        pageMarkdown="check"
        container={container}
        onEvent={(event) => {
          if (event.type === 'error' && event.kind === 'unauthorized' && !refusedKeyTold) {
            refusedKeyTold = true;
            console.error(refusedKeyMessage(config));
          }
          onEvent(event);
        }}
        onOpenChange={onOpenChange}
        returnFocus={returnFocus}
      />,
    ),
  );
  // React DOM adds its document listeners at the first createRoot: record through the first mount.
  stopRecording();
  return {
    handle: ref.current!,
    unmount: () => {
      root.unmount();
      container.remove();
      removeRecordedListeners();
    },
  };
}

// The loader listens for this event; the chunk defines no global of its own.
document.dispatchEvent(new CustomEvent<ChatModule>('docs-assistant:chat', { detail: { mount } }));
