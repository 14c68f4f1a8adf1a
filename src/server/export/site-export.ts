import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import MiniSearch from 'minisearch';
import { createSite, normalizePagePath, type DocPage, type DocsSite } from '../docs.js';
import { DOCS_CSS, escapeHtml, renderDocsPage, type LinkStrategy } from '../render.js';

/** `/` → `index.html`, `/guides/start` → `guides/start.html`: every page is a file a static host serves. */
export function htmlFileOf(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
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

const SEARCH_CSS = `
header.site form.search{position:relative;margin-left:auto;width:min(22rem,50vw)}
header.site input[type=search]{width:100%;padding:.4rem .7rem;border:1px solid #d1d1d6;border-radius:8px;font:inherit}
#search-results{position:absolute;right:0;left:0;top:calc(100% + 4px);margin:0;padding:.25rem;list-style:none;background:#fff;border:1px solid #d1d1d6;border-radius:8px;box-shadow:0 8px 24px rgba(0,0,0,.12);z-index:10;max-height:60vh;overflow:auto}
#search-results a{display:block;padding:.4rem .6rem;border-radius:6px;text-decoration:none;color:#1c1c1e}#search-results a:hover,#search-results a:focus{background:#eef4ff}
#search-results small{display:block;color:#6e6e73}`;

/** The offline search: MiniSearch's browser build + a prebuilt index, both loaded by classic scripts (file:// works). */
const SEARCH_SCRIPT = `(function () {
  var script = document.currentScript;
  var root = script.getAttribute('data-root') || '';
  var index = MiniSearch.loadJS(window.DOCS_SEARCH_INDEX, { fields: ${JSON.stringify(SEARCH_FIELDS)}, storeFields: ${JSON.stringify(SEARCH_STORE)} });
  var input = document.getElementById('search');
  var list = document.getElementById('search-results');
  if (!input || !list) return;
  input.addEventListener('input', function () {
    var query = input.value.trim();
    list.textContent = '';
    if (!query) { list.hidden = true; return; }
    var hits = index.search(query, { prefix: true, fuzzy: 0.2, boost: { title: 2, heading: 1.5 } }).slice(0, 8);
    if (!hits.length) { var none = document.createElement('li'); none.textContent = 'No results'; list.appendChild(none); }
    hits.forEach(function (hit) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = root + hit.url;
      a.textContent = hit.title;
      if (hit.heading && hit.heading !== hit.title) { var small = document.createElement('small'); small.textContent = hit.heading; a.appendChild(small); }
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  });
  input.form.addEventListener('submit', function (event) {
    event.preventDefault();
    var first = list.querySelector('a');
    if (first) location.href = first.href;
  });
})();
`;

const SEARCH_FORM =
  '<form class="search" role="search"><input type="search" id="search" placeholder="Search the docs" aria-label="Search the docs" autocomplete="off"><ul id="search-results" hidden></ul></form>';

export interface ExportProgress {
  done: number;
  total: number;
}

export interface ExportSiteOptions {
  /** Site paths to export; every page when absent. */
  paths?: string[];
  outDir: string;
  onProgress?(progress: ExportProgress): void | Promise<void>;
}

/** Pages a `paths` list names, or undefined entries for paths the site does not have. */
export function selectPages(site: DocsSite, paths: string[] | undefined): (DocPage | undefined)[] {
  return paths ? paths.map((path) => site.byPath.get(normalizePagePath(path))) : site.pages;
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
  const exported = createSite(selected, site.files, site.dir);
  const { outDir } = options;
  await mkdir(join(outDir, 'assets'), { recursive: true });
  await writeFile(join(outDir, 'assets/docs.css'), DOCS_CSS + SEARCH_CSS);
  await writeFile(join(outDir, 'assets/search.js'), SEARCH_SCRIPT);
  await writeFile(
    join(outDir, 'assets/search-index.js'),
    `window.DOCS_SEARCH_INDEX = ${buildSearchIndex(selected)};\n`,
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
    const asset = (name: string) => escapeHtml(`${root}assets/${name}`);
    const html = renderDocsPage(exported, page, {
      links,
      stylesheet: `${root}assets/docs.css`,
      headerExtra: SEARCH_FORM,
      bodyEnd:
        `<script src="${asset('minisearch.js')}"></script><script src="${asset('search-index.js')}"></script>` +
        `<script src="${asset('search.js')}" data-root="${escapeHtml(root)}"></script>`,
    });
    const folder = dirname(join(outDir, file));
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    await writeFile(join(outDir, file), html);
    await options.onProgress?.({ done: done + 1, total: selected.length });
    // Let the server answer other requests between pages of a big site.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { pageCount: selected.length };
}
