import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { join } from 'node:path';
import { normalizePagePath, type DocsSite } from '../docs.js';
import { errorResponse } from '../http.js';
import { attributes, markup, prefixedLinks, renderDocsPage, type Markup } from '../render.js';
import { readStatic } from '../static.js';

/** The docs with the script tag. */
export const DOCS_BASE_PATH = '/docs';
/** The same docs with the React import. */
export const REACT_BASE_PATH = '/react';
/** Where the docs are served; a reader's `currentPath` on any of them names the same page. */
export const SITE_BASE_PATHS = [DOCS_BASE_PATH, REACT_BASE_PATH] as const;

const SCRIPT_TAG_SRC = '/embed/docs-assistant.js';
const STARTER_QUESTIONS = [
  'How do I install it?',
  'How do I change the theme?',
  'What is static export?',
];

export interface DemoRouteDeps {
  /** The site the pages show; the server has none when no docs are configured. */
  site?: { domain: string; docs: DocsSite } | undefined;
  /** Built files (the package's dist/): gallery at /, script tag at /embed/, React demo at /react/. */
  assetsDir?: string | undefined;
  /** Assistant key the demo pages carry (assistant keys are public by design). */
  demoKey?: string | undefined;
  /** The origin links on the pages use. */
  origin(c: Context): string;
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
  const { site, assetsDir } = deps;
  const app = new Hono();

  const demoAttributes = (c: Context, basePath: string) => {
    const origin = deps.origin(c);
    const record: Record<string, string> = {
      'data-domain': site?.domain ?? '',
      'data-base-url': origin,
      'data-docs-base-url': `${origin}${basePath}/`,
      'data-starter-questions': STARTER_QUESTIONS.join('|'),
    };
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
    const page = site.docs.byPath.get(normalizePagePath(sitePath));
    if (!page) return errorResponse('not_found', `No docs page at ${c.req.path.slice(0, 200)}.`);
    return c.html(
      renderDocsPage(site.docs, page, {
        links: prefixedLinks(basePath),
        ...(assetsDir ? extras : {}),
      }),
    );
  }
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
      site ? c.redirect(DOCS_BASE_PATH) : errorResponse('not_found', 'No docs site is configured.'),
    );
  }

  return app;
}
