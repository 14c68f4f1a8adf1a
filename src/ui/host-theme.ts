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

const darkQueries = new WeakMap<Window, MediaQueryList>();

/** One MediaQueryList per window: every matchMedia call parses its query anew. */
function prefersDark(view: Window | null): MediaQueryList | undefined {
  if (!view?.matchMedia) return undefined;
  let query = darkQueries.get(view);
  if (!query) darkQueries.set(view, (query = view.matchMedia('(prefers-color-scheme: dark)')));
  return query;
}

/**
 * The host page's theme, from the markers docs frameworks use: the owner's own selector first
 * (it matches → dark, else light); then `class="dark"` (VitePress), `data-theme` (Docusaurus,
 * Starlight), `data-color-scheme`, `data-mode` or `data-bs-theme` on <html> or <body>; then the root's
 * `color-scheme` when it names only one; then how light the page's own background is (body or
 * root, when opaque); and the reader's OS preference last, for a page that paints no background.
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
  const dark = scheme.includes('dark');
  if (dark !== scheme.includes('light')) return dark ? 'dark' : 'light';
  // A site that marks only dark (VitePress: `class="dark"`) shows light by its absence, whatever
  // the OS prefers: the page's own opaque background says which it is.
  for (const el of [doc.body, doc.documentElement]) {
    const color = el && view?.getComputedStyle(el).backgroundColor;
    const [r, g, b, a] = (/^rgb/.test(color!) ? color!.match(/[\d.]+/g)! : []).map(Number);
    if (b !== undefined && a !== 0) return r! + g! + b < 383 ? 'dark' : 'light';
  }
  return prefersDark(view)?.matches ? 'dark' : 'light';
}

/**
 * Calls `onChange` whenever the host's theme changes: a site toggle rewriting <html>/<body>
 * attributes, or the OS preference. The page is not read up front (the caller has just read it),
 * so the first call may repeat the theme already shown. Returns what stops watching.
 */
export function watchHostTheme(
  doc: Document,
  onChange: (theme: HostTheme) => void,
  darkSelector?: string,
): () => void {
  let current: HostTheme | undefined;
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
  const media = prefersDark(doc.defaultView);
  media?.addEventListener('change', check);
  return () => {
    observer.disconnect();
    media?.removeEventListener('change', check);
  };
}
