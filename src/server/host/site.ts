import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { createApp } from '../http/app.js';
import { html } from 'hono/html';
import { attributes, markup } from '../site/render.js';
import { decodePath, resolveInside } from '../http/static.js';
import type { ActiveVersion } from './bundle.js';
import type { AssistantPlan } from './values.js';
import { BUNDLE_STALE_HEADER, BUNDLE_VERSION_HEADER } from '../../protocol/headers.js';
import { DEPLOYMENT_EMBED_PATH, ROUTES } from '../../protocol/routes.js';

/** What the host serves right now. `stale` still serves, and says so on every response. */
export type HostState =
  | { status: 'starting' }
  | { status: 'ready'; active: ActiveVersion }
  | { status: 'stale'; active: ActiveVersion; reason: string }
  | { status: 'unavailable'; reason: string }
  | { status: 'disabled' };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript)|image\/svg)/;
/** Below this, compression costs more than it saves. */
const MIN_COMPRESS_BYTES = 512;
const CACHE_BYTES = 64 * 1024 * 1024;

type Encoding = 'br' | 'gzip';
interface Representation {
  body: Buffer;
  type: string;
  etag: string;
  lastModified: number;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

const compress: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The encoding to send: brotli, then gzip, by the client's Accept-Encoding (q=0 refuses). */
export function chooseEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const quality = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name!, quality ? Number(quality.slice(2)) || 0 : 1);
  }
  const accepts = (name: Encoding) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : undefined;
}

/** The script tag the host adds to every page, or none when the assistant is off. */
export function scriptTag(
  plan: AssistantPlan,
  manifest: ActiveVersion['manifest'],
): string | undefined {
  if (plan.mode === 'off') return undefined;
  const record: Record<string, string> = {
    src: `${DEPLOYMENT_EMBED_PATH}docs-assistant.js`,
    'data-domain': plan.domain ?? manifest.domain,
    // Proxy mode: the page asks its own origin, and the host adds the key on the way out.
    'data-base-url': plan.mode === 'proxy' ? '/' : plan.baseUrl,
  };
  if (plan.mode === 'direct' && plan.apiKey) record['data-api-key'] = plan.apiKey;
  return markup(html`<script defer${attributes(record)}></script>`).toString();
}

function injectTag(html: string, tag: string): string {
  const head = html.search(/<\/head>/i);
  if (head >= 0) return html.slice(0, head) + tag + html.slice(head);
  const body = html.search(/<\/body>/i);
  return body >= 0 ? html.slice(0, body) + tag + html.slice(body) : html + tag;
}

const NOT_FOUND_PAGE = markup(
  html`<!doctype html>
    <title>Not found</title>
    <h1>Not found</h1>
    <p>There is no page at this address. <a href="/">Start page</a></p>`,
);

/** Header values must be Latin-1: a reason with other characters is cut down, never a thrown error. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]+/g, ' ').slice(0, 300);

const isFile = async (file: string | undefined) =>
  file ? (await stat(file).catch(() => undefined))?.isFile() === true : false;

/**
 * A bundle page's Markdown and the bundle's llms.txt, for agents, as a `Link` header (the export
 * writes `x.md` beside `x.html`); undefined for other files and older bundles without them.
 */
async function agentLinks(root: string, file: string): Promise<string | undefined> {
  if (extname(file) !== '.html') return undefined;
  const markdown = file.replace(/\.html$/, '.md');
  if (!(await isFile(markdown))) return undefined;
  const path = `/${relative(root, markdown).split(sep).map(encodeURIComponent).join('/')}`;
  const index = (await isFile(join(root, 'llms.txt'))) ? ', </llms.txt>; rel="llms-txt"' : '';
  return `<${path}>; rel="alternate"; type="text/markdown"${index}`;
}

export interface HostAppOptions {
  state(): HostState;
  assistant: AssistantPlan;
  /** Built script-tag files (`dist/embed`); without them no tag is added. */
  embedDir?: string;
  /** Proxy mode: the key added upstream (from DOCS_ASSISTANT_UPSTREAM_KEY). */
  upstreamKey?: string;
  /** Transport for the proxy (tests). @default fetch */
  fetch?: typeof fetch;
}

/**
 * The deployment's web server: the active bundle with content types, validators, compression and
 * clean URLs; the script tag configured for the deployment type; the proxy in client-hosted mode.
 */
