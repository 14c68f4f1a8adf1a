import type { Element, Root } from 'hast';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import rehypeHighlight from 'rehype-highlight';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { toString as hastText } from 'hast-util-to-string';
import { docLinkTarget } from './doc-links.js';
import {
  isListed,
  pageLabelOf as labelOf,
  siteNameOf,
  type DocPage,
  type DocsSite,
} from './docs.js';

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
  /** Extra markup for `<head>` (made with `html`, so what it interpolates is escaped). */
  head?: Markup;
  /** Extra markup at the end of `<body>`. */
  bodyEnd?: Markup;
  /** Extra markup in the site header (the export's search box). */
  headerExtra?: Markup;
  /** URL of the page as Markdown, advertised to agents with `<link rel="alternate">`. */
  markdownHref?: string;
}

/** Markup made by `hono/html`'s `html` tag: every value it interpolates is escaped, unless `raw`. */
export type Markup = HtmlEscapedString;

/**
 * `html` with nothing asynchronous in it renders at once; the pages here never interpolate a
 * promise, and a page must be a string when an export writes it.
 */
export function markup(rendered: Markup | Promise<Markup>): Markup {
  if (rendered instanceof Promise) throw new Error('page markup must not be asynchronous');
  return rendered;
}

// Not `new URL('./templates/…', import.meta.url)`: Vite rewrites that pattern into a web asset URL.
const TEMPLATES = join(dirname(fileURLToPath(import.meta.url)), 'templates');

/**
 * A file of templates/, read once at start. The folder sits beside this module: in src/, in dist/
 * (the build copies it) and in the server package; a bundle of the server must copy it beside itself.
 */
export const template = (name: string) => readFileSync(join(TEMPLATES, name), 'utf8');

/** ` name="value"` for each entry: the names are the caller's own, the values are escaped. */
export function attributes(record: Record<string, string>): Markup {
  return markup(
    html`${Object.entries(record).map(([name, value]) => html` ${raw(name)}="${value}"`)}`,
  );
}

/** Links under a prefix, as the reference server serves the docs (`/docs/guides/x`). */
export function prefixedLinks(basePath: string): LinkStrategy {
  return { page: (path) => basePath + (path === '/' ? '' : path), file: (path) => basePath + path };
}

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

/**
 * Site-absolute and relative links and images in the Markdown (`/guides/x#y`, `../api/errors`,
 * `/images/a.png`) go through the page's link strategy; external links, anchors and schemes stay.
 */
function rehypeLinks() {
  return (tree: Root, file: { data: unknown }) => {
    const { page, site, links } = file.data as RenderData;
    visit(tree, 'element', (node: Element) => {
      const attribute = node.tagName === 'a' ? 'href' : node.tagName === 'img' ? 'src' : undefined;
      const value = attribute ? node.properties?.[attribute] : undefined;
      if (!attribute || typeof value !== 'string') return;
      if (isScriptUrl(value, node.tagName === 'img')) {
        // The link's text stays; what it would run does not.
        delete node.properties[attribute];
        return;
      }
      // An anchor of this page stays as written: the page is where it is rendered.
      const target = value.startsWith('#') ? undefined : docLinkTarget(value, page, site);
      if (!target) return;
      // A path the built site does not hold: the link keeps its words, as text, not a way to a 404.
      if (target.kind === 'missing') {
        delete node.properties[attribute];
        if (node.tagName === 'a') node.tagName = 'span';
        return;
      }
      const suffix = target.anchor ? `#${target.anchor}` : '';
      node.properties[attribute] =
        (target.kind === 'page' ? links.page(target.pagePath) : links.file(target.path)) + suffix;
    });
  };
}

/**
 * Headings keep the anchors their sections are cited at. A built page's heading ids are the
 * generator's (Sphinx's API entry `click.testing.CliRunner.invoke`, its `id13`), not slugs of their
 * text, and answers link to them: each heading whose text is a section's, in order, takes that
 * section's anchor. A Markdown page's anchors are the slugs already. The page's other link targets
 * that belong to a heading (a built page's `anchorAliases`: Sphinx's `std-setting-task_acks_late`) are
 * empty elements at its start, so links to them land on it.
 */
