import type { AssistantEvent } from '../chat/use-docs-assistant.js';
import type { AskOptions } from '../chat/use-docs-assistant.js';
import type { ContextItem } from '../protocol/types.js';
import { watchHostTheme, hostTheme } from '../ui/host-theme.js';
import { attachPageContext, OPEN_SURFACES } from '../ui/page-context.js';
import { addShadowStyles } from '../ui/shadow-styles.js';
import { describeShortcut, listenForShortcut } from '../ui/shortcut.js';
import launcherCss from '../ui/styles/launcher.css?inline';
import type { ChatModule, ChatMount } from './chat.js';
import { configFromDataset, validateConfig, type EmbedConfig } from './config.js';

/**
 * The script every docs page loads. It stays small: it draws the launcher and the page-context
 * buttons itself, and fetches the chat code (React, the widget, its CSS) from beside itself only
 * when first needed: hover or focus on the launcher, the shortcut, an API call, or browser idle.
 */

type EventName = AssistantEvent['type'] | 'ready';
type Handler = (event: AssistantEvent | { type: 'ready' }) => void;

export interface DocsAssistantApi {
  init(config: Record<string, unknown>): void;
  open(): void;
  close(): void;
  toggle(): void;
  ask(question: string, options?: AskOptions): void;
  addContext(item: ContextItem): void;
  reset(): void;
  destroy(): void;
  on(event: EventName, handler: Handler): () => void;
}

const CHAT_FILE = 'docs-assistant.chat.js';
const HOST_TAG = 'docs-assistant-root';
/** Preload the chat code this long after the page settles, when the reader is likely to want it. */
const IDLE_PRELOAD_MS = 4000;
// Inner-context !important beats the page's !important (CSS cascade, shadow contexts), so host CSS
// like `* { font: 30px serif !important }` cannot reach in through inheritance.
const HOST_CSS = ':host{all:initial !important;display:contents !important}';
/**
 * The launcher's sparkle, drawn by CSS rather than as SVG elements that every page would create,
 * style and lay out: the outline of the star `M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9Z`
 * stroked 2 wide with round joins (viewBox 24), at 18 px: its outer edge, then the hole (evenodd).
 */
const ICON_CSS =
  ".da-launcher::before{content:'';flex:none;width:18px;height:18px;background:currentColor;" +
  "clip-path:path(evenodd,'M8.3 1.99A0.75 0.75 0 0 1 9.7 1.99L11.01 5.49L14.51 6.8A0.75 0.75 0 0 1 14.51 8.2L11.01 9.51L9.7 13.01A0.75 0.75 0 0 1 8.3 13.01L6.99 9.51L3.49 8.2A0.75 0.75 0 0 1 3.49 6.8L6.99 5.49ZM9 4.4L9.72 6.34A0.75 0.75 0 0 1 10.16 6.78L12.1 7.5L10.16 8.22A0.75 0.75 0 0 1 9.72 8.66L9 10.6L8.28 8.66A0.75 0.75 0 0 1 7.84 8.22L5.9 7.5L7.84 6.78A0.75 0.75 0 0 1 8.28 6.34Z')}";

const currentScript =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null) : null;

/** Space kept between the launcher and a page control it moved away from. */
const CLEARANCE_PX = 12;

/**
 * How far the launcher must rise to clear the page's own fixed controls in its corner (Docusaurus'
 * back-to-top button): what a pointer would hit under the launcher's resting place, if it is in a
 * small fixed element. Bars and overlays wider or taller than half the screen are not controls.
 */
