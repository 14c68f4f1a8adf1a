import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { join } from 'node:path';
import { confidenceOf } from '../../answering/answer.js';
import { docLinkTarget } from '../../site/doc-links.js';
import type { DocPage, DocsSite } from '../../site/docs.js';
import { parsePagePath } from '../../site/page-path.js';
import { phrasesFor } from '../../answering/phrases.js';
import { createRetriever, type Retriever } from '../../answering/retrieval.js';
import { errorResponse } from '../middleware.js';
import {
  attributes,
  firstPageOf,
  markup,
  prefixedLinks,
  renderDocsPage,
  type Markup,
} from '../../site/render.js';
import { readStatic } from '../static.js';
import {
  fullTextParts,
  llmsFullTxt,
  llmsTxt,
  pageMarkdown,
  type SiteMarkdownUrls,
} from '../../site/page-markdown.js';

const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/** The docs with the script tag. */
export const DOCS_BASE_PATH = '/docs';
/** The same docs with the React import. */
export const REACT_BASE_PATH = '/react';
/** Where the docs are served; a reader's `currentPath` on any of them names the same page. */
export const SITE_BASE_PATHS = [DOCS_BASE_PATH, REACT_BASE_PATH] as const;

const SCRIPT_TAG_SRC = '/embed/docs-assistant.js';
/** The widget shows at most three starter questions. */
const MAX_STARTERS = 3;

/** The starter questions the docs declare for themselves: the root page's `starters` frontmatter. */
export function declaredStarters(docs: DocsSite): string[] | undefined {
  const declared = docs.byPath.get('/')?.frontmatter?.starters;
  if (!Array.isArray(declared)) return undefined;
  return declared
    .filter((question): question is string => typeof question === 'string')
    .map((question) => question.trim())
    .filter(Boolean)
    .slice(0, MAX_STARTERS);
}

/**
 * Starters for docs that declare none, phrased as the answers' follow-ups are ("Tell me about
 * “Getting Started”"): the pages the root page links to first (the path its authors lay out for a
 * newcomer; section index pages, which only list links, skipped), then their headings. Each is kept
 * only if the assistant answers it rather than saying the docs don't cover it, so a chip never
 * leads a reader to a refusal. None when nothing qualifies.
 */
export function suggestStarters(docs: DocsSite, retriever: Retriever): string[] {
  const root = docs.byPath.get('/');
  if (!root) return [];
  const linked = root.sections
    .flatMap((section) => section.blocks.flatMap((block) => block.links ?? []))
    .map((link) => docLinkTarget(link.url, root, docs))
    .map((target) => (target?.kind === 'page' ? docs.byPath.get(target.pagePath) : undefined))
    .filter(
      (page): page is DocPage => !!page && page !== root && !/(^|\/)index\.mdx?$/i.test(page.file),
    );
  const pages = [...new Set(linked)];
  const tellMeAbout = phrasesFor(root.language).tellMeAbout;
  const subjects = [
    ...pages.map((page) => page.title),
    ...pages.flatMap((page) => page.sections.map((section) => section.heading)),
  ];
  const starters: string[] = [];
  for (const subject of new Set(subjects.map((s) => s.trim()).filter(Boolean))) {
    const question = tellMeAbout(subject);
    // The script tag's attribute separates its questions with "|".
    if (question.includes('|')) continue;
    const result = retriever.search(question, { limit: 5 });
    // A starter is a question the docs clearly answer, not one the answer would be unsure of.
    if (confidenceOf(result) === 'sure') starters.push(question);
    if (starters.length === MAX_STARTERS) break;
  }
  return starters;
}

