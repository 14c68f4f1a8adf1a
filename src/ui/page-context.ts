import type { ContextItem } from '../protocol/types.js';
import { addShadowStyles } from './shadow-styles.js';
import type { PageContextTranslations } from './translations.js';

export interface PageContextOptions {
  /** Called when the reader asks about a selection or a code block. */
  onAttach(item: ContextItem): void;
  /** Which elements are code blocks. @default 'pre' */
  codeBlockSelector?: string;
  /** The buttons' text and accessible names. @default English */
  translations?: PageContextTranslations;
  /** @deprecated Button text; use `translations.buttonText`. @default 'Ask AI' */
  label?: string;
  /** CSP nonce for the buttons' styles where constructable stylesheets are unavailable. @default undefined */
  nonce?: string;
  /** Nodes that belong to the assistant itself; selections inside them are ignored. @default none */
  isOwn?(node: Node): boolean;
  /** Path sent with each item. @default location.pathname */
  path?(): string;
  /**
   * The assistant's open surfaces (its dialog, a modal's overlay): the buttons keep out of their
   * boxes, so wherever the chat is drawn it is on top and gets the clicks.
   * @default the open assistants' dialogs and overlays in the document
   */
  surfaces?(): Iterable<Element>;
}

/**
 * What the widget draws while open: the children of its portal's root (src/ui/docs-assistant.tsx),
 * the dialog and a modal's overlay. A closing dialog (data-state=closed) no longer counts.
 */
export const OPEN_SURFACES = '.da-root[data-state=open]>*';

/** Minimum selection length that offers "Ask AI" (shorter is usually an accidental click). */
export const MIN_SELECTION_CHARS = 3;
const HOST_TAG = 'docs-assistant-action';
const CODE_ID_PREFIX = 'da-code-';
/** Longest opening or closing motion the code button waits out before taking its place again. */
const MOTION_WAIT_MS = 1000;
/** The buttons' layer: below the assistant's `--da-z` whether or not a minifier rounded it. */
const BUTTON_Z = 2147470000;
/** Gap between our button and the block's edge or the framework's own controls. */
const INSET = 8;

// `all: initial !important` on :host wins over the page's !important rules (inner context wins for
// important declarations), so hostile page CSS cannot restyle these buttons. The buttons also keep
// out of the open assistant's boxes (`surfaces`), and their z-index is below the assistant's
// `--da-z` as any build ships it: lightningcss (Vite 8's CSS minifier) prints a custom property's
// number with 6 significant digits, so 2147483000 arrives as 2147480000, and this must be lower
// than both. Hidden means hidden to the pointer too (visibility), so an invisible button can never
// steal a click.
const BUTTON_CSS = `:host{all:initial !important}
.da-action{position:fixed;top:0;left:0;z-index:${BUTTON_Z};visibility:hidden;opacity:0;transition:opacity .12s}
.da-action[data-state=shown]{visibility:visible;opacity:1}
button{all:unset;box-sizing:border-box;display:inline-flex;align-items:center;gap:4px;padding:4px 9px;border-radius:7px;
font:600 12px/1.3 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#fff;background:#2563eb;cursor:pointer;
white-space:nowrap;box-shadow:0 1px 4px rgba(15,23,42,.3)}
button:focus-visible{outline:2px solid #93c5fd;outline-offset:2px}`;

interface Action {
  host: HTMLElement;
  wrap: HTMLElement;
  button: HTMLButtonElement;
}

/**
 * One floating button in its own shadow host, appended to <body>: never inside the page's code
 * blocks or any element a framework renders or hydrates (Docusaurus hydrates its pages and logs
 * React error #418 for nodes added inside its tree), so the page's DOM stays exactly as its
 * framework left it.
 */
