import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import MiniSearch from 'minisearch';
import { createSite, searchedSite, siteNameOf, type DocPage, type DocsSite } from '../site/docs.js';
import { parsePagePath } from '../site/page-path.js';
import { html } from 'hono/html';
import {
  DOCS_CSS,
  firstPageOf,
  markup,
  renderDocsPage,
  template,
  type LinkStrategy,
} from '../site/render.js';
import {
  fullTextParts,
  llmsFullTxt,
  llmsTxt,
  pageMarkdown,
  type SiteMarkdownUrls,
} from '../site/page-markdown.js';

/** `/` → `index.html`, `/guides/start` → `guides/start.html`: every page is a file a static host serves. */
export function htmlFileOf(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
}

/** `/` → `index.md`, `/guides/start` → `guides/start.md`: each page's Markdown beside its HTML. */
export function markdownFileOf(path: string): string {
  return path === '/' ? 'index.md' : `${path.slice(1)}.md`;
}

/**
 * The href from one bundle file to another (`guides/a.html` → `../index.html`). String work only:
 * every page links every other page in its sidebar, so path.relative made big exports quadratic.
 */
export function relativeFrom(fromFile: string, toFile: string): string {
  const from = fromFile.split('/').slice(0, -1);
  const to = toFile.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return '../'.repeat(from.length - common) + to.slice(common).join('/');
}

const SEARCH_FIELDS = ['title', 'heading', 'text'];
const SEARCH_STORE = ['title', 'heading', 'url'];

const SEARCH_CSS = template('export-search.css');
const SEARCH_SCRIPT = template('export-search.js');

const SEARCH_FORM = markup(
  html`<form class="search" role="search">
    <input
      type="search"
      id="search"
      placeholder="Search the docs"
      aria-label="Search the docs"
      autocomplete="off"
    />
    <ul id="search-results" hidden></ul>
  </form>`,
);

export interface ExportProgress {
  done: number;
  total: number;
}

export interface ExportSiteOptions {
  /** Site paths to export; every page when absent. */
  paths?: string[];
  outDir: string;
  /** Above this, llms-full.txt is split by sidebar section. @default 5 MiB */
  fullTextMaxBytes?: number | undefined;
  onProgress?(progress: ExportProgress): void | Promise<void>;
}

/** Pages a `paths` list names, or undefined entries for paths the site does not have. */
export function selectPages(site: DocsSite, paths: string[] | undefined): (DocPage | undefined)[] {
  return paths ? paths.map((path) => site.byPath.get(parsePagePath(path))) : site.pages;
}

function buildSearchIndex(pages: DocPage[]): string {
  const index = new MiniSearch({ fields: SEARCH_FIELDS, storeFields: SEARCH_STORE });
  for (const page of pages) {
    const url = htmlFileOf(page.path);
    for (const section of page.sections) {
      index.add({
        id: `${url}#${section.anchor}`,
        title: page.title,
        heading: section.heading,
        text: section.text,
        url: section.anchor ? `${url}#${section.anchor}` : url,
      });
    }
  }
  return JSON.stringify(index);
}

/**
 * Pre-renders the site into `outDir`: one `.html` file per page with relative links (works from
 * file:// and under any prefix), one shared stylesheet, copied images, and an offline search.
 */
