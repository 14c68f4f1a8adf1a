import type { Element, Root } from 'hast';
import rehypeHighlight from 'rehype-highlight';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import type { DocPage, DocsSite } from './docs.js';

/** How a rendered page links: to other pages by site path, and to files (images) by site path. */
export interface LinkStrategy {
  /** Site path of a page (`/guides/x`, `/`) → href on the page being rendered. */
  page(path: string): string;
  /** Site path of a file (`/images/a.png`) → src on the page being rendered. */
  file(path: string): string;
}

export interface RenderOptions {
  links: LinkStrategy;
  /** Link to this stylesheet instead of inlining the styles (the static export shares one file). */
  stylesheet?: string;
  /** Extra markup for `<head>`. */
  head?: string;
  /** Extra markup at the end of `<body>`. */
  bodyEnd?: string;
  /** Extra markup in the site header (the export's search box). */
  headerExtra?: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Links under a prefix, as the reference server serves the docs (`/docs/guides/x`). */
export function prefixedLinks(basePath: string): LinkStrategy {
  return { page: (path) => basePath + (path === '/' ? '' : path), file: (path) => basePath + path };
}

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/|#)/i;

/**
 * Site-absolute and relative links and images in the Markdown (`/guides/x#y`, `../api/errors`,
 * `/images/a.png`) go through the page's link strategy; external links, anchors and schemes stay.
 */
/**
 * URLs that run script or smuggle a document when followed. Browsers ignore ASCII whitespace and
 * control characters inside a scheme (`java\tscript:`), so those go before the test. An image may
 * be a `data:image/…` URL, which cannot run script.
 */
export function isScriptUrl(url: string, image = false): boolean {
  const scheme = url.replace(/[\u0000-\u0020\u007f]+/g, '').toLowerCase();
  if (/^(javascript|vbscript):/.test(scheme)) return true;
  return (
    scheme.startsWith('data:') && !(image && /^data:image\/(png|gif|jpe?g|webp|avif);/.test(scheme))
  );
}

interface RenderData {
  page: DocPage;
  site: DocsSite;
  links: LinkStrategy;
}

function rehypeLinks() {
  return (tree: Root, file: { data: unknown }) => {
    const { page, site, links } = file.data as RenderData;
    // Relative links resolve against the folder of the page's source file, as on any static host.
    const folder = `http://site/${page.file
      .split('/')
      .slice(0, -1)
      .map((part) => `${part}/`)
      .join('')}`;
    const resolve = (raw: string): string | undefined => {
      if (EXTERNAL.test(raw)) return undefined;
      const [pathPart = '', hash] = raw.split('#', 2);
      const absolute = decodeURI(new URL(pathPart, folder).pathname);
      const pagePath = absolute
        .replace(/\.(md|mdx|html)$/i, '')
        .replace(/\/index$/, '')
        .replace(/(.)\/+$/, '$1');
      const suffix = hash ? `#${hash}` : '';
      return site.byPath.has(pagePath)
        ? links.page(pagePath) + suffix
        : links.file(absolute) + suffix;
    };
    visit(tree, 'element', (node: Element) => {
      const attribute = node.tagName === 'a' ? 'href' : node.tagName === 'img' ? 'src' : undefined;
      const value = attribute ? node.properties?.[attribute] : undefined;
      if (attribute && typeof value === 'string' && isScriptUrl(value, node.tagName === 'img')) {
        // The link's text stays; what it would run does not.
        delete node.properties[attribute];
        return;
      }
      const target = typeof value === 'string' ? resolve(value) : undefined;
      if (attribute && target !== undefined) node.properties[attribute] = target;
    });
  };
}

/**
 * Markdown → HTML with the unified/remark stack (remark-parse, remark-gfm,
 * remark-rehype). Raw HTML in the source is dropped, never passed through; code is highlighted here,
 * at build time, so pages need no script for it. Built once, so highlight.js registers its grammars
 * once rather than per page (which made a 1,000-page export spend most of its time there).
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSlug)
  .use(rehypeHighlight, { detect: false })
  .use(rehypeLinks)
  .use(rehypeStringify)
  .freeze();

export function renderMarkdown(page: DocPage, site: DocsSite, links: LinkStrategy): string {
  const data: RenderData = { page, site, links };
  return String(
    processor.processSync({
      value: page.markdown,
      data: data as unknown as Record<string, unknown>,
    }),
  );
}

export const DOCS_CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1c1c1e;background:#fff}
a{color:#0b63ce}header.site{display:flex;align-items:center;gap:1rem;padding:.75rem 1.5rem;border-bottom:1px solid #e5e5ea}
header.site>a{font-weight:600;text-decoration:none;color:inherit}.layout{display:flex;max-width:72rem;margin:0 auto}
nav.sidebar{flex:0 0 15rem;padding:1.5rem 1rem;border-right:1px solid #e5e5ea;font-size:.9rem}
nav.sidebar ul{list-style:none;margin:0;padding:0}nav.sidebar li a{display:block;padding:.2rem .5rem;border-radius:6px;text-decoration:none;color:#3a3a3c}
nav.sidebar li a[aria-current=page]{background:#eef4ff;color:#0b63ce;font-weight:600}nav.sidebar h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:#6e6e73;margin:1rem .5rem .25rem}
main{flex:1;min-width:0;padding:1.5rem 2.5rem 4rem}pre{background:#f5f5f7;padding:1rem;border-radius:8px;overflow:auto;font-size:.875rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}table{border-collapse:collapse;display:block;overflow:auto}th,td{border:1px solid #e5e5ea;padding:.35rem .6rem;text-align:left}
img{max-width:100%}.meta{color:#6e6e73;font-size:.85rem}@media (max-width:720px){nav.sidebar{display:none}main{padding:1rem}}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in{color:#a626a4}.hljs-string,.hljs-attr-value,.hljs-regexp{color:#50a14f}
.hljs-number,.hljs-literal{color:#986801}.hljs-comment{color:#8e8e93;font-style:italic}.hljs-title,.hljs-title.function_{color:#4078f2}
.hljs-attr,.hljs-attribute,.hljs-property{color:#c18401}.hljs-tag,.hljs-name{color:#e45649}.hljs-variable,.hljs-params{color:#383a42}
`;

const GROUP_ORDER = ['Overview', 'Guides', 'Static export', 'API'];

function groupOf(page: DocPage): string {
  if (page.path === '/' || !page.path.includes('/', 1)) return 'Overview';
  const folder = page.path.split('/')[1] ?? '';
  if (folder === 'api') return 'API';
  if (/^v\d+$/.test(folder)) return `Version ${folder.slice(1)}`;
  if (/^[a-z]{2}$/.test(folder)) return `Language: ${folder}`;
  const words = folder.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const groupRank = (group: string) => {
  const index = GROUP_ORDER.indexOf(group);
  return index < 0 ? GROUP_ORDER.length : index;
};

const groupsBySite = new WeakMap<DocsSite, [string, DocPage[]][]>();

/** The sidebar's groups depend on the site only: computed once, not once per rendered page. */
function sidebarGroups(site: DocsSite): [string, DocPage[]][] {
  let groups = groupsBySite.get(site);
  if (!groups) {
    const byName = new Map<string, DocPage[]>();
    for (const page of site.pages) {
      const name = groupOf(page);
      const list = byName.get(name);
      if (list) list.push(page);
      else byName.set(name, [page]);
    }
    groups = [...byName].sort(([a], [b]) => groupRank(a) - groupRank(b));
    groupsBySite.set(site, groups);
  }
  return groups;
}

/** Sites up to this size list every page in every sidebar. */
const FULL_SIDEBAR_MAX_PAGES = 200;
/** Beyond it, a sidebar lists this many pages around the current one, and the other groups by their first page. */
const SIDEBAR_WINDOW = 40;
/** …and at most this many groups (those nearest the current one). */
const SIDEBAR_MAX_GROUPS = 60;

/**
 * Every page listing every page made a big export quadratic (4,000 pages wrote ~830 MB), so a big
 * site's sidebar is bounded: the current page's neighbourhood (with links onward, so every page
 * stays reachable) and one link per other group. Space is then linear in the number of pages.
 */
function navigation(site: DocsSite, current: DocPage, links: LinkStrategy): string {
  const item = (
    page: DocPage,
    label = page.title +
      (page.version ? ` (${page.version})` : '') +
      (page.language !== current.language ? ` · ${page.language}` : ''),
  ) =>
    `<li><a href="${escapeHtml(links.page(page.path))}"${page === current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`;
  const groups = sidebarGroups(site);
  if (site.pages.length <= FULL_SIDEBAR_MAX_PAGES) {
    return groups
      .map(
        ([group, pages]) =>
          `<h2>${escapeHtml(group)}</h2><ul>${pages.map((page) => item(page)).join('')}</ul>`,
      )
      .join('');
  }
  const window = <T>(list: T[], at: number, size: number) => {
    const start = Math.max(0, Math.min(at - Math.floor(size / 2), list.length - size));
    return { start, end: Math.min(list.length, start + size) };
  };
  const currentGroup = Math.max(
    0,
    groups.findIndex(([, pages]) => pages.includes(current)),
  );
  const shown = window(groups, currentGroup, SIDEBAR_MAX_GROUPS);
  const firstOf = (index: number) => groups[index]![1][0]!;
  const html = groups.slice(shown.start, shown.end).map(([group, pages], offset) => {
    if (shown.start + offset !== currentGroup) {
      return `<h2>${escapeHtml(group)}</h2><ul>${item(pages[0]!, `${pages[0]!.title}${pages.length > 1 ? ` (+${pages.length - 1} pages)` : ''}`)}</ul>`;
    }
    const { start, end } = window(pages, pages.indexOf(current), SIDEBAR_WINDOW);
    const before = start > 0 ? item(pages[start - 1]!, `… ${start} earlier pages`) : '';
    const after = end < pages.length ? item(pages[end]!, `… ${pages.length - end} more pages`) : '';
    return `<h2>${escapeHtml(group)}</h2><ul>${before}${pages
      .slice(start, end)
      .map((page) => item(page))
      .join('')}${after}</ul>`;
  });
  const earlier =
    shown.start > 0
      ? `<ul>${item(firstOf(shown.start - 1), `… ${shown.start} earlier sections`)}</ul>`
      : '';
  const later =
    shown.end < groups.length
      ? `<ul>${item(firstOf(shown.end), `… ${groups.length - shown.end} more sections`)}</ul>`
      : '';
  return earlier + html.join('') + later;
}

/** A whole HTML page for one doc: sidebar, content, and whatever the caller adds. */
export function renderDocsPage(site: DocsSite, page: DocPage, options: RenderOptions): string {
  const meta = [
    page.version && `Version ${page.version}`,
    page.language !== 'en' && `Language: ${page.language}`,
  ]
    .filter(Boolean)
    .join(' · ');
  const styles = options.stylesheet
    ? `<link rel="stylesheet" href="${escapeHtml(options.stylesheet)}">`
    : `<style>${DOCS_CSS}</style>`;
  return `<!doctype html>
<html lang="${escapeHtml(page.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · docs-assistant</title>
${page.description ? `<meta name="description" content="${escapeHtml(page.description)}">` : ''}
${styles}
${options.head ?? ''}
</head>
<body>
<header class="site"><a href="${escapeHtml(options.links.page('/'))}">docs-assistant docs</a>${options.headerExtra ?? ''}</header>
<div class="layout">
<nav class="sidebar" aria-label="Docs">${navigation(site, page, options.links)}</nav>
<main>${meta ? `<p class="meta">${escapeHtml(meta)}</p>` : ''}${renderMarkdown(page, site, options.links)}</main>
</div>
${options.bodyEnd ?? ''}
</body>
</html>`;
}