export function createHostApp(options: HostAppOptions) {
  const { assistant } = options;
  const cache = new Map<string, Representation>();
  let cachedBytes = 0;

  const remember = (key: string, value: Representation) => {
    cache.set(key, value);
    cachedBytes += value.body.length;
    for (const [oldKey, old] of cache) {
      if (cachedBytes <= CACHE_BYTES) break;
      cache.delete(oldKey);
      cachedBytes -= old.body.length;
    }
  };

  /** A file as sent: read once, with the script tag added to pages, its validators, and encodings made on demand. */
  async function representation(
    cacheKey: string,
    file: string,
    page?: { tag: string; changedAt: number },
  ): Promise<Representation> {
    const hit = cache.get(cacheKey);
    if (hit) return hit;
    const info = await stat(file);
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    let body = await readFile(file);
    let lastModified = info.mtimeMs;
    if (page && extname(file) === '.html') {
      body = Buffer.from(injectTag(body.toString('utf8'), page.tag));
      // The page changes when the host's settings do, not only when the bundle does.
      lastModified = Math.max(lastModified, page.changedAt);
    }
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const value: Representation = {
      body,
      type,
      etag,
      lastModified: Math.floor(lastModified / 1000) * 1000,
      encoded: {},
    };
    remember(cacheKey, value);
    return value;
  }

  async function send(c: Context, rep: Representation, cacheControl: string): Promise<Response> {
    const headers = new Headers({
      'Content-Type': rep.type,
      ETag: rep.etag,
      'Last-Modified': new Date(rep.lastModified).toUTCString(),
      'Cache-Control': cacheControl,
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
    });
    const ifNoneMatch = c.req.header('if-none-match');
    const ifModifiedSince = Date.parse(c.req.header('if-modified-since') ?? '');
    // RFC 9110 §13.2.2: If-None-Match decides when present (weak comparison); otherwise the date.
    const fresh =
      ifNoneMatch !== undefined
        ? ifNoneMatch
            .split(',')
            .some((tag) => [rep.etag, '*'].includes(tag.trim()) || tag.trim() === rep.etag.slice(2))
        : Number.isFinite(ifModifiedSince) && rep.lastModified <= ifModifiedSince;
    if (fresh) return new Response(null, { status: 304, headers });
    let body = rep.body;
    const encoding =
      COMPRESSIBLE.test(rep.type) && rep.body.length >= MIN_COMPRESS_BYTES
        ? chooseEncoding(c.req.header('accept-encoding'))
        : undefined;
    if (encoding) {
      body = await (rep.encoded[encoding] ??= compress[encoding](rep.body));
      headers.set('Content-Encoding', encoding);
    }
    headers.set('Content-Length', String(body.length));
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { headers });
  }

  /** A file under `root` for a URL path, trying `x`, `x.html` and `x/index.html`; folders without the slash redirect. */
  async function locate(
    root: string,
    urlPath: string,
  ): Promise<{ file: string } | { redirect: string } | undefined> {
    const decoded = decodePath(urlPath);
    if (decoded === undefined) return undefined;
    const inside = (relative: string) => resolveInside(root, relative);
    const relative = decoded.replace(/^\/+/, '');
    const candidates = decoded.endsWith('/')
      ? [`${relative}index.html`]
      : [relative, `${relative}.html`];
    for (const candidate of candidates) {
      const file = inside(candidate);
      if (file && (await isFile(file))) return { file };
    }
    // `/guides` for `guides/index.html`: its relative links only work from `/guides/`.
    if (!decoded.endsWith('/') && (await isFile(inside(`${relative}/index.html`))))
      return { redirect: `/${urlPath.replace(/^\/+/, '')}/` };
    return undefined;
  }

  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    const state = options.state();
    if (state.status === 'ready' || state.status === 'stale')
      c.res.headers.set(BUNDLE_VERSION_HEADER, state.active.name);
    if (state.status === 'stale') c.res.headers.set(BUNDLE_STALE_HEADER, headerSafe(state.reason));
  });

  app.get(ROUTES.health, (c) => c.json({ ok: true }));
  app.get(ROUTES.ready, (c) => {
    const state = options.state();
    switch (state.status) {
      case 'ready':
        return c.json({ ready: true, version: state.active.name, manifest: state.active.manifest });
      case 'stale':
        return c.json({
          ready: true,
          stale: true,
          reason: state.reason,
          version: state.active.name,
          manifest: state.active.manifest,
        });
      case 'disabled':
        return c.json({
          ready: true,
          reason: 'staticExport.enabled is false: no bundle is served',
        });
      case 'starting':
        return c.json({ ready: false, reason: 'The bundle is being downloaded and checked.' }, 503);
      case 'unavailable':
        return c.json({ ready: false, reason: state.reason }, 503);
      default:
        return state satisfies never;
    }
  });

  if (assistant.mode === 'proxy') {
    const proxy = createApp({
      upstream: {
        baseUrl: assistant.upstream,
        ...(options.upstreamKey ? { key: options.upstreamKey } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      },
    });
    app.on(['POST', 'OPTIONS'], ROUTES.discovery, (c) => proxy.fetch(c.req.raw, c.env));
  }

  const embedDir = assistant.mode === 'off' ? undefined : options.embedDir;
  if (embedDir) {
    app.get(`${DEPLOYMENT_EMBED_PATH}*`, async (c) => {
      const name = c.req.path.slice(DEPLOYMENT_EMBED_PATH.length);
      if (!/^[\w.-]+$/.test(name)) return c.notFound();
      const file = join(embedDir, name);
      if (!(await stat(file).catch(() => undefined))?.isFile()) return c.notFound();
      return send(c, await representation(`embed\0${name}`, file), 'no-cache');
    });
  }

  app.get('*', async (c) => {
    const state = options.state();
    if (state.status !== 'ready' && state.status !== 'stale') {
      const reason =
        state.status === 'disabled'
          ? 'Static export is not enabled in this deployment (staticExport.enabled).'
          : state.status === 'starting'
            ? 'The documentation is being installed. Try again in a moment.'
            : `The documentation is not available: ${state.reason}`;
      return c.text(
        reason,
        state.status === 'disabled' ? 404 : 503,
        state.status === 'disabled' ? {} : { 'Retry-After': '10' },
      );
    }
    const found = await locate(state.active.dir, c.req.path);
    if (!found) return c.html(NOT_FOUND_PAGE, 404);
    if ('redirect' in found) return c.redirect(found.redirect, 301);
    const tag = embedDir ? scriptTag(assistant, state.active.manifest) : undefined;
    const { name, activatedAt, dir } = state.active;
    const response = await send(
      c,
      await representation(
        `bundle\0${name}\0${found.file}`,
        found.file,
        tag ? { tag, changedAt: activatedAt } : undefined,
      ),
      'no-cache',
    );
    const links = await agentLinks(dir, found.file);
    if (links) response.headers.set('Link', links);
    return response;
  });

  return app;
}
