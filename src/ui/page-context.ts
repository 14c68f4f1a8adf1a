import type { ContextItem } from '../protocol/schemas.js';
import { addShadowStyles } from './shadow-styles.js';

export interface PageContextOptions {
  /** Called when the reader asks about a selection or a code block. */
  onAttach(item: ContextItem): void;
  /** Which elements are code blocks. @default 'pre' */
  codeBlockSelector?: string;
  /** Button text. @default 'Ask AI' */
  label?: string;
  /** CSP nonce for the buttons' styles where constructable stylesheets are unavailable. @default undefined */
  nonce?: string;
  /** Nodes that belong to the assistant itself; selections inside them are ignored. @default none */
  isOwn?(node: Node): boolean;
  /** Path sent with each item. @default location.pathname */
  path?(): string;
}

/** Minimum selection length that offers "Ask AI" (shorter is usually an accidental click). */
export const MIN_SELECTION_CHARS = 3;
const HOST_TAG = 'docs-assistant-action';
const CODE_ID_PREFIX = 'da-code-';

// `all: initial !important` on :host wins over the page's !important rules (inner context wins for
// important declarations), so hostile page CSS cannot restyle these buttons.
const BUTTON_CSS = `:host{all:initial !important;display:block !important;position:relative !important;height:0 !important}
:host([hidden]){display:none !important}
.wrap{position:absolute;top:-10px;right:-8px;z-index:2147483000}
button{all:unset;box-sizing:border-box;display:inline-flex;align-items:center;gap:4px;padding:4px 9px;border-radius:7px;
font:600 12px/1.3 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#fff;background:#2563eb;cursor:pointer;
box-shadow:0 1px 4px rgba(15,23,42,.3);opacity:0;transition:opacity .12s}
:host([data-visible]) button,button:focus-visible{opacity:1}
button:focus-visible{outline:2px solid #93c5fd;outline-offset:2px}
.float{position:fixed;top:0;left:0}.float button{opacity:1}`;

function actionHost(doc: Document, label: string, nonce: string | undefined, extraClass: string): { host: HTMLElement; button: HTMLButtonElement } {
  const host = doc.createElement(HOST_TAG);
  const root = host.attachShadow({ mode: 'open' });
  addShadowStyles(root, BUTTON_CSS, nonce);
  const wrap = doc.createElement('div');
  wrap.className = `wrap ${extraClass}`;
  const button = doc.createElement('button');
  button.type = 'button';
  button.textContent = label;
  wrap.append(button);
  root.append(wrap);
  return { host, button };
}

let codeCounter = 0;

/**
 * Adds "Ask AI" to the page: a floating button by any text selection (3+ characters, outside the
 * assistant) and a button on every code block, including blocks added later. Returns a function
 * that removes every button, listener and observer it added.
 */