function liftNeeded(host: Element, launcher: HTMLElement, lift: number): number {
  const r = launcher.getBoundingClientRect();
  const top = r.top + lift;
  const bottom = r.bottom + lift;
  // Points inside the pill's shape (its ends are round, and so are many page controls).
  const middle = (top + bottom) / 2;
  const centre = (r.left + r.right) / 2;
  const points = [
    [r.left + r.height / 2, middle],
    [centre, middle],
    [r.right - r.height / 2, middle],
    [centre, top + 2],
    [centre, bottom - 2],
  ] as const;
  // The points share most of what lies under them: each element's position is read once.
  const fixedOf = new Map<Element, Element | undefined>();
  const fixedAncestor = (el: Element | null): Element | undefined => {
    if (!el || el === document.body || el === document.documentElement) return undefined;
    if (!fixedOf.has(el))
      fixedOf.set(
        el,
        getComputedStyle(el).position === 'fixed' ? el : fixedAncestor(el.parentElement),
      );
    return fixedOf.get(el);
  };
  let needed = 0;
  for (const [x, y] of points) {
    for (const hit of document.elementsFromPoint(x, y)) {
      const el = fixedAncestor(hit);
      if (!el || el === host) continue;
      const box = el.getBoundingClientRect();
      if (box.width > innerWidth / 2 || box.height > innerHeight / 2) continue;
      needed = Math.max(needed, bottom - box.top + CLEARANCE_PX);
    }
  }
  return Math.round(needed);
}

/**
 * Runs `task` when the browser is idle (at the latest after `timeout` ms), or after `fallbackMs`
 * where requestIdleCallback is missing. Returns what cancels it.
 */