export async function exportSite(
  site: DocsSite,
  options: ExportSiteOptions,
): Promise<{ pageCount: number }> {
  const selected = selectPages(site, options.paths).filter((page): page is DocPage => !!page);
  // A partial export may leave the root page out; its pages still carry the whole site's name.
  const exported: DocsSite = {
    ...createSite(selected, site.files, site.dir),
    name: siteNameOf(site),
    ...(site.groups ? { groups: site.groups } : {}),
    ...(site.built ? { built: site.built } : {}),
  };
  // Pages the build moved (`--site`'s redirect pages) whose new place is exported: links to the
  // old address lead there, and the old address still opens it (a refresh page, below).
  const redirects = [...(site.redirects ?? [])].filter(
    ([from, to]) => !exported.byPath.has(from) && exported.byPath.has(pagePathOf(to)),
  );
  if (redirects.length) exported.redirects = new Map(redirects);
  const { outDir } = options;
  await mkdir(join(outDir, 'assets'), { recursive: true });
  await writeFile(join(outDir, 'assets/docs.css'), DOCS_CSS + SEARCH_CSS);
  await writeFile(join(outDir, 'assets/search.js'), SEARCH_SCRIPT);
  const searchOptions = { fields: SEARCH_FIELDS, storeFields: SEARCH_STORE };
  await writeFile(
    join(outDir, 'assets/search-index.js'),
    `window.DOCS_SEARCH_INDEX = ${buildSearchIndex(searchedSite(exported).pages)};\n` +
      `window.DOCS_SEARCH_OPTIONS = ${JSON.stringify(searchOptions)};\n`,
  );
  // The package's exports map hides its browser (UMD) build; it sits beside the CommonJS entry.
  const minisearchBrowser = join(
    dirname(createRequire(import.meta.url).resolve('minisearch')),
    '..',
    'umd',
    'index.js',
  );
  await writeFile(join(outDir, 'assets/minisearch.js'), await readFile(minisearchBrowser));

  if (site.dir) {
    for (const file of site.files) {
      await mkdir(dirname(join(outDir, file)), { recursive: true });
      await copyFile(join(site.dir, file), join(outDir, file));
    }
  }

  const folders = new Set<string>();
  for (const [done, page] of selected.entries()) {
    const file = htmlFileOf(page.path);
    const links: LinkStrategy = {
      page: (path) => relativeFrom(file, htmlFileOf(path)),
      file: (path) => relativeFrom(file, path.slice(1)),
    };
    const root = relativeFrom(file, 'index.html').replace(/index\.html$/, '');
    const asset = (name: string) => `${root}assets/${name}`;
    const pageHtml = renderDocsPage(exported, page, {
      links,
      stylesheet: `${root}assets/docs.css`,
      markdownHref: relativeFrom(file, markdownFileOf(page.path)),
      headerExtra: SEARCH_FORM,
      bodyEnd: markup(
        html`<script src="${asset('minisearch.js')}"></script>
          <script src="${asset('search-index.js')}"></script>
          <script src="${asset('search.js')}" data-root="${root}"></script>`,
      ),
    });
    const folder = dirname(join(outDir, file));
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    await writeFile(join(outDir, file), pageHtml);
    await writeFile(
      join(outDir, markdownFileOf(page.path)),
      pageMarkdown(page, exported, bundleUrls(markdownFileOf(page.path))),
    );
    await options.onProgress?.({ done: done + 1, total: selected.length });
    // Let the server answer other requests between pages of a big site.
    await new Promise((resolve) => setImmediate(resolve));
  }
  // A bundle without a root page (a folder with no index.md, a partial export) still opens at its
  // root: index.html sends the reader to the sidebar's first page.
  const first = firstPageOf(exported);
  if (first && !exported.byPath.has(parsePagePath('/')))
    await writeFile(
      join(outDir, 'index.html'),
      refreshPage(exported, htmlFileOf(first.path), first),
    );
  for (const [from, to] of redirects) {
    const file = htmlFileOf(from);
    const [, anchor] = to.split('#', 2);
    const target = exported.byPath.get(pagePathOf(to))!;
    const href = relativeFrom(file, htmlFileOf(target.path)) + (anchor ? `#${anchor}` : '');
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    await writeFile(join(outDir, file), refreshPage(exported, href, target));
  }
  await writeAgentIndexes(exported, outDir, options.fullTextMaxBytes);
  return { pageCount: selected.length };
}

/** The page path of a redirect's target (`/dev-guide/plugins#events` → `/dev-guide/plugins`). */
const pagePathOf = (target: string) => parsePagePath(target.split('#', 1)[0]!);

/** A file that sends the reader on to `href` (a page of the bundle), as static hosts can. */
function refreshPage(site: DocsSite, href: string, target: DocPage): string {
  return String(
    html`<!doctype html>
      <html lang="${target.language}">
        <head>
          <meta charset="utf-8" />
          <meta http-equiv="refresh" content="0; url=${href}" />
          <title>${siteNameOf(site)}</title>
        </head>
        <body>
          <p><a href="${href}">${target.title}</a></p>
        </body>
      </html>`,
  );
}

/**
 * The bundle's links as seen from one of its files: relative, like its HTML pages' links, so
 * agents reach them under any prefix, from any host, air-gapped or from file://.
 */
function bundleUrls(fromFile: string): SiteMarkdownUrls {
  return {
    page: (path) => relativeFrom(fromFile, htmlFileOf(path)),
    file: (path) => relativeFrom(fromFile, path.slice(1)),
    markdown: (path) => relativeFrom(fromFile, markdownFileOf(path)),
    siteFile: (name) => relativeFrom(fromFile, name),
    pathOf: () => undefined,
  };
}

/** `llms.txt` (also under `.well-known/`) and `llms-full.txt` or its parts, a page at a time. */
async function writeAgentIndexes(site: DocsSite, outDir: string, maxBytes: number | undefined) {
  await mkdir(join(outDir, '.well-known'), { recursive: true });
  for (const file of ['llms.txt', '.well-known/llms.txt'])
    await writeFile(join(outDir, file), llmsTxt(site, bundleUrls(file), maxBytes));
  for (const part of fullTextParts(site, maxBytes))
    await pipeline(
      Readable.fromWeb(
        llmsFullTxt(site, part, bundleUrls(part.name)) as NodeReadableStream<Uint8Array>,
      ),
      createWriteStream(join(outDir, part.name)),
    );
}