export function attachPageContext(options: PageContextOptions): () => void {
  const doc = document;
  const label = options.label ?? 'Ask AI';
  const selector = options.codeBlockSelector ?? 'pre';
  const pathOf = options.path ?? (() => location.pathname);
  const cleanups: (() => void)[] = [];
  const listen = <K extends keyof DocumentEventMap>(target: Document, type: K, handler: (event: DocumentEventMap[K]) => void, opts?: AddEventListenerOptions) => {
    target.addEventListener(type, handler, opts);
    cleanups.push(() => target.removeEventListener(type, handler, opts));
  };
  const isOwn = (node: Node | null): boolean => {
    for (let n: Node | null = node; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
      if (n instanceof Element && n.localName === HOST_TAG) return true;
      if (options.isOwn?.(n)) return true;
    }
    return false;
  };

  // Code blocks
  const decorated = new Map<Element, { host: HTMLElement; cleanup: () => void }>();
  const decorate = (block: Element) => {
    if (decorated.has(block) || isOwn(block) || !(block instanceof HTMLElement)) return;
    const { host, button } = actionHost(doc, label, options.nonce, 'code');
    // The host is a zero-height block at the top of the code block (see BUTTON_CSS): it anchors the
    // button over the block's top-right corner without moving the code or adding to its text.
    button.setAttribute('aria-label', `${label}: code block`);
    const show = () => host.setAttribute('data-visible', '');
    const hide = () => host.removeAttribute('data-visible');
    block.addEventListener('mouseenter', show);
    block.addEventListener('mouseleave', hide);
    button.addEventListener('click', (event) => {
      event.preventDefault();
      event.stopPropagation();
      if (!block.id) block.id = `${CODE_ID_PREFIX}${++codeCounter}`;
      const code = (block.querySelector('code') ?? block).textContent ?? '';
      options.onAttach({ type: 'code', value: code.replace(/\n$/, ''), path: pathOf(), elementId: block.id });
    });
    block.prepend(host);
    // Decorated while the pointer already rests on the block: no mouseenter will come.
    if (block.matches(':hover')) show();
    decorated.set(block, {
      host,
      cleanup: () => {
        block.removeEventListener('mouseenter', show);
        block.removeEventListener('mouseleave', hide);
        host.remove();
        if (block.id.startsWith(CODE_ID_PREFIX)) block.removeAttribute('id');
      },
    });
  };
  const scan = (root: ParentNode) => {
    if (root instanceof Element && root.matches(selector)) decorate(root);
    root.querySelectorAll(selector).forEach(decorate);
  };
  scan(doc);
  // Single-page docs sites swap content in place: decorate code blocks as they arrive.
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      record.addedNodes.forEach((node) => {
        if (node instanceof Element && !isOwn(node)) scan(node);
      });
    }
  });
  observer.observe(doc.body, { childList: true, subtree: true });
  cleanups.push(() => observer.disconnect());
  cleanups.push(() => {
    decorated.forEach(({ cleanup }) => cleanup());
    decorated.clear();
  });

  // Text selection
  const floating = actionHost(doc, label, options.nonce, 'float');
  floating.host.hidden = true;
  floating.button.setAttribute('aria-label', `${label}: selected text`);
  doc.body.append(floating.host);
  cleanups.push(() => floating.host.remove());
  let selected = '';
  const place = () => {
    const selection = doc.getSelection();
    const text = selection?.toString().trim() ?? '';
    const range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : undefined;
    if (text.length < MIN_SELECTION_CHARS || !range || isOwn(range.commonAncestorContainer)) {
      floating.host.hidden = true;
      selected = '';
      return;
    }
    selected = text;
    const rects = range.getClientRects();
    const last = rects[rects.length - 1] ?? range.getBoundingClientRect();
    const wrap = floating.button.parentElement!;
    const x = Math.min(Math.max(8, last.right - 40), innerWidth - 90);
    const y = last.bottom + 8 > innerHeight - 40 ? last.top - 36 : last.bottom + 8;
    wrap.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    floating.host.hidden = false;
  };
  // Place after the pointer or keys finish selecting, not on every selectionchange mid-drag.
  listen(doc, 'mouseup', () => setTimeout(place, 0));
  listen(doc, 'keyup', (event) => {
    if (event.shiftKey || event.key.startsWith('Arrow')) place();
  });
  listen(doc, 'selectionchange', () => {
    if (!floating.host.hidden && (doc.getSelection()?.toString().trim().length ?? 0) < MIN_SELECTION_CHARS) floating.host.hidden = true;
  });
  listen(doc, 'scroll', () => (floating.host.hidden = true), { passive: true, capture: true });
  floating.button.addEventListener('mousedown', (event) => event.preventDefault()); // keep the selection
  floating.button.addEventListener('click', () => {
    if (!selected) return;
    options.onAttach({ type: 'textSelection', value: selected, path: pathOf() });
    floating.host.hidden = true;
    doc.getSelection()?.removeAllRanges();
  });

  return () => cleanups.splice(0).reverse().forEach((cleanup) => cleanup());
}