export interface DemoRouteDeps {
  /** The site the pages show, as it is now (`serve --watch` replaces it); none when no docs are configured. */
  site():
    | {
        domain: string;
        docs: DocsSite;
        /** The script tag's starter questions (`--starters`); the docs' own or suggested when absent. */
        starters?: string[] | undefined;
        /** Checks suggested starters against the answers readers would get. */
        retriever?: Retriever;
      }
    | undefined;
  /** Built files (the package's dist/): gallery at /, script tag at /embed/, React demo at /react/. */
  assetsDir?: string | undefined;
  /** Assistant key the demo pages carry (assistant keys are public by design). */
  demoKey?: string | undefined;
  /** The origin links on the pages use. */
  origin(c: Context): string;
  /** Where the site's pages and their Markdown are, for the Markdown and llms.txt served here. */
  markdownUrls(c: Context, basePath: string): SiteMarkdownUrls;
  /** Above this, llms-full.txt is split by sidebar section. @default 5 MiB */
  fullTextMaxBytes?: number | undefined;
}

interface PageExtras {
  head?: Markup;
  bodyEnd?: Markup;
}

/**
 * The demo site: the docs as HTML twice — with the script tag (/docs) and with the React import
 * (/react) — the docs folder's images, and, with built assets, the gallery, the script-tag files
 * and the React demo's bundle.
 */
