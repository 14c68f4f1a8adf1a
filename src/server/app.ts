import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantRequestSchema, describeIssues } from '../protocol/index.js';
import { answer, questionOf, type AnswerDeps, type AssistantSite } from './assistant.js';
import { createModel, type LlmConfig } from './llm/model.js';
import { authenticate, type Org } from './auth.js';
import { createExportService } from './export/jobs.js';
import { exportRoutes } from './export/routes.js';
import { createSigner } from './export/signing.js';
import { normalizePagePath, type DocSection, type DocsSite } from './docs.js';
import { clientIp, errorResponse, readJson } from './http.js';
import { createForwarder, type UpstreamConfig } from './proxy.js';
import { createRateLimiter } from './rate-limit.js';
import { escapeHtml, prefixedLinks, renderDocsPage } from './render.js';
import { readStatic } from './static.js';
import { createRetriever } from './retrieval.js';
import { defaultStores, type Stores } from './stores/index.js';
import { createPageUrls, type PageUrlRule } from './page-urls.js';

export type Plan = Org['plan'];
export type { UpstreamConfig };

/** An organisation: its plan and its assistant (`svc_dsc_…`) and admin (`svc_…`) keys. */
export type OrgConfig = Org;

export interface SiteConfig {
  domain: string;
  org: string;
  docs: DocsSite;
  /** How the site's own generator turns page files into URLs; citations link to this server's /docs pages when absent. */
  pageUrls?: PageUrlRule;
  /** Public URL of this site's docs (origin and base path) for citations. @default the server's publicUrl */
  publicUrl?: string;
}

