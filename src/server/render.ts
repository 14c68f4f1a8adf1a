import type { Element, Root } from 'hast';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import type { DocPage, DocsSite } from './docs.js';

export interface RenderOptions {
  /** URL prefix the pages are served under, e.g. `/docs`. */
  basePath: string;
  /** Extra markup for `<head>` (the assistant's script tag or the React demo's bundle). */
  head?: string;
  /** Extra markup at the end of `<body>`. */
  bodyEnd?: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Site-absolute links in the docs (`/guides/x`) are written for the docs root; serve them under basePath. */
function rehypeRebaseLinks(basePath: string) {
  return (tree: Root) => {
    visit(tree, 'element', (node: Element) => {
      const href = node.properties?.href;
      if (node.tagName === 'a' && typeof href === 'string' && href.startsWith('/') && !href.startsWith('//') && !href.startsWith(basePath + '/')) {
        node.properties.href = basePath + (href === '/' ? '' : href);
      }
    });
  };
}

/** Markdown → HTML. Raw HTML in the source is dropped (remark-rehype's default), never passed through. */
export function renderMarkdown(markdown: string, basePath: string): string {
  return String(
    unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkRehype)
      .use(rehypeSlug)
      .use(() => rehypeRebaseLinks(basePath))
      .use(rehypeStringify)
      .processSync(markdown),
  );
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1c1c1e;background:#fff}
a{color:#0b63ce}header.site{display:flex;align-items:center;gap:1rem;padding:.75rem 1.5rem;border-bottom:1px solid #e5e5ea}
header.site a{font-weight:600;text-decoration:none;color:inherit}.layout{display:flex;max-width:72rem;margin:0 auto}
nav.sidebar{flex:0 0 15rem;padding:1.5rem 1rem;border-right:1px solid #e5e5ea;font-size:.9rem}
nav.sidebar ul{list-style:none;margin:0;padding:0}nav.sidebar li a{display:block;padding:.2rem .5rem;border-radius:6px;text-decoration:none;color:#3a3a3c}
nav.sidebar li a[aria-current=page]{background:#eef4ff;color:#0b63ce;font-weight:600}nav.sidebar h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:#8e8e93;margin:1rem .5rem .25rem}
main{flex:1;min-width:0;padding:1.5rem 2.5rem 4rem}pre{background:#f5f5f7;padding:1rem;border-radius:8px;overflow:auto;font-size:.875rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}table{border-collapse:collapse;display:block;overflow:auto}th,td{border:1px solid #e5e5ea;padding:.35rem .6rem;text-align:left}
.meta{color:#8e8e93;font-size:.85rem}@media (max-width:720px){nav.sidebar{display:none}main{padding:1rem}}
`;

const GROUP_ORDER = ['Overview', 'Guides', 'Static export', 'API'];

function sectionOf(page: DocPage): string {
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

function navigation(site: DocsSite, current: DocPage, basePath: string): string {
  const groups = new Map<string, DocPage[]>();
  for (const page of site.pages) {
    const key = sectionOf(page);
    groups.set(key, [...(groups.get(key) ?? []), page]);
  }
  return [...groups]
    .sort(([a], [b]) => groupRank(a) - groupRank(b))
    .map(
      ([group, pages]) =>
        `<h2>${escapeHtml(group)}</h2><ul>` +
        pages
          .map((page) => {
            const label = page.title + (page.version ? ` (${page.version})` : '') + (page.language !== current.language ? ` · ${page.language}` : '');
            const currentAttr = page === current ? ' aria-current="page"' : '';
            return `<li><a href="${escapeHtml(basePath + (page.path === '/' ? '' : page.path))}"${currentAttr}>${escapeHtml(label)}</a></li>`;
          })
          .join('') +
        '</ul>',
    )
    .join('');
}

/** A whole HTML page for one doc: sidebar, content, and whatever the caller adds to `<head>`. */
export function renderDocsPage(site: DocsSite, page: DocPage, options: RenderOptions): string {
  const meta = [page.version && `Version ${page.version}`, page.language !== 'en' && `Language: ${page.language}`].filter(Boolean).join(' · ');
  return `<!doctype html>
<html lang="${escapeHtml(page.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · docs-assistant</title>
${page.description ? `<meta name="description" content="${escapeHtml(page.description)}">` : ''}
<style>${STYLE}</style>
${options.head ?? ''}
</head>
<body>
<header class="site"><a href="${escapeHtml(options.basePath)}">docs-assistant docs</a></header>
<div class="layout">
<nav class="sidebar" aria-label="Docs">${navigation(site, page, options.basePath)}</nav>
<main>${meta ? `<p class="meta">${escapeHtml(meta)}</p>` : ''}${renderMarkdown(page.markdown, options.basePath)}</main>
</div>
${options.bodyEnd ?? ''}
</body>
</html>`;
}