function createAction(
  doc: Document,
  label: string,
  name: string,
  nonce: string | undefined,
): Action {
  const host = doc.createElement(HOST_TAG);
  const root = host.attachShadow({ mode: 'open' });
  addShadowStyles(root, BUTTON_CSS, nonce);
  const wrap = doc.createElement('div');
  wrap.className = 'da-action';
  wrap.dataset.state = 'hidden';
  const button = doc.createElement('button');
  button.type = 'button';
  button.textContent = label;
  button.setAttribute('aria-label', name);
  wrap.append(button);
  root.append(wrap);
  doc.body.append(host);
  return { host, wrap, button };
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The part of `el` the reader can see: its box cut by scrolling ancestors and the viewport. */
function visibleBox(el: Element): Box {
  const r = el.getBoundingClientRect();
  const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  for (let p = el.parentElement; p && p !== el.ownerDocument.body; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const c = p.getBoundingClientRect();
    box.left = Math.max(box.left, c.left);
    box.top = Math.max(box.top, c.top);
    box.right = Math.min(box.right, c.right);
    box.bottom = Math.min(box.bottom, c.bottom);
  }
  box.left = Math.max(box.left, 0);
  box.top = Math.max(box.top, 0);
  box.right = Math.min(box.right, innerWidth);
  box.bottom = Math.min(box.bottom, innerHeight);
  return box;
}

/**
 * The framework's own controls by a code block (VitePress `button.copy`, Docusaurus' copy/wrap
 * group, Expressive Code's copy button) live in the block's frame: the largest ancestor that is
 * still about the block's size. They count even while transparent: they appear on hover.
 */
function controlsBy(block: Element): Box[] {
  const own = block.getBoundingClientRect();
  let frame = block;
  for (
    let p = block.parentElement, depth = 0;
    p && p !== block.ownerDocument.body && depth < 4;
    p = p.parentElement, depth++
  ) {
    const r = p.getBoundingClientRect();
    if (r.height > own.height + 120 || r.width > own.width + 120) break;
    frame = p;
  }
  return [...frame.querySelectorAll('button, [role=button], a[href], input, select')]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;

/**
 * Where the code block's button goes: its visible top-right corner, moved left of any framework
 * control or open assistant surface there (`avoid`); the bottom-right corner, likewise, when the
 * top row is full; the middle of the right edge for a block too short for two rows. Undefined
 * when too little of the block is on screen or no spot is free.
 */
export function codeButtonPosition(
  block: Element,
  width: number,
  height: number,
  avoid: readonly Box[] = [],
): { x: number; y: number } | undefined {
  const box = visibleBox(block);
  const room = box.bottom - box.top;
  if (box.right - box.left < width + 2 * INSET || room < height / 2) return undefined;
  const obstacles = [...controlsBy(block), ...avoid];
  const hitAt = (x: number, y: number) => {
    const ours = { left: x, top: y, right: x + width, bottom: y + height };
    return obstacles.find((c) => overlaps(ours, c));
  };
  // A one-line block (`npm i …`, the commonest code on a docs page) is often no taller than the
  // button and its insets: one row, centred on the line.
  const rows =
    room < height + 2 * INSET
      ? [box.top + (room - height) / 2]
      : [box.top + INSET, box.bottom - INSET - height];
  for (const y of rows) {
    let x = box.right - INSET - width;
    for (let hit = hitAt(x, y); hit && x >= box.left + INSET; hit = hitAt(x, y))
      x = hit.left - INSET / 2 - width;
    if (x >= box.left + INSET) return { x, y };
  }
  return undefined;
}

/** Lines of Docusaurus (`.token-line`, each ending in `<br>`), Expressive Code (`.ec-line`), Shiki (`.line`). */
const LINE_SELECTOR = '.token-line, .ec-line, .line, div';

/** Text as the reader sees it: hidden and aria-hidden elements (line numbers) left out, `<br>` as a break. */
function visibleText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node as Text).data;
  if (!(node instanceof Element)) return '';
  if (node.localName === 'br') return '\n';
  if (node.hasAttribute('hidden') || node.getAttribute('aria-hidden') === 'true') return '';
  if (node.ownerDocument.defaultView?.getComputedStyle(node).display === 'none') return '';
  let text = '';
  node.childNodes.forEach((child) => (text += visibleText(child)));
  return text;
}

/**
 * The code of a block exactly as the reader sees it, line for line. Frameworks that render one
 * element per line (Docusaurus, Starlight) get their lines joined by single newlines: `innerText`
 * would double Docusaurus' breaks (block line + `<br>`), and `textContent` would run Starlight's
 * lines together.
 */
export function codeBlockText(block: Element): string {
  const code = block.querySelector('code') ?? block;
  const lines = [...code.children];
  const perLine =
    lines.length > 0 &&
    lines.every((line) => line.matches(LINE_SELECTOR)) &&
    [...code.childNodes].every((n) => n.nodeType !== Node.TEXT_NODE || !(n as Text).data.trim());
  if (perLine)
    return lines
      .map((line) => visibleText(line).replace(/\n+$/, ''))
      .join('\n')
      .replace(/\n+$/, '');
  return visibleText(code).replace(/\n$/, '');
}

/**
 * Adds "Ask AI" to the page: a floating button by any text selection (3+ characters, outside the
 * assistant) and a button over the code block under the pointer. Nothing is scanned or created up
 * front: one delegated listener finds the block when the pointer enters it, and each button's host
 * is made on first use. Returns a function that removes every button and listener it added.
 */
