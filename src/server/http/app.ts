import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_READABLE_HEADERS, ROUTES } from '../../protocol/index.js';
import type { Trace } from '../answering/question.js';
import { createModel, type LlmConfig, type SilenceTimer } from '../answering/llm/model.js';
import {
  createDenseRetrieval,
  memoryVectorStore,
  type EmbedConfig,
  type VectorStore,
} from '../answering/dense.js';
import type { Org } from './auth.js';
import { createExportService } from '../export/jobs.js';
import { exportRoutes } from '../export/routes.js';
import { createSigner } from '../export/signing.js';
import type { DocSection, DocsSite } from '../site/docs.js';
import { errorResponse } from './middleware.js';
import { createForwarder, type UpstreamConfig } from './proxy.js';
import { createRateLimiter } from './rate-limit.js';
import { isScriptUrl, prefixedLinks } from '../site/render.js';
import { docLinkTarget, sectionLinker, type LinkUrl } from '../site/doc-links.js';
import { createRetriever, type IndexStore } from '../answering/retrieval.js';
import { apiRoutes, type AnsweringSite } from './routes/api.js';
import { noInsights, type InsightsSink } from './turn.js';
import { DOCS_BASE_PATH, demoRoutes, SITE_BASE_PATHS } from './routes/demo.js';
import { proxyRoutes } from './routes/proxy.js';
import { agentRoutes } from './routes/agents.js';
import { defaultStores, fingerprintKey, hashFingerprint, type Stores } from '../stores/index.js';
import { createRecorder } from '../insights/recorder.js';
import { insightsRoutes } from '../insights/routes.js';
import { createPageUrls, type PageUrlRule } from '../site/page-urls.js';
import { parsePagePath } from '../site/page-path.js';
import { servedMarkdownUrls, type SiteMarkdownUrls } from '../site/page-markdown.js';

export { DOCS_BASE_PATH, REACT_BASE_PATH } from './routes/demo.js';
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
  /** Starter questions of the /docs pages' script tag. @default the root page's `starters` frontmatter, else suggested (routes/demo.ts) */
  starters?: string[];
  /** Let agents use the MCP server, search and page operations without a key (a public docs site). @default false */
  openToAgents?: boolean;
}

