/**
 * The one owner of the page-path rules: what a page of the docs is called (`/guides/react`, `/`)
 * and how whatever a client calls a page (`/docs/guides/react.html`, `guides/react/`, `/x?y#z`)
 * becomes that name. Docs loading, page URLs and the assistant's `currentPath` all use these, so
 * a reader's URL and a page file meet on the same string.
 *
 * A `PagePath` is only ever made here: a value of the type has been through the rules once, and
 * nothing downstream normalises it again.
 */

declare const pagePathBrand: unique symbol;
/** A site path without extension or trailing slash: `guides/react.md` → `/guides/react`, `index.md` → `/`. */
export type PagePath = string & { readonly [pagePathBrand]: true };

/** The files that are pages of the docs. */
export const PAGE_EXTENSIONS = /\.(md|mdx)$/i;

/** The page path of a docs file (`guides/react.md` → `/guides/react`, `index.md` → `/`). */
export function pagePathOf(file: string): PagePath {
  // A built page (`--site`, html.ts) is named the same way as its source would be.
  const parts = file.replace(/\.(md|mdx|html?)$/i, '').split(/[\\/]/);
  if (parts.at(-1) === 'index') parts.pop();
  return ('/' + parts.join('/')) as PagePath;
}

/**
 * The page path a client's URL path names (`/docs/x.html`, `x/`, `/x?y#z` → `/x`). The first of
 * `basePaths` (the prefixes a server serves the docs under, `/docs` and `/react`) that starts the
 * path is dropped; without them the path is taken as a site path already.
 */
export function parsePagePath(input: string, basePaths: readonly string[] = []): PagePath {
  let path = input.split(/[?#]/)[0] ?? '';
  // `index` as pagePathOf drops it: a page file named `Index.md` keeps its name both ways.
  path = path.replace(/\.html$/i, '').replace(/\/index$/, '');
  if (!path.startsWith('/')) path = '/' + path;
  const base = basePaths.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  if (base) path = path.slice(base.length);
  path = path.replace(/\/+$/, '');
  return (path === '' ? '/' : path) as PagePath;
}

/**
 * What two URL paths compare by when a site's generator routes pages (`/Guides/Setup/` and
 * `/guides/setup.html` name one page): the page-path rules, after %-decoding, without case.
 */
export const pathKey = (urlPath: string) => parsePagePath(safeDecode(urlPath)).toLowerCase();

/** `decodeURI`, or the path as it is when it holds a malformed escape (`%zz`). */
export const safeDecode = (path: string) => {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
};