export function attachPageContext(options: PageContextOptions): () => void {
  const doc = document;
  const {
    buttonText: label = options.label ?? 'Ask AI',
    codeBlockLabel = `${label}: code block`,
    selectionLabel = `${label}: selected text`,
  } = options.translations ?? {};
  const selector = options.codeBlockSelector ?? 'pre';
  const pathOf = options.path ?? (() => location.pathname);
  const surfaces = options.surfaces ?? (() => doc.querySelectorAll(OPEN_SURFACES));
  const surfaceBoxes = (): Box[] => [...surfaces()].map((el) => el.getBoundingClientRect());
  const cleanups: (() => void)[] = [];
  const listen = <K extends keyof DocumentEventMap>(
    type: K,
    handler: (event: DocumentEventMap[K]) => void,
    opts?: AddEventListenerOptions,
  ) => {
    doc.addEventListener(type, handler, opts);
    cleanups.push(() => doc.removeEventListener(type, handler, opts));
  };
  const isOwn = (node: Node | null): boolean => {
    for (
      let n: Node | null = node;
      n;
      n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)
    ) {
      if (n instanceof Element && n.localName === HOST_TAG) return true;
      if (options.isOwn?.(n)) return true;
    }
    return false;
  };
  const lazy = (
    name: string,
    onClick: () => void,
    onKey: (event: KeyboardEvent) => void = () => {},
  ) => {
    let action: Action | undefined;
    return () => {
      if (!action) {
        action = createAction(doc, label, name, options.nonce);
        action.button.addEventListener('click', onClick);
        // Keeps the page's selection: a collapsing selection would hide the button mid-click.
        action.button.addEventListener('mousedown', (event) => event.preventDefault());
        action.button.addEventListener('keydown', (event) => onKey(event));
        const { host } = action;
        cleanups.push(() => host.remove());
      }
      return action;
    };
  };
  const show = (action: Action, at: { x: number; y: number }) => {
    action.wrap.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px)`;
    action.wrap.dataset.state = 'shown';
  };
  const hide = (action: Action | undefined) => {
    if (action) action.wrap.dataset.state = 'hidden';
  };

  // Code blocks
  let block: Element | undefined;
  let codeAction: Action | undefined;
  const codeButton = lazy(
    codeBlockLabel,
    () => {
      if (!block) return;
      const all = [...doc.querySelectorAll(selector)];
      // The block's own id when it has one; else its position among the page's blocks (we never
      // write an id into the page: that would be a node the framework did not render).
      const elementId = block.id || `${CODE_ID_PREFIX}${all.indexOf(block) + 1}`;
      options.onAttach({ type: 'code', value: codeBlockText(block), path: pathOf(), elementId });
      hideCode();
    },
    (event) => onButtonKey(event),
  );
  const placeCode = () => {
    if (!block || !codeAction) return;
    if (!block.isConnected) return hideCode();
    const { offsetWidth, offsetHeight } = codeAction.button;
    const at = codeButtonPosition(block, offsetWidth, offsetHeight, surfaceBoxes());
    if (at) show(codeAction, at);
    else hide(codeAction);
  };
  // The assistant opens and closes with short animations, and a push panel slides the page aside:
  // once they have started (next frame) and ended, the button is placed again where things came to
  // rest. Only short ones are waited for: the page may have endless ones of its own.
  let settling = 0;
  const settleCode = () => {
    placeCode();
    settling = requestAnimationFrame(() => {
      // jsdom (a React site's component tests) has no Web Animations API.
      const moving = [doc, ...surfaces()]
        .flatMap((node) => node.getAnimations?.() ?? [])
        .filter((a) => Number(a.effect?.getComputedTiming().endTime) <= MOTION_WAIT_MS)
        .map((a) => a.finished);
      void Promise.allSettled(moving).then(placeCode);
    });
  };
  cleanups.push(() => cancelAnimationFrame(settling));
  const hideCode = () => {
    block = undefined;
    hide(codeAction);
  };
  const onPointerOver = (event: PointerEvent) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (codeAction && target === codeAction.host) return; // onto our own button
    const over = target.closest(selector);
    if (!over || isOwn(over)) return hideCode();
    if (over === block) return;
    block = over;
    codeAction = codeButton();
    placeCode();
  };
  listen('pointerover', onPointerOver, { passive: true });
  listen('pointerout', (event) => !event.relatedTarget && hideCode(), { passive: true });

  // Keyboard: our button lives at the end of <body>, so Tab order would never reach it. A focused
  // code block (frameworks make scrollable blocks focusable) shows it, Tab moves into it, and Tab
  // or Shift+Tab from it continues from the block, as if it sat inside the block.
  let focusedInBlock: HTMLElement | undefined;
  const onFocus = (target: EventTarget | null) => {
    if (!(target instanceof HTMLElement)) return;
    // Focus moving into the assistant means it opened (it focuses its input) or closed (focus
    // returns to its launcher): the code button moves out of, or back into, the space it takes.
    // (A selection's button goes by itself: the selection moves into the assistant's input.)
    if (isOwn(target)) return settleCode();
    const over = target.closest(selector);
    if (!over) return hideCode();
    focusedInBlock = target;
    if (over === block) return;
    block = over;
    codeAction = codeButton();
    placeCode();
  };
  listen('focusin', (event) => onFocus(event.target));
  // A block focused before this script ran (it starts when the browser is idle) gets its button too.
  onFocus(doc.activeElement);
  listen(
    'keydown',
    (event) => {
      if (event.key !== 'Tab' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey)
        return;
      const active = doc.activeElement;
      if (
        !block ||
        !codeAction ||
        codeAction.wrap.dataset.state !== 'shown' ||
        !(active instanceof HTMLElement) ||
        !block.contains(active)
      )
        return;
      event.preventDefault();
      codeAction.button.focus();
    },
    { capture: true },
  );
  const onButtonKey = (event: KeyboardEvent) => {
    if (!block || (event.key !== 'Tab' && event.key !== 'Escape')) return;
    const from =
      focusedInBlock?.isConnected && block.contains(focusedInBlock)
        ? focusedInBlock
        : (block as HTMLElement);
    // Back to the block; a forward Tab keeps its default action, which now starts from the block,
    // so the browser itself finds what follows (shadow roots and tabindex order included).
    if (event.key === 'Escape' || event.shiftKey) event.preventDefault();
    from.focus({ preventScroll: true });
  };

  // Text selection
  let selected = '';
  const selectionButton = lazy(selectionLabel, () => {
    if (!selected) return;
    options.onAttach({ type: 'textSelection', value: selected, path: pathOf() });
    hideSelection();
    doc.getSelection()?.removeAllRanges();
  });
  let selectionAction: Action | undefined;
  const hideSelection = () => {
    selected = '';
    hide(selectionAction);
  };
  const placeSelection = () => {
    const selection = doc.getSelection();
    const text = selection?.toString().trim() ?? '';
    const range = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : undefined;
    if (text.length < MIN_SELECTION_CHARS || !range || isOwn(range.commonAncestorContainer))
      return hideSelection();
    selected = text;
    selectionAction = selectionButton();
    const rects = range.getClientRects();
    const last = rects[rects.length - 1] ?? range.getBoundingClientRect();
    const { offsetWidth, offsetHeight } = selectionAction.button;
    const x = Math.min(
      Math.max(INSET, last.right - offsetWidth / 2),
      innerWidth - offsetWidth - INSET,
    );
    const y =
      last.bottom + INSET + offsetHeight > innerHeight - INSET
        ? last.top - INSET - offsetHeight
        : last.bottom + INSET;
    // Never over the open assistant (a selection running under its edge): left of it, or hidden.
    const ours = { left: x, top: y, right: x + offsetWidth, bottom: y + offsetHeight };
    const under = surfaceBoxes().find((box) => overlaps(ours, box));
    const left = under ? under.left - INSET - offsetWidth : x;
    if (left < INSET) return hide(selectionAction);
    show(selectionAction, { x: left, y });
  };
  // Place after the pointer or keys finish selecting, not on every selectionchange mid-drag.
  listen('mouseup', () => setTimeout(placeSelection, 0));
  listen('keyup', (event) => {
    if (event.shiftKey || event.key.startsWith('Arrow')) placeSelection();
  });
  listen('selectionchange', () => {
    if (selected && (doc.getSelection()?.toString().trim().length ?? 0) < MIN_SELECTION_CHARS)
      hideSelection();
  });

  // The code button follows its block (page or block scrolled); one update per frame.
  let frame = 0;
  const follow = () => {
    hideSelection();
    if (!block || frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      placeCode();
    });
  };
  listen('scroll', follow, { passive: true, capture: true });
  addEventListener('resize', follow, { passive: true });
  cleanups.push(() => {
    removeEventListener('resize', follow);
    cancelAnimationFrame(frame);
  });

  return () =>
    cleanups
      .splice(0)
      .reverse()
      .forEach((cleanup) => cleanup());
}