export function demoRoutes(deps: DemoRouteDeps) {
  const { assetsDir } = deps;
  const app = new Hono();
  // Only pages with the script tag carry starters: worked out on the first such page, once per
  // version of the docs (`serve --watch` replaces them on an edit, and the starters follow).
  const starters = new WeakMap<object, string[]>();
  const startersOf = (site: NonNullable<ReturnType<DemoRouteDeps['site']>>) => {
    let questions = starters.get(site.docs);
    if (!questions) {
      questions =
        site.starters ??
        declaredStarters(site.docs) ??
        suggestStarters(site.docs, site.retriever ?? createRetriever(site.docs));
      starters.set(site.docs, questions);
    }
    return questions;
  };

  const demoAttributes = (c: Context, basePath: string) => {
    const origin = deps.origin(c);
    const site = deps.site();
    const record: Record<string, string> = {
      'data-domain': site?.domain ?? '',
      'data-base-url': origin,
      'data-docs-base-url': `${origin}${basePath}/`,
    };
    const questions = site ? startersOf(site) : [];
    if (questions.length) record['data-starter-questions'] = questions.join('|');
    if (deps.demoKey) record['data-api-key'] = deps.demoKey;
    return attributes(record);
  };
  const withScriptTag = (c: Context): PageExtras => {
    const data = demoAttributes(c, DOCS_BASE_PATH);
    return { head: markup(html`<script src="${SCRIPT_TAG_SRC}" defer${data}></script>`) };
  };
  const withReact = (c: Context): PageExtras => ({
    head: markup(
      html`<link rel="stylesheet" href="/styles.css" />
        <script type="module" src="/assets/react.js"></script>`,
    ),
    bodyEnd: markup(html`<div id="docs-assistant" ${demoAttributes(c, REACT_BASE_PATH)}></div>`),
  });

  async function servePage(c: Context, basePath: string, extras: PageExtras): Promise<Response> {
    const site = deps.site();
    if (!site) return errorResponse('not_found', 'No docs site is configured.');
    let sitePath: string;
    try {
      sitePath = decodeURIComponent(c.req.path).slice(basePath.length) || '/';
    } catch {
      // A malformed %-escape names no page: 404, not the 500 a thrown URIError would give.
      return errorResponse('not_found', 'There is no docs page at this address.');
    }
    // Images and other files of the docs folder, by the list made at load (never an arbitrary path).
    if (site.docs.dir && site.docs.files.includes(sitePath)) {
      const file = await readStatic(site.docs.dir, sitePath.slice(1));
      if (file) return file;
    }
    const asMarkdown = /\.md$/i.test(sitePath);
    const named = asMarkdown ? sitePath.slice(0, -3) : sitePath;
    const page = site.docs.byPath.get(parsePagePath(named));
    // A folder without an index.md or README.md has no root page: the docs' address, which the
    // server prints at start, opens the sidebar's first page instead of a 404.
    if (!page && named === '/') {
      const first = firstPageOf(site.docs);
      if (first) return c.redirect(encodeURI(`${basePath}${first.path}`), 302);
    }
    // A page the built site moved answers with where it went, as the build's redirect page did.
    const moved = page ? undefined : site.docs.redirects?.get(parsePagePath(named));
    if (moved) return c.redirect(encodeURI(`${basePath}${moved}`), 301);
    if (!page) return errorResponse('not_found', `No docs page at ${c.req.path.slice(0, 200)}.`);
    const urls = markdownUrls(c, basePath);
    if (asMarkdown)
      return c.body(pageMarkdown(page, site.docs, urls), 200, {
        'Content-Type': MARKDOWN_TYPE,
        'X-Content-Type-Options': 'nosniff',
      });
    const markdownHref = urls.markdown(page.path);
    c.header(
      'Link',
      `<${markdownHref}>; rel="alternate"; type="text/markdown", <${urls.siteFile('llms.txt')}>; rel="llms-txt"`,
    );
    return c.html(
      renderDocsPage(site.docs, page, {
        links: prefixedLinks(basePath),
        markdownHref,
        ...(assetsDir ? extras : {}),
      }),
    );
  }
  const markdownUrls = (c: Context, basePath = DOCS_BASE_PATH) => deps.markdownUrls(c, basePath);
  const llmsIndex = (c: Context) => {
    const site = deps.site();
    return site
      ? c.body(llmsTxt(site.docs, markdownUrls(c), deps.fullTextMaxBytes), 200, {
          'Content-Type': TEXT_TYPE,
        })
      : errorResponse('not_found', 'No docs site is configured.');
  };
  app.get('/llms.txt', llmsIndex);
  app.get('/.well-known/llms.txt', llmsIndex);
  app.get('/:name{llms-full(-[0-9]+)?\\.txt}', (c) => {
    const site = deps.site();
    if (!site) return errorResponse('not_found', 'No docs site is configured.');
    const part = fullTextParts(site.docs, deps.fullTextMaxBytes).find(
      (candidate) => candidate.name === c.req.param('name'),
    );
    if (!part) return errorResponse('not_found', 'There is no such part of llms-full.txt.');
    return c.body(llmsFullTxt(site.docs, part, markdownUrls(c)), 200, {
      'Content-Type': TEXT_TYPE,
    });
  });
  for (const [basePath, extras] of [
    [DOCS_BASE_PATH, withScriptTag],
    [REACT_BASE_PATH, withReact],
  ] as const) {
    app.get(basePath, (c) => servePage(c, basePath, extras(c)));
    app.get(`${basePath}/*`, (c) => servePage(c, basePath, extras(c)));
  }

  if (assetsDir) {
    // Hono's own serveStatic for the built files: their names are ours (ASCII, never %-escaped),
    // and it refuses `.`/`..` segments, backslashes and any %-escape before it touches the disk.
    // The docs folder's files above keep readStatic: their names may need %-decoding (spaces,
    // accents), which serveStatic refuses, and readStatic decodes first, then checks the root.
    const built = (options: { root?: string; path?: string; under?: string }) =>
      serveStatic({
        ...options,
        rewriteRequestPath: (path) => path.slice(options.under?.length ?? 0),
        onFound: (_path, c) => {
          c.header('Cache-Control', 'no-cache');
          c.header('X-Content-Type-Options', 'nosniff');
        },
      });
    const notFound = (c: Context) => c.notFound();
    app.get('/styles.css', built({ path: join(assetsDir, 'styles.css') }), notFound);
    app.get('/embed/*', built({ root: join(assetsDir, 'embed'), under: '/embed' }), notFound);
    app.get('/', built({ path: join(assetsDir, 'demo', 'index.html') }), (c) =>
      c.redirect(DOCS_BASE_PATH),
    );
    app.get('/*', built({ root: join(assetsDir, 'demo') }), notFound);
  } else {
    app.get('/', (c) =>
      deps.site()
        ? c.redirect(DOCS_BASE_PATH)
        : errorResponse('not_found', 'No docs site is configured.'),
    );
  }

  return app;
}