export interface AppOptions {
  orgs?: OrgConfig[];
  sites?: SiteConfig[];
  /** Folder for threads, export jobs and rate-limit counters; in memory only when absent. */
  dataDir?: string;
  /** Stores to use instead of the files under `dataDir` (e.g. a database shared by several instances). */
  stores?: Partial<Stores>;
  /**
   * Fail the export jobs left running and remove their half-written files at start. Of several
   * processes sharing the stores, only the first may: the others would fail live jobs. @default true
   */
  recoverOnStart?: boolean;
  /** Thread retention. */
  threads?: {
    /** Turns kept per thread; older turns are dropped. @default 100 */
    maxTurns?: number;
    /** Threads not continued for this many days are deleted. @default 30 */
    maxAgeDays?: number;
    /** Threads kept at most; the least recently continued go first. @default 100000 */
    maxThreads?: number;
  };
  /** Source of the current time, so tests can move it. @default Date.now */
  now?: () => number;
  limits?: {
    /** SPEC §8; charged only for authenticated, valid requests. @default 10000 */
    orgPerHour?: number;
    /** SPEC §8; charged for every assistant request, valid or not. @default 10000 */
    ipPerDay?: number;
    /** One IP's share of one organisation's hourly quota, so a single address cannot use it all up. @default orgPerHour / 5 */
    ipPerOrgHour?: number;
    /** @default 1 MiB */
    maxBodyBytes?: number;
  };
  /**
   * Proxies you run in front of this server: `true` (one) or their number. The client IP is then
   * the X-Forwarded-For entry the outermost of them appended, never one the client wrote. @default false
   */
  trustProxy?: boolean | number;
  /** Public origin used in answer links; the request's own origin when absent. */
  publicUrl?: string;
  /** Forward the assistant operation to this service instead of answering locally. */
  upstream?: UpstreamConfig;
  /** Pause between streamed text chunks. @default 0 */
  chunkDelayMs?: number;
  /** Answer with a language model (any OpenAI-compatible server, OpenAI or Anthropic) instead of quoting the docs. */
  llm?: LlmConfig;
  /** Timing points around the model call, for benchmarks. */
  trace?: AnswerDeps['trace'];
  /** Built files (the package's dist/): gallery at /, script tag at /embed/, React demo at /react/. */
  assetsDir?: string;
  /** Assistant key the demo pages carry (assistant keys are public by design). */
  demoKey?: string;
  /** Static export settings. */
  exports?: {
    /** Exports running at once. @default 2 */
    concurrency?: number;
    /** How long a bundle link works. @default 3600 */
    linkTtlSeconds?: number;
    /** Finished jobs and their bundles are deleted after this many days. @default 7 */
    retentionDays?: number;
    /** Jobs one organisation may have queued or running at once. @default 3 */
    maxActivePerOrg?: number;
    /** Jobs one organisation may start per hour. @default 20 */
    startsPerOrgHour?: number;
  };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const DOCS_BASE_PATH = '/docs';
export const REACT_BASE_PATH = '/react';
/** Where this server serves the docs site; a reader's `currentPath` on any of them names the same page. */
const SITE_BASE_PATHS = [DOCS_BASE_PATH, REACT_BASE_PATH];
const STARTER_QUESTIONS = [
  'How do I install it?',
  'How do I change the theme?',
  'What is static export?',
];
/**
 * Headers a browser page must read across origins: the thread rides in `X-Thread-Id`/`X-Thread-Key`
 * because a stock `useChat` drops `threadId` from the finish part.
 */
const EXPOSED_HEADERS = ['X-Thread-Id', 'X-Thread-Key', 'Retry-After', 'X-Vercel-AI-Data-Stream'];

export function createApp(options: AppOptions = {}) {
  const now = options.now ?? Date.now;
  // The model is made once: a bad configuration fails at start, not on the first question.
  const llm = options.llm ? { config: options.llm, model: createModel(options.llm) } : undefined;
  const maxBodyBytes = options.limits?.maxBodyBytes ?? 1024 * 1024;
  const stores: Stores = { ...defaultStores(options.dataDir), ...options.stores };
  const orgPerHour = options.limits?.orgPerHour ?? 10_000;
  const orgLimiter = createRateLimiter(stores.rateLimits, 'org', orgPerHour, HOUR);
  const ipLimiter = createRateLimiter(
    stores.rateLimits,
    'ip',
    options.limits?.ipPerDay ?? 10_000,
    DAY,
  );
  const ipOrgLimiter = createRateLimiter(
    stores.rateLimits,
    'ip-org',
    options.limits?.ipPerOrgHour ?? Math.max(1, Math.ceil(orgPerHour / 5)),
    HOUR,
  );
  const threads = stores.threads;
  const forward = options.upstream ? createForwarder(options.upstream) : undefined;

  const orgByKey = new Map<string, Org>();
  for (const org of options.orgs ?? []) for (const key of org.keys) orgByKey.set(key, org);
  const sites = new Map(
    (options.sites ?? []).map((site) => {
      const publicUrl = site.publicUrl ?? options.publicUrl;
      const urls = site.pageUrls
        ? createPageUrls(
            site.docs.pages,
            site.pageUrls,
            publicUrl ? new URL(publicUrl).pathname : '',
          )
        : undefined;
      return [site.domain, { ...site, retriever: createRetriever(site.docs), urls }] as const;
    }),
  );
  const docsSite = options.sites?.[0];

  // Without a data folder, jobs and bundles still need disk: a private temporary folder, made when
  // the first job starts.
  const exportDir = options.dataDir
    ? join(options.dataDir, 'exports')
    : () => mkdtempSync(join(tmpdir(), 'docs-assistant-exports-'));
  const exportService = createExportService({
    dir: exportDir,
    store: stores.jobs,
    ...(stores.bundles ? { bundles: stores.bundles } : {}),
    now,
    site: (domain) => sites.get(domain)?.docs,
    ...(options.exports?.concurrency ? { concurrency: options.exports.concurrency } : {}),
  });
  const retention = async () => {
    const age = (days: number) => new Date(now() - days * DAY).toISOString();
    await threads.prune({
      updatedBefore: age(options.threads?.maxAgeDays ?? 30),
      maxThreads: options.threads?.maxThreads ?? 100_000,
    });
    await exportService.prune(age(options.exports?.retentionDays ?? 7));
  };
  let retentionTimer: NodeJS.Timeout | undefined;
  /** Resolves once every store is open and writable; rejects with the reason when one is not. */
  const ready = (async () => {
    await Promise.all([stores.threads.open(), stores.jobs.open(), stores.rateLimits.open()]);
    const signer = createSigner(await stores.signingKey.getOrCreate(randomBytes(32)));
    if (options.recoverOnStart !== false) await exportService.recover();
    await retention();
    retentionTimer = setInterval(
      () =>
        retention().catch((error: unknown) =>
          console.error('[docs-assistant] retention failed:', error),
        ),
      HOUR,
    ).unref();
    return signer;
  })();
  // Requests wait for `ready`; an embedder that never awaits it must not crash on the rejection.
  ready.catch(() => {});
  const signer = ready;

  const originOf = (c: Context) =>
    options.publicUrl?.replace(/\/+$/, '') ?? new URL(c.req.url).origin;
  const docsLinks = prefixedLinks(DOCS_BASE_PATH);
  const pageUrlFor =
    (
      c: Context,
      site: {
        urls?: ReturnType<typeof createPageUrls> | undefined;
        publicUrl?: string | undefined;
      },
    ) =>
    (section: DocSection) => {
      const anchor = section.anchor ? `#${section.anchor}` : '';
      const path = site.urls?.urlOf(section.pagePath);
      if (path === undefined) return `${originOf(c)}${docsLinks.page(section.pagePath)}${anchor}`;
      return `${site.publicUrl?.replace(/\/+$/, '') ?? originOf(c)}${path}${anchor}`;
    };

  const app = new Hono();
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type'],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    }),
  );

