/**
 * The one gate every URL from an answer passes: only http(s) URLs and relative paths (resolved
 * against the docs site) come out. `javascript:`, `data:`, `vbscript:` and anything else give
 * undefined, whatever spelling tricks they use, because the browser's own parser decides.
 */
export function safeUrl(raw: string | null | undefined, docsBaseUrl?: string): string | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  if (!value) return undefined;
  const base =
    docsBaseUrl || (typeof location !== 'undefined' ? location.href : 'http://localhost/');
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Short label for a URL without a title: host and path. */
export function urlLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return (parsed.host + parsed.pathname).replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** Links to another origin than the page's open in a new tab, so the conversation stays. */
export function isExternal(url: string): boolean {
  if (typeof location === 'undefined') return true;
  try {
    return new URL(url).origin !== location.origin;
  } catch {
    return true;
  }
}

/**
 * Where a link from an answer opens. In a new tab by default, so the conversation stays on screen;
 * otherwise only other origins do. `noopener noreferrer` on every new tab.
 */
export function linkTargetProps(url: string, newTab: boolean): { target?: '_blank'; rel?: string } {
  return newTab || isExternal(url) ? { target: '_blank', rel: 'noopener noreferrer' } : {};
}