export interface AppOptions {
  orgs?: OrgConfig[];
  sites?: SiteConfig[];
  /** Folder for threads, export jobs and rate-limit counters; in memory only when absent. */
  dataDir?: string;
  /** Stores to use instead of the files under `dataDir` (e.g. a database shared by several instances). */
  stores?: Partial<Stores>;
  /**
   * Keeps each site's built index between starts (`serve`: under `dataDir`'s `cache/`), used for
   * sites whose docs carry a `stamp`. Absent: indexes are built at every start.
   */
  indexStore?: IndexStore;
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
  /** Record questions and feedback for the owner's insights (docs/insights.md); false (`serve --no-insights`) records nothing. @default true */
  recordInsights?: boolean;
  /** Insights older than this many days are deleted. @default 90 */
  insightsRetentionDays?: number;
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
  /** Starts the model's silence timer (`llm.timeoutMs`), so tests fire it instead of waiting. @default setTimeout */
  silenceTimer?: SilenceTimer;
  /** Answer with a language model (any OpenAI-compatible server, OpenAI or Anthropic) instead of quoting the docs. */
  llm?: LlmConfig;
  /**
   * The owner's embedding model (any OpenAI-compatible `/v1/embeddings`): dense retrieval fused
   * with the keyword index. Section vectors are kept under `dataDir`'s `vectors/` and reused.
   */
  embed?: EmbedConfig;
  /** Where section vectors are kept instead of `dataDir`'s `vectors/`. */
  vectorStore?: VectorStore;
  /** Timing points around the model call, for benchmarks. */
  trace?: Trace;
  /** Also called with each turn's summary when it settles, besides the server's own insights (`recordInsights`). @default none */
  insights?: InsightsSink;
  /** Built files (the package's dist/): gallery at /, script tag at /embed/, React demo at /react/. */
  assetsDir?: string;
  /** Assistant key the demo pages carry (assistant keys are public by design). */
  demoKey?: string;
  /** Above this size (bytes of Markdown), llms-full.txt (served and in export bundles) is split by sidebar section. @default 5 MiB */
  fullTextMaxBytes?: number;
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

export function createApp(options: AppOptions = {}) {
  const now = options.now ?? Date.now;
  // The model is made once: a bad configuration fails at start, not on the first question.
  const llm = options.llm
    ? { config: options.llm, model: createModel(options.llm), silenceTimer: options.silenceTimer }
    : undefined;
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
  const insightsRetentionDays = options.insightsRetentionDays ?? 90;
  const recorder = createRecorder(stores.insights, {
    recording: options.recordInsights !== false,
  });
  const forward = options.upstream ? createForwarder(options.upstream) : undefined;

  const vectorStore = options.vectorStore ?? stores.vectors ?? memoryVectorStore();
  const orgByKey = new Map<string, Org>();
  for (const org of options.orgs ?? []) for (const key of org.keys) orgByKey.set(key, org);
  /** A site as the routes use it: its config, its retriever and its page URLs, made from its docs. */
  const answeringSite = (site: SiteConfig) => {
    const publicUrl = site.publicUrl ?? options.publicUrl;
    const urls = site.pageUrls
      ? createPageUrls(site.docs.pages, site.pageUrls, publicUrl ? new URL(publicUrl).pathname : '')
      : undefined;
    const dense = options.embed
      ? createDenseRetrieval(site.docs, options.embed, { store: vectorStore })
      : undefined;
    return {
      ...site,
      retriever: createRetriever(site.docs, { store: options.indexStore }),
      urls,
      ...(dense ? { dense } : {}),
    };
  };
  // Entries are replaced whole, never changed (`replaceDocs`): an answer holds the one it began with.
  const sites = new Map(
    (options.sites ?? []).map((site) => [site.domain, answeringSite(site)] as const),
  );

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
    fullTextMaxBytes: options.fullTextMaxBytes,
    ...(options.exports?.concurrency ? { concurrency: options.exports.concurrency } : {}),
  });
  const retention = async () => {
    const age = (days: number) => new Date(now() - days * DAY).toISOString();
    await threads.prune({
      updatedBefore: age(options.threads?.maxAgeDays ?? 30),
      maxThreads: options.threads?.maxThreads ?? 100_000,
    });
    await exportService.prune(age(options.exports?.retentionDays ?? 7));
    await stores.insights.prune(age(insightsRetentionDays));
  };
  let retentionTimer: NodeJS.Timeout | undefined;
  /** Resolves once every store is open and writable; rejects with the reason when one is not. */
  const ready = (async () => {
    await Promise.all([
      stores.threads.open(),
      stores.insights.open(),
      stores.jobs.open(),
      stores.rateLimits.open(),
    ]);
    const signingKey = await stores.signingKey.getOrCreate(randomBytes(32));
    const fpKey = fingerprintKey(signingKey);
    if (options.recoverOnStart !== false) {
      await exportService.recover();
      // Threads stored before fingerprints were hashed get theirs hashed, once.
      const hashed = await threads.hashFingerprints(fpKey.toString('hex'));
      if (hashed) console.error(`[docs-assistant] hashed the fingerprints of ${hashed} threads`);
    }
    await retention();
    retentionTimer = setInterval(
      () =>
        retention().catch((error: unknown) =>
          console.error('[docs-assistant] retention failed:', error),
        ),
      HOUR,
    ).unref();
    return { signer: createSigner(signingKey), fpKey };
  })();
  // Requests wait for `ready`; an embedder that never awaits it must not crash on the rejection.
  ready.catch(() => {});
  const signer = ready.then((keys) => keys.signer);
  signer.catch(() => {});
  /** A reader's `fp` as the server keeps it: a keyed hash, never the value itself. */
  const fingerprint = async (fp: string) => hashFingerprint((await ready).fpKey, fp);

  const originOf = (c: Context) =>
    options.publicUrl?.replace(/\/+$/, '') ?? new URL(c.req.url).origin;
  const docsLinks = prefixedLinks(DOCS_BASE_PATH);
  const pageUrlAt =
    (origin: string, site: AnsweringSite) => (section: Pick<DocSection, 'pagePath' | 'anchor'>) => {
      const anchor = section.anchor ? `#${section.anchor}` : '';
      const path = site.urls?.urlOf(section.pagePath);
      if (path === undefined) return `${origin}${docsLinks.page(section.pagePath)}${anchor}`;
      return `${site.publicUrl?.replace(/\/+$/, '') ?? origin}${path}${anchor}`;
    };
  // Links in quoted passages go where citations go: a page to its URL on the reader's site, a file
  // beside the pages (this server's /docs copy, or under the site's public URL); a path a built
  // site does not hold keeps its words only.
  const linkUrlAt = (origin: string, site: AnsweringSite & SiteConfig): LinkUrl => {
    const pageUrl = pageUrlAt(origin, site);
    const fileBase = site.urls
      ? (site.publicUrl?.replace(/\/+$/, '') ?? origin)
      : `${origin}${docsLinks.file('')}`;
    return (raw, page, image) => {
      if (isScriptUrl(raw, image)) return undefined;
      const target = docLinkTarget(raw, page, site.docs);
      if (!target) return raw;
      if (target.kind === 'page') return pageUrl(target);
      if (target.kind === 'missing') return undefined;
      return `${fileBase}${encodeURI(target.path)}${target.anchor ? `#${target.anchor}` : ''}`;
    };
  };
  /**
   * Where agents find a site's pages: the pages at the URLs citations use (the site's own, with a
   * URL style), their Markdown at this server's copy (`/docs/x.md`), the one address that serves it.
   * With a URL style and no site-level publicUrl, `--public-url` is the docs' public root, not this
   * server's address: the request's origin is.
   */
  const markdownUrlsOf = (
    c: Context,
    site: AnsweringSite & SiteConfig,
    basePath: string = DOCS_BASE_PATH,
  ): SiteMarkdownUrls => {
    const origin = originOf(c);
    const own = servedMarkdownUrls(
      site.urls && !site.publicUrl ? new URL(c.req.url).origin : origin,
      basePath,
    );
    if (!site.urls) return own;
    const { urls } = site;
    const pageUrl = pageUrlAt(origin, site);
    const publicRoot = site.publicUrl?.replace(/\/+$/, '') ?? origin;
    const publicOrigin = URL.canParse(publicRoot) ? new URL(publicRoot).origin : publicRoot;
    return {
      ...own,
      page: (path) => pageUrl({ pagePath: parsePagePath(path), anchor: '' }),
      file: (path) => `${publicRoot}${path}`,
      // The site's own URL of a page, else this server's copy (its HTML or Markdown).
      pathOf: (url) => {
        const at = url.startsWith(`${publicOrigin}/`)
          ? urls.pageAt(url.slice(publicOrigin.length))
          : undefined;
        return at ?? own.pathOf(url);
      },
    };
  };
  const linkerOf = (site: AnsweringSite & SiteConfig) =>
    sectionLinker(site.docs, (origin) => linkUrlAt(origin, site));
  const linkers = new Map([...sites.values()].map((site) => [site.domain, linkerOf(site)]));

  const app = new Hono();
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      // The MCP Streamable HTTP transport's own headers, so a browser-based agent can call it.
      allowHeaders: ['Authorization', 'Content-Type', 'Mcp-Protocol-Version', 'Mcp-Session-Id'],
      exposeHeaders: [...BROWSER_READABLE_HEADERS],
      maxAge: 600,
    }),
  );

  app.onError((error) => {
    console.error('[docs-assistant] unexpected error:', error);
    return errorResponse('internal', 'Something went wrong on the server. Please try again.');
  });
  app.notFound((c) => {
    const allowed = allowedMethods(app.routes, c.req.path);
    // A route that takes this method and still did not answer had nothing at this address.
    if (allowed.length === 0 || allowed.includes(c.req.method))
      return errorResponse('not_found', 'There is nothing at this address.');
    const response = errorResponse(
      'method_not_allowed',
      `This address takes ${allowed.join(', ')}, not ${c.req.method}.`,
    );
    response.headers.set('Allow', allowed.join(', '));
    return response;
  });

  app.get(ROUTES.health, (c) => c.json({ ok: true }));
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

  const trustProxy = options.trustProxy ?? false;
  const limiters = { ip: ipLimiter, ipOrg: ipOrgLimiter, org: orgLimiter };
  // Behind --upstream the other service answers and keeps its own analytics: nothing to record here.
  if (!forward)
    app.route(
      '/',
      insightsRoutes({
        store: stores.insights,
        threads,
        orgByKey,
        site: (domain) => sites.get(domain),
        domains: [...sites.keys()],
        limiters,
        trustProxy,
        now,
        maxBodyBytes,
        recording: options.recordInsights !== false,
        retentionDays: insightsRetentionDays,
        fingerprint,
        assetsDir: options.assetsDir,
      }),
    );
  if (forward) app.route('/', proxyRoutes({ forward, ipLimiter, trustProxy, now, maxBodyBytes }));
  else
    app.route(
      '/',
      apiRoutes({
        orgByKey,
        site: (domain) => sites.get(domain),
        limiters,
        trustProxy,
        fingerprint,
        now,
        maxBodyBytes,
        basePaths: SITE_BASE_PATHS,
        turnSite: (c, site) => {
          const origin = originOf(c);
          return {
            domain: site.domain,
            retriever: site.retriever,
            dense: site.dense,
            pageUrl: pageUrlAt(origin, site),
            linkedSection: linkers.get(site.domain)?.(origin) ?? ((section) => section),
            chunkDelayMs: options.chunkDelayMs ?? 0,
            model: llm,
            signal: c.req.raw.signal,
            trace: options.trace,
          };
        },
        turns: {
          threads,
          maxTurns: options.threads?.maxTurns ?? 100,
          now,
          // The owner's insights keep every settled turn; an embedder's own sink hears of it too.
          insights: (summary) => {
            recorder.record(summary);
            return (options.insights ?? noInsights)(summary);
          },
        },
      }),
    );
  if (!forward)
    app.route(
      '/',
      agentRoutes({
        orgByKey,
        site: (domain) => sites.get(domain),
        limiters: { ip: ipLimiter, ipOrg: ipOrgLimiter, org: orgLimiter },
        trustProxy,
        now,
        maxBodyBytes,
        markdownUrls: (c, site) => markdownUrlsOf(c, sites.get(site.domain)!),
      }),
    );
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
  app.route(
    '/',
    demoRoutes({
      site: () => options.sites?.[0] && sites.get(options.sites[0].domain),
      assetsDir: options.assetsDir,
      demoKey: options.demoKey,
      origin: originOf,
      markdownUrls: (c, basePath) =>
        markdownUrlsOf(c, sites.get(options.sites![0]!.domain)!, basePath),
      fullTextMaxBytes: options.fullTextMaxBytes,
    }),
  );

  return Object.assign(app, {
    exports: exportService,
    /** Owner insights: `record` keeps a settled turn (never blocks or fails the answer). */
    insights: recorder,
    /**
     * Serves `docs` as the site `domain`'s pages from now on (`serve --watch`): new questions,
     * searches, pages and exports read them; an answer already streaming ends from the pages it began with.
     */
    replaceDocs(domain: string, docs: DocsSite): void {
      const old = sites.get(domain);
      if (!old) throw new Error(`No site ${domain} to replace the docs of.`);
      const { retriever: _retriever, urls: _urls, dense: _dense, ...config } = old;
      const site = answeringSite({ ...config, docs });
      sites.set(domain, site);
      linkers.set(domain, linkerOf(site));
    },
    /** Resolves when the stores are open; rejects (with the reason) when one cannot be used. */
    ready: ready.then(() => {}),
    /** Saves what is buffered (rate-limit counters, pending writes). */
    close: async () => {
      clearInterval(retentionTimer);
      exportService.close();
      await recorder.settled();
      await Promise.allSettled([
        stores.threads.close(),
        stores.insights.close(),
        stores.jobs.close(),
        stores.rateLimits.close(),
      ]);
    },
  });
}

export type App = ReturnType<typeof createApp>;

/**
 * The methods the app's routes take at `path` (RFC 9110 §15.5.6: a 405 names them in Allow). Only
 * routes without a wildcard count, so an unknown path under a catch-all page route stays a 404.
 */
export function allowedMethods(
  routes: readonly { method: string; path: string }[],
  path: string,
): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const pattern = route.path
      .split('/')
      .map((segment) =>
        // `:name` is any one segment; `:name{regex}` only what its pattern matches.
        segment.startsWith(':')
          ? `(?:${/\{(.*)\}$/.exec(segment)?.[1] ?? '[^/]+'})`
          : segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    if (new RegExp(`^${pattern}/?$`).test(path)) methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