function whenIdle(task: () => void, timeout: number, fallbackMs: number): () => void {
  if ('requestIdleCallback' in window) {
    const id = requestIdleCallback(task, { timeout });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(task, fallbackMs);
  return () => clearTimeout(timer);
}

/** Set by the widget while its panel is open (see `PANEL_OPEN_KEY` in src/ui/docs-assistant.tsx). */
function panelWasOpen(domain: string): boolean {
  try {
    return sessionStorage.getItem(`docs-assistant:panel:${domain}`) === 'open';
  } catch {
    return false;
  }
}

interface Instance {
  config: EmbedConfig;
  host: HTMLElement;
  launcher: HTMLButtonElement;
  chat?: ChatMount;
  loading?: Promise<ChatMount | undefined>;
  queue: ((chat: ChatMount) => void)[];
  cleanups: (() => void)[];
}

function createApi(): DocsAssistantApi {
  let instance: Instance | undefined;
  const handlers = new Map<EventName, Set<Handler>>();
  const emit = (event: AssistantEvent | { type: 'ready' }) => {
    handlers.get(event.type)?.forEach((handler) => {
      try {
        handler(event);
      } catch (error) {
        console.error('docs-assistant: an event handler threw', error);
      }
    });
  };

  function chatUrl(config: EmbedConfig): string | undefined {
    const base = config.assetsUrl ?? currentScript?.src;
    return base ? new URL(CHAT_FILE, base).href : undefined;
  }

  /** Loads the chat code once, with the CSP nonce, leaving no element or global behind. */
  function load(self: Instance): Promise<ChatMount | undefined> {
    if (self.loading) return self.loading;
    const url = chatUrl(self.config);
    self.launcher.dataset.state = self.launcher.dataset.state === 'open' ? 'open' : 'loading';
    self.loading = new Promise<ChatMount | undefined>((resolve) => {
      if (!url) {
        console.error(
          'docs-assistant: cannot tell where the chat code is; set "assetsUrl" to the folder of docs-assistant.js.',
        );
        return resolve(undefined);
      }
      const script = document.createElement('script');
      const onChat = (event: Event) => {
        const module = (event as CustomEvent<ChatModule>).detail;
        if (instance !== self) return resolve(undefined);
        const chat = module.mount({
          shadowRoot: self.host.shadowRoot!,
          config: self.config,
          onEvent: emit,
          onOpenChange: (open) => {
            self.launcher.dataset.state = open ? 'open' : 'closed';
            self.launcher.setAttribute('aria-expanded', String(open));
          },
          // onOpenChange(false) arrives after React commits the close (Radix's controllable state):
          // the launcher must be shown again before focus can go back to it.
          returnFocus: () => {
            self.launcher.dataset.state = 'closed';
            return self.launcher;
          },
        });
        self.chat = chat;
        self.launcher.dataset.state = 'closed';
        resolve(chat);
        emit({ type: 'ready' });
        self.queue.splice(0).forEach((call) => call(chat));
      };
      document.addEventListener('docs-assistant:chat', onChat, { once: true });
      const done = () => script.remove();
      script.src = url;
      script.async = true;
      if (self.config.nonce) script.nonce = self.config.nonce;
      script.onload = done;
      script.onerror = () => {
        done();
        document.removeEventListener('docs-assistant:chat', onChat);
        self.launcher.dataset.state = 'error';
        console.error(
          `docs-assistant: could not load ${url}. Your questions were kept; reload the page to try again.`,
        );
        self.loading = undefined;
        resolve(undefined);
      };
      self.cleanups.push(() => {
        done();
        document.removeEventListener('docs-assistant:chat', onChat);
      });
      document.head.append(script);
    });
    return self.loading;
  }

  /** Runs `call` on the chat, loading it first; calls made before it loads are queued in order. */
  function withChat(call: (chat: ChatMount) => void): void {
    const self = instance;
    if (!self) {
      console.error(
        'docs-assistant: call DocsAssistant.init({...}) first (or add data-domain and data-base-url to the script tag).',
      );
      return;
    }
    if (self.chat) return call(self.chat);
    self.queue.push(call);
    void load(self);
  }

  function init(raw: Record<string, unknown>): void {
    if (instance) destroy();
    const result = validateConfig(raw ?? {});
    if (!result.ok) {
      console.error(result.error);
      return;
    }
    const config = result.config;
    const host = document.createElement(HOST_TAG);
    const shadow = host.attachShadow({ mode: 'open' });
    addShadowStyles(shadow, HOST_CSS + launcherCss + ICON_CSS, config.nonce);
    const root = document.createElement('div');
    root.className = 'da-root';
    const theme = config.theme ?? 'auto';
    const showTheme = (shown = hostTheme(document, config.themeSelector)) =>
      (root.dataset.theme = shown);
    // `auto` is read, and then watched, in the frame that first draws the launcher: the page's style
    // is computed for that frame anyway, so reading the root's color-scheme then forces no extra
    // recalculation, and the launcher is never drawn in the wrong colours.
    root.dataset.theme = theme === 'auto' ? 'light' : theme;
    root.dataset.mode = config.mode ?? 'popover';
    root.dataset.position = config.position ?? 'bottom-right';
    if (config.offset) {
      root.style.setProperty('--da-offset-x', `${config.offset[0]}px`);
      root.style.setProperty('--da-offset-y', `${config.offset[1]}px`);
    }
    const launcher = document.createElement('button');
    launcher.type = 'button';
    launcher.className = 'da-launcher';
    launcher.dataset.state = 'closed';
    launcher.setAttribute('aria-haspopup', 'dialog');
    launcher.setAttribute('aria-expanded', 'false');
    // Only the strings drawn before the chat loads are read here; the chat chunk reads the rest.
    launcher.append(config.translations?.launcher?.buttonText ?? 'Ask AI');
    // The shortcut shows on hover and focus (launcher.css); assistive tech gets it as aria-keyshortcuts.
    const hint = describeShortcut(config.openShortcut ?? 'mod+i');
    if (hint) {
      launcher.dataset.kbd = hint.label;
      launcher.setAttribute('aria-keyshortcuts', hint.aria);
    }
    root.append(launcher);
    shadow.append(root);
    document.body.append(host);

    const self: Instance = { config, host, launcher, queue: [], cleanups: [] };
    instance = self;
    const preload = () => void load(self);
    launcher.addEventListener('click', () => withChat((chat) => chat.handle.toggle()));
    launcher.addEventListener('pointerenter', preload);
    launcher.addEventListener('focus', preload);
    if (theme === 'auto') {
      let stopWatching = () => {};
      const frame = requestAnimationFrame(() => {
        showTheme();
        stopWatching = watchHostTheme(document, showTheme, config.themeSelector);
      });
      self.cleanups.push(() => {
        cancelAnimationFrame(frame);
        stopWatching();
      });
    }

    // Until the chat is loaded the shortcut is ours; then the widget's own (same rules) takes over.
    self.cleanups.push(
      listenForShortcut(
        document,
        config.openShortcut ?? 'mod+i',
        () => !self.chat && withChat((chat) => chat.handle.toggle()),
      ),
    );

    // Out of the way of the page's fixed controls: checked when idle, and once scrolling settles
    // (back-to-top buttons appear on scroll, after their own transition).
    let lift = 0;
    let settleTimer: ReturnType<typeof setTimeout> | undefined;
    const clear = () => {
      if (instance !== self || launcher.dataset.state === 'open') return;
      const needed = liftNeeded(host, launcher, lift);
      if (needed !== lift) root.style.setProperty('--da-lift', `${(lift = needed)}px`);
    };
    const onScroll = () => {
      clearTimeout(settleTimer);
      settleTimer = setTimeout(clear, 300);
    };

    // Nothing else is needed to draw the launcher: the rest waits for one idle moment. Page
    // context's buttons show on hover, focus or selection, so until then they need no listener.
    const whenSettled = () => {
      if (instance !== self) return;
      self.cleanups.push(
        attachPageContext({
          ...(config.codeBlockSelector ? { codeBlockSelector: config.codeBlockSelector } : {}),
          ...(config.nonce ? { nonce: config.nonce } : {}),
          translations: config.translations?.pageContext,
          isOwn: (node) => node === host,
          surfaces: () => shadow.querySelectorAll(OPEN_SURFACES),
          onAttach: (item) => withChat((chat) => chat.handle.addContext(item)),
        }),
      );
      clear();
      addEventListener('scroll', onScroll, { passive: true });
      addEventListener('resize', onScroll, { passive: true });
    };
    self.cleanups.push(whenIdle(whenSettled, 1000, 200), () => {
      clearTimeout(settleTimer);
      removeEventListener('scroll', onScroll);
      removeEventListener('resize', onScroll);
    });

    let cancelPreload = () => {};
    const settle = setTimeout(
      () => (cancelPreload = whenIdle(preload, IDLE_PRELOAD_MS, 0)),
      IDLE_PRELOAD_MS,
    );
    self.cleanups.push(() => {
      clearTimeout(settle);
      cancelPreload();
    });

    // `?assistant` opens the assistant; `?assistant=question` asks it. Once used it leaves the URL,
    // so a reload or a shared link does not ask the same question again.
    const params = new URLSearchParams(location.search);
    const param = params.get('assistant');
    if (param !== null) {
      const question = param.trim();
      params.delete('assistant');
      const query = params.toString();
      history.replaceState(
        history.state,
        '',
        `${location.pathname}${query ? `?${query}` : ''}${location.hash}`,
      );
      withChat((chat) => (question ? chat.handle.ask(question) : chat.handle.open()));
    } else if (config.mode === 'panel' && panelWasOpen(config.domain)) {
      // A panel the reader left open stays open on the next page of the site.
      withChat((chat) => chat.handle.open());
    }
  }

  function destroy(): void {
    const self = instance;
    if (!self) return;
    instance = undefined;
    self.cleanups.splice(0).forEach((cleanup) => cleanup());
    self.chat?.unmount();
    self.host.remove();
    self.queue.length = 0;
    handlers.clear();
  }

  return {
    init,
    open: () => withChat((chat) => chat.handle.open()),
    close: () => instance?.chat?.handle.close(),
    toggle: () => withChat((chat) => chat.handle.toggle()),
    ask: (question, options) => withChat((chat) => chat.handle.ask(question, options)),
    addContext: (item) => withChat((chat) => chat.handle.addContext(item)),
    reset: () => withChat((chat) => chat.handle.reset()),
    destroy,
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      set.add(handler);
      handlers.set(event, set);
      return () => set.delete(handler);
    },
  };
}

declare global {
  interface Window {
    DocsAssistant: DocsAssistantApi;
  }
}

if (typeof window !== 'undefined') {
  const api = createApi();
  window.DocsAssistant = api;
  const fromTag = currentScript ? configFromDataset(currentScript.dataset) : undefined;
  if (fromTag) {
    const start = () => api.init(fromTag);
    if (document.body) start();
    else document.addEventListener('DOMContentLoaded', start, { once: true });
  }
}