  app.onError((error) => {
    console.error('[docs-assistant] unexpected error:', error);
    return errorResponse('internal', 'Something went wrong on the server. Please try again.');
  });
  app.notFound(() => errorResponse('not_found', 'There is nothing at this address.'));

  app.get('/healthz', (c) => c.json({ ok: true }));
  app.use('*', async (_c, next) => {
    try {
      await ready;
    } catch {
      // `serve` stops before listening in this case; an embedder that listens anyway gets a clear 503.
      return errorResponse(
        'storage_unavailable',
        'The server cannot use its data folder. See the server log.',
      );
    }
    await next();
  });

  app.post('/discovery/v1/assistant/:domain/message', async (c) => {
    // Rate-limit policy (README): every request counts against its IP; only authenticated, valid
    // requests count against the organisation, so junk from one address cannot lock readers out.
    const ip = clientIp(c, options.trustProxy ?? false);
    const ipLimit = await ipLimiter.hit(ip, now());
    if (!ipLimit.ok) {
      return errorResponse('rate_limited', 'Too many requests from this IP address today.', {
        retryAfterSeconds: ipLimit.retryAfterSeconds,
      });
    }
    const domain = c.req.param('domain');
    if (forward) return forward(c, domain, ip, maxBodyBytes);

    const auth = authenticate(c.req.header('authorization'), orgByKey, 'assistant');
    if (!auth.ok) return auth.response;
    const org = auth.org;
    const site = sites.get(domain);
    if (!site)
      return errorResponse(
        'domain_not_found',
        `No docs site is configured for domain "${domain.slice(0, 100)}".`,
      );
    if (site.org !== org.id)
      return errorResponse(
        'forbidden',
        'This key belongs to another organisation than this domain.',
      );

    const body = await readJson(c.req.raw, maxBodyBytes);
    if (!body.ok) return body.response;
    const parsed = assistantRequestSchema.safeParse(body.value);
    if (!parsed.success) return errorResponse('invalid_request', describeIssues(parsed.error));
    const lastUser = parsed.data.messages.findLast((message) => message.role === 'user');
    if (!lastUser || !questionOf(lastUser))
      return errorResponse(
        'invalid_request',
        'messages: the conversation must end with a user message that has text.',
      );

    const shareLimit = await ipOrgLimiter.hit(`${org.id}|${ip}`, now());
    if (!shareLimit.ok) {
      return errorResponse(
        'rate_limited',
        'Too many requests from this IP address for this organisation this hour.',
        { retryAfterSeconds: shareLimit.retryAfterSeconds },
      );
    }
    const orgLimit = await orgLimiter.hit(org.id, now());
    if (!orgLimit.ok) {
      return errorResponse('rate_limited', 'Too many requests for this organisation this hour.', {
        retryAfterSeconds: orgLimit.retryAfterSeconds,
      });
    }

    const assistantSite: AssistantSite = { domain, retriever: site.retriever };
    // The reader's URL is the generator's (`/guides/setup/`) or this server's (`/react/start`);
    // retrieval knows page paths.
    const { currentPath } = parsed.data;
    const request = currentPath
      ? {
          ...parsed.data,
          currentPath:
            site.urls?.pageAt(currentPath) ?? normalizePagePath(currentPath, SITE_BASE_PATHS),
        }
      : parsed.data;
    return answer(assistantSite, request, {
      threads,
      maxTurns: options.threads?.maxTurns ?? 100,
      now,
      pageUrl: pageUrlFor(c, site),
      chunkDelayMs: options.chunkDelayMs ?? 0,
      llm,
      signal: c.req.raw.signal,
      ...(options.trace ? { trace: options.trace } : {}),
    });
  });

  app.route(
    '/',
    exportRoutes({
      service: exportService,
      signer,
      orgByKey,
      site: (domain) => sites.get(domain),
      now,
      origin: originOf,
      linkTtlSeconds: options.exports?.linkTtlSeconds ?? 3600,
      maxActivePerOrg: options.exports?.maxActivePerOrg ?? 3,
      startLimiter: createRateLimiter(
        stores.rateLimits,
        'export-org',
        options.exports?.startsPerOrgHour ?? 20,
        HOUR,
      ),
      maxBodyBytes,
      basePaths: SITE_BASE_PATHS,
    }),
  );

