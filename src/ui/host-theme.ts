/** The light or dark look the host page shows right now. */
export type HostTheme = 'light' | 'dark';

/** Attributes docs frameworks set on <html> or <body> to say which theme is showing. */
const THEME_ATTRIBUTES = ['data-theme', 'data-color-scheme', 'data-mode', 'data-bs-theme'];

function word(value: string | null | undefined): HostTheme | undefined {
  if (!value) return undefined;
  // Whole words only: `github-dark` and `theme-light` count, `darken` does not.
  if (/(^|[\s_-])dark($|[\s_-])/i.test(value)) return 'dark';
  if (/(^|[\s_-])light($|[\s_-])/i.test(value)) return 'light';
  return undefined;
}

/**
 * The host page's theme, from the markers docs frameworks use: the owner's own selector first
 * (it matches → dark, else light); then `class="dark"` (VitePress), `data-theme` (Docusaurus,
 * Starlight), `data-color-scheme`, `data-mode` or `data-bs-theme` on <html> or <body>; then the root's
 * `color-scheme` when it names only one; and the reader's OS preference last.
 */
export function hostTheme(doc: Document, darkSelector?: string): HostTheme {
  if (darkSelector) {
    try {
      return doc.querySelector(darkSelector) ? 'dark' : 'light';
    } catch {
      // Not a valid selector (config validation says so once); fall back to the usual markers.
    }
  }
  for (const el of [doc.documentElement, doc.body]) {
    if (!el) continue;
    const marked =
      word(el.getAttribute('class')) ??
      THEME_ATTRIBUTES.map((name) => word(el.getAttribute(name))).find(Boolean);
    if (marked) return marked;
  }
  const view = doc.defaultView;
  const scheme = view?.getComputedStyle(doc.documentElement).colorScheme ?? '';
  if (/dark/.test(scheme) !== /light/.test(scheme)) return /dark/.test(scheme) ? 'dark' : 'light';
  return view?.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Calls `onChange` whenever the host's theme changes: a site toggle rewriting <html>/<body>
 * attributes, or the OS preference. Returns what stops watching.
 */
export function watchHostTheme(
  doc: Document,
  onChange: (theme: HostTheme) => void,
  darkSelector?: string,
): () => void {
  let current = hostTheme(doc, darkSelector);
  const check = () => {
    const next = hostTheme(doc, darkSelector);
    if (next !== current) onChange((current = next));
  };
  const observer = new MutationObserver(check);
  // The owner's selector may name anything; the usual markers live on <html> and <body>.
  if (darkSelector)
    observer.observe(doc.documentElement, { attributes: true, subtree: true, childList: true });
  else
    [doc.documentElement, doc.body].forEach(
      (el) =>
        el &&
        observer.observe(el, {
          attributes: true,
          attributeFilter: ['class', 'style', ...THEME_ATTRIBUTES],
        }),
    );
  const media = doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)');
  media?.addEventListener('change', check);
  return () => {
    observer.disconnect();
    media?.removeEventListener('change', check);
  };
}
