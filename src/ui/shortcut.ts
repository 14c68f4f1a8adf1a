export interface Shortcut {
  key: string;
  mod: boolean;
  ctrl: boolean;
  meta: boolean;
  alt: boolean;
  shift: boolean;
}

/** `mod+i`, `ctrl+shift+k`…; `mod` is ⌘ on Apple platforms and Ctrl elsewhere. */
export function parseShortcut(spec: string): Shortcut | undefined {
  const parts = spec
    .toLowerCase()
    .split('+')
    .map((p) => p.trim())
    .filter(Boolean);
  const key = parts.pop();
  if (!key) return undefined;
  const has = (name: string) => parts.includes(name);
  return {
    key,
    mod: has('mod'),
    ctrl: has('ctrl'),
    meta: has('meta') || has('cmd'),
    alt: has('alt') || has('option'),
    shift: has('shift'),
  };
}

export const isApple = (): boolean =>
  typeof navigator !== 'undefined' &&
  /Mac|iPhone|iPad|iPod/i.test(navigator.platform || navigator.userAgent);

/**
 * The shortcut as the launcher shows it (`⌘I` on Apple, `Ctrl+I` elsewhere) and as
 * `aria-keyshortcuts` spells it (`Meta+I`, `Control+I`); undefined when it is off or unreadable.
 */
export function describeShortcut(
  spec: string,
  apple = isApple(),
): { label: string; aria: string } | undefined {
  const s = parseShortcut(spec);
  if (!s) return undefined;
  // aria-keyshortcuts names, in its order; Apple shows them as ⌃⌥⇧⌘, other platforms as words.
  const mods = [
    (s.ctrl || (s.mod && !apple)) && 'Control',
    s.alt && 'Alt',
    s.shift && 'Shift',
    (s.meta || (s.mod && apple)) && 'Meta',
  ].filter((m) => m) as string[];
  const aria = [...mods, s.key.toUpperCase()].join('+');
  return {
    label: apple
      ? aria
          .replace('Control+', '⌃')
          .replace('Alt+', '⌥')
          .replace('Shift+', '⇧')
          .replace('Meta+', '⌘')
      : aria.replace('Control', 'Ctrl'),
    aria,
  };
}

export function matchesShortcut(
  event: KeyboardEvent,
  shortcut: Shortcut,
  apple = isApple(),
): boolean {
  const ctrl = shortcut.ctrl || (shortcut.mod && !apple);
  const meta = shortcut.meta || (shortcut.mod && apple);
  return (
    event.key.toLowerCase() === shortcut.key &&
    event.ctrlKey === ctrl &&
    event.metaKey === meta &&
    event.altKey === shortcut.alt &&
    event.shiftKey === shortcut.shift
  );
}

/**
 * Modal UI of the host page: native modal dialogs (Starlight's search), `aria-modal` dialogs, and
 * the site searches that are neither (VitePress local search, DocSearch). Ours are excluded.
 */
const HOST_MODALS = 'dialog[open], [aria-modal="true"], .VPLocalSearchBox, .DocSearch-Container';

/** True while the host page shows a modal of its own: the shortcut then leaves the page alone. */
export function hostModalOpen(doc: Document): boolean {
  for (const el of doc.querySelectorAll(HOST_MODALS)) {
    if (el.closest('.da-root')) continue;
    // A <dialog open> shown without showModal() is not modal (a banner, a popover).
    if (el.localName === 'dialog' && !safeMatches(el, ':modal')) continue;
    if (el.getClientRects().length > 0) return true;
  }
  return false;
}

function safeMatches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return true; // a browser without :modal: an open <dialog> is treated as modal
  }
}

/**
 * The open/close shortcut on the document: ignored while the host shows a modal (its search
 * dialog, say), so the assistant never opens behind it or steals its focus.
 */
export function listenForShortcut(doc: Document, spec: string, onShortcut: () => void): () => void {
  const shortcut = parseShortcut(spec);
  if (!shortcut) return () => {};
  const onKey = (event: KeyboardEvent) => {
    if (!matchesShortcut(event, shortcut) || hostModalOpen(doc)) return;
    event.preventDefault();
    onShortcut();
  };
  doc.addEventListener('keydown', onKey);
  return () => doc.removeEventListener('keydown', onKey);
}