  const demoAttributes = (c: Context, basePath: string) => {
    const origin = originOf(c);
    const attributes: Record<string, string> = {
      'data-domain': docsSite?.domain ?? '',
      'data-base-url': origin,
      'data-docs-base-url': `${origin}${basePath}/`,
      'data-starter-questions': STARTER_QUESTIONS.join('|'),
    };
    if (options.demoKey) attributes['data-api-key'] = options.demoKey;
    return Object.entries(attributes)
      .map(([name, value]) => `${name}="${escapeHtml(value)}"`)
      .join(' ');
  };
  // The docs site twice: with the script tag (/docs) and with the React import (/react).
  const withScriptTag = (c: Context) => ({
    head: `<script src="/embed/docs-assistant.js" defer ${demoAttributes(c, DOCS_BASE_PATH)}></script>`,
  });
  const withReact = (c: Context) => ({
    head: '<link rel="stylesheet" href="/styles.css"><script type="module" src="/assets/react.js"></script>',
    bodyEnd: `<div id="docs-assistant" ${demoAttributes(c, REACT_BASE_PATH)}></div>`,
  });

  async function servePage(
    c: Context,
    basePath: string,
    extras: { head?: string; bodyEnd?: string },
  ): Promise<Response> {
    if (!docsSite) return errorResponse('not_found', 'No docs site is configured.');
    let sitePath: string;
    try {
      sitePath = decodeURIComponent(c.req.path).slice(basePath.length) || '/';
    } catch {
      // A malformed %-escape names no page: 404, not the 500 a thrown URIError would give.
      return errorResponse('not_found', 'There is no docs page at this address.');
    }
    // Images and other files of the docs folder, by the list made at load (never an arbitrary path).
    if (docsSite.docs.dir && docsSite.docs.files.includes(sitePath)) {
      const file = await readStatic(docsSite.docs.dir, sitePath.slice(1));
      if (file) return file;
    }
    const page = docsSite.docs.byPath.get(normalizePagePath(sitePath));
    if (!page) return errorResponse('not_found', `No docs page at ${c.req.path.slice(0, 200)}.`);
    return c.html(
      renderDocsPage(docsSite.docs, page, {
        links: prefixedLinks(basePath),
        ...(options.assetsDir ? extras : {}),
      }),
    );
  }
  app.get(DOCS_BASE_PATH, (c) => servePage(c, DOCS_BASE_PATH, withScriptTag(c)));
  app.get(`${DOCS_BASE_PATH}/*`, (c) => servePage(c, DOCS_BASE_PATH, withScriptTag(c)));
  app.get(REACT_BASE_PATH, (c) => servePage(c, REACT_BASE_PATH, withReact(c)));
  app.get(`${REACT_BASE_PATH}/*`, (c) => servePage(c, REACT_BASE_PATH, withReact(c)));

  const assets = options.assetsDir;
  if (assets) {
    app.get('/styles.css', async (c) => (await readStatic(assets, 'styles.css')) ?? c.notFound());
    app.get(
      '/embed/*',
      async (c) =>
        (await readStatic(join(assets, 'embed'), c.req.path.slice('/embed/'.length))) ??
        c.notFound(),
    );
    app.get(
      '/',
      async (c) =>
        (await readStatic(join(assets, 'demo'), 'index.html')) ?? c.redirect(DOCS_BASE_PATH),
    );
    app.get(
      '/*',
      async (c) => (await readStatic(join(assets, 'demo'), c.req.path.slice(1))) ?? c.notFound(),
    );
  } else {
    app.get('/', (c) =>
      docsSite
        ? c.redirect(DOCS_BASE_PATH)
        : errorResponse('not_found', 'No docs site is configured.'),
    );
  }

  return Object.assign(app, {
    exports: exportService,
    /** Resolves when the stores are open; rejects (with the reason) when one cannot be used. */
    ready: ready.then(() => {}),
    /** Saves what is buffered (rate-limit counters, pending writes). */
    close: async () => {
      clearInterval(retentionTimer);
      exportService.close();
      await Promise.allSettled([
        stores.threads.close(),
        stores.jobs.close(),
        stores.rateLimits.close(),
      ]);
    },
  });
}

export type App = ReturnType<typeof createApp>;
