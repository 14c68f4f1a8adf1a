import { MAX_CURRENT_PATH } from '../protocol/limits.js';

/**
 * SPEC §8 caps `currentPath` at 200 characters; a longer path is cut at a segment boundary (and
 * never inside a %-escape) rather than rejected, so the question still goes through.
 */
export function clampCurrentPath(path: string): string {
  if (path.length <= MAX_CURRENT_PATH) return path;
  let cut = path.slice(0, MAX_CURRENT_PATH);
  const slash = cut.lastIndexOf('/');
  if (slash > MAX_CURRENT_PATH / 2) cut = cut.slice(0, slash);
  return cut.replace(/%[0-9a-f]?$/i, '');
}

/** The page the reader is on, read when the question is asked (SSR-safe). */
export function browserPath(): string | undefined {
  return typeof location === 'undefined' ? undefined : location.pathname;
}