function rehypeSectionIds() {
  return (tree: Root, file: { data: unknown }) => {
    const { page } = file.data as RenderData;
    const sections = page.sections.filter((section) => section.anchor);
    const targets = new Map<string, string[]>();
    // A built page's own (html.ts); not Hugo's `aliases`, a list of redirects in Markdown pages.
    const aliases = page.frontmatter?.anchorAliases;
    if (aliases && typeof aliases === 'object' && !Array.isArray(aliases))
      for (const [alias, anchor] of Object.entries(aliases))
        if (typeof anchor === 'string')
          targets.set(anchor, [...(targets.get(anchor) ?? []), alias]);
    const spans = (anchor: string, node: Element) =>
      (targets.get(anchor) ?? [])
        .filter((id) => id !== node.properties.id)
        .map((id): Element => ({
          type: 'element',
          tagName: 'span',
          properties: { id },
          children: [],
        }));
    let next = 0;
    let titled = false;
    visit(tree, 'element', (node: Element) => {
      // The page's title is its top: the targets that lead there (anchor "") are at it.
      if (node.tagName === 'h1' && !titled) {
        titled = true;
        node.children.unshift(...spans('', node));
        return;
      }
      if (!/^h[2-6]$/.test(node.tagName) || next >= sections.length) return;
      const text = hastText(node).replace(/\s+/g, ' ').trim();
      // Compared as read: a heading's no-break space ("g_array_new ()") is a space in `text`.
      const at = sections.findIndex(
        (section, i) => i >= next && section.heading.replace(/\s+/g, ' ').trim() === text,
      );
      if (at < 0) return;
      next = at + 1;
      const { anchor } = sections[at]!;
      node.properties.id = anchor;
      node.children.unshift(...spans(anchor, node));
    });
  };
}

/**
 * A Markdown table always has a header row; one whose cells are all empty stands for a table that
 * had none (a Sphinx table's rows, the first of which is no header), and is not drawn as an empty
 * band above it.
 */
function rehypeHeaderlessTables() {
  return (tree: Root) => {
    visit(tree, 'element', (node: Element) => {
      if (node.tagName !== 'table') return;
      node.children = node.children.filter(
        (child) =>
          !(child.type === 'element' && child.tagName === 'thead' && !hastText(child).trim()),
      );
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
  .use(rehypeSectionIds)
  .use(rehypeHeaderlessTables)
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

export const DOCS_CSS = template('docs.css');
const MENU_SCRIPT = template('docs-menu.js');

/**
 * The pages' icon, inline: without one the browser asks for /favicon.ico, which a static host or
 * our server answers 404, and every page logs that error in the console.
 */
const ICON =
  "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'><rect width='24' height='24' rx='6' fill='%232563eb'/><path d='M12 5l1.9 5.1L19 12l-5.1 1.9L12 19l-1.9-5.1L5 12l5.1-1.9Z' fill='%23fff'/></svg>";

const GROUP_ORDER = ['Overview', 'Guides', 'Static export', 'API'];

const isIndex = (page: DocPage) => /(^|\/)(index|readme)\.(mdx?|html?)$/i.test(page.file);
/** A page's folder below the root (`guides` for `/guides/setup`), or none. */
const folderOf = (page: DocPage) => /^\/([^/]+)\//.exec(page.path)?.[1];
/** Whether a page is the index page of a folder that has other pages (`tutorial/index.html`). */
const isFolderIndex = (page: DocPage, folders: Set<string>) =>
  isIndex(page) && folders.has(page.path.slice(1));

/**
 * A page's sidebar group: its folder's, or the Overview for a page at the top. A folder's own index
 * page joins its folder's group when the folder has other pages (Sphinx's `tutorial/index` opens
 * Tutorial); alone (a Starlight or MkDocs page, each an `index.html`) it stays in the Overview.
 */
function groupOf(page: DocPage, folders: Set<string>): string {
  const folder = folderOf(page) ?? (isFolderIndex(page, folders) ? page.path.slice(1) : undefined);
  if (folder === undefined) return 'Overview';
  if (folder === 'api') return 'API';
  if (/^v\d+$/.test(folder)) return `Version ${folder.slice(1)}`;
  if (/^[a-z]{2}$/.test(folder)) return `Language: ${folder}`;
  const words = folder.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const groupRank = (group: string) => {
  const index = GROUP_ORDER.indexOf(group);
  return index < 0 ? GROUP_ORDER.length : index;
};

/** The sidebar's first page: where a site without a root page opens. */
export function firstPageOf(site: DocsSite): DocPage | undefined {
  return sidebarGroups(site)[0]?.[1][0];
}

const groupsBySite = new WeakMap<DocsSite, [string, DocPage[]][]>();

/** The sidebar's groups depend on the site only: computed once, not once per rendered page. */
export function sidebarGroups(site: DocsSite): [string, DocPage[]][] {
  let groups = groupsBySite.get(site);
  if (!groups) {
    const byName = new Map<string, DocPage[]>();
    // Unlisted pages are left out, unless every page is (then it says nothing of any one page).
    const listed = site.pages.filter(isListed);
    const pages = listed.length ? listed : site.pages;
    const folders = new Set(pages.map(folderOf).filter((folder) => folder !== undefined));
    // The root page opens the Overview and a folder's own index page its group, wherever their
    // file names sort; the others keep the site's order (an index page deeper down included:
    // Sphinx's `_modules/index` opened the Overview).
    // Under a group the home page names, a folder's index keeps its place in the site's order.
    const opens = (page: DocPage) =>
      page.path === '/' || (isFolderIndex(page, folders) && !site.groups?.has(page.path));
    for (const page of pages) {
      const name = site.groups?.get(page.path) ?? groupOf(page, folders);
      const list = byName.get(name);
      if (list) list.push(page);
      else byName.set(name, [page]);
    }
    groups = [...byName].sort(([a], [b]) => groupRank(a) - groupRank(b));
    for (const [, list] of groups) list.sort((a, b) => Number(opens(b)) - Number(opens(a)));
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
function navigation(site: DocsSite, current: DocPage, links: LinkStrategy): Markup {
  const item = (
    page: DocPage,
    label = labelOf(site, page) +
      (page.version ? ` (${page.version})` : '') +
      (page.language !== current.language ? ` · ${page.language}` : ''),
  ) =>
    page === current
      ? html`<li><a href="${links.page(page.path)}" aria-current="page">${label}</a></li>`
      : html`<li><a href="${links.page(page.path)}">${label}</a></li>`;
  const group = (name: string, items: unknown[]) =>
    html`<h2>${name}</h2>
      <ul>
        ${items}
      </ul>`;
  const groups = sidebarGroups(site);
  if (site.pages.length <= FULL_SIDEBAR_MAX_PAGES) {
    return markup(
      html`${groups.map(([name, pages]) =>
        group(
          name,
          pages.map((page) => item(page)),
        ),
      )}`,
    );
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
  const listed = groups.slice(shown.start, shown.end).map(([name, pages], offset) => {
    if (shown.start + offset !== currentGroup) {
      const more = pages.length > 1 ? ` (+${pages.length - 1} pages)` : '';
      return group(name, [item(pages[0]!, `${labelOf(site, pages[0]!)}${more}`)]);
    }
    const { start, end } = window(pages, pages.indexOf(current), SIDEBAR_WINDOW);
    return group(name, [
      start > 0 && item(pages[start - 1]!, `… ${start} earlier pages`),
      ...pages.slice(start, end).map((page) => item(page)),
      end < pages.length && item(pages[end]!, `… ${pages.length - end} more pages`),
    ]);
  });
  const earlier =
    shown.start > 0 &&
    html`<ul>
      ${item(firstOf(shown.start - 1), `… ${shown.start} earlier sections`)}
    </ul>`;
  const later =
    shown.end < groups.length &&
    html`<ul>
      ${item(firstOf(shown.end), `… ${groups.length - shown.end} more sections`)}
    </ul>`;
  return markup(html`${earlier}${listed}${later}`);
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
    ? html`<link rel="stylesheet" href="${options.stylesheet}" />`
    : html`<style>
        ${raw(DOCS_CSS)}
      </style>`;
  // The Markdown's HTML comes from the unified pipeline, which drops raw HTML and script URLs.
  const content = raw(renderMarkdown(page, site, options.links));
  const siteName = siteNameOf(site);
  const label = labelOf(site, page);
  return markup(
    html`<!doctype html>
      <html lang="${page.language}">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light" />
          <link rel="icon" href="${ICON}" />
          <title>${label === siteName ? siteName : `${label} · ${siteName}`}</title>
          ${page.description && html`<meta name="description" content="${page.description}" />`}
          ${
            options.markdownHref &&
            html`<link rel="alternate" type="text/markdown" href="${options.markdownHref}" />`
          }
          ${styles} ${options.head}
        </head>
        <body>
          <header class="site">
            <button
              type="button"
              class="menu-button"
              aria-controls="docs-nav"
              aria-expanded="false"
            >
              <span aria-hidden="true">☰</span> Menu
            </button>
            <a href="${options.links.page('/')}">${siteName}</a>${options.headerExtra}
          </header>
          <div class="layout">
            <nav class="sidebar" id="docs-nav" aria-label="Docs" data-state="closed">
              ${navigation(site, page, options.links)}
            </nav>
            <main>${meta && html`<p class="meta">${meta}</p>`}${content}</main>
          </div>
          <script>
            ${raw(MENU_SCRIPT)};
          </script>
          ${options.bodyEnd}
        </body>
      </html>`,
  ).toString();
}
