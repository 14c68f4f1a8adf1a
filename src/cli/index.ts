import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  agentUrls,
  assistantMessageUrl,
  classifyKey,
  wrongKeySentence,
} from '../protocol/index.js';
import { createApp, DOCS_BASE_PATH, type AppOptions } from '../server/http/app.js';
import {
  ConfigError,
  DEMO,
  DIST_DIR,
  fileConfig,
  folderConfig,
  SAMPLE_DOCS_DIR,
} from '../server/config.js';

import {
  isClusterWorker,
  leaveCluster,
  recoversOnStart,
  startWorkers,
  workerStores,
} from '../server/http/cluster.js';
import { parsePageUrlRule, type PageUrlRule } from '../server/site/page-urls.js';
import { siteReader, watchSite, type SiteRead, type SiteSource } from '../server/site/watch.js';
import { diskPageStore, removeOtherVersions } from '../server/site/page-cache.js';
import { diskIndexStore } from '../server/answering/index-cache.js';
import { DEFAULT_LANGUAGE, type DocsSite } from '../server/site/docs.js';
import { listen, portTaken } from '../server/http/serve.js';
import {
  checkLlmConfig,
  describeLlm,
  type LlmConfig,
  type LlmProvider,
} from '../server/answering/llm/model.js';
import { describeEmbed, EMBED_API_KEY_VARIABLE } from '../server/answering/dense.js';
import { describeDatabase, postgresStores } from '../server/stores/postgres.js';
import { parseS3Url, s3BundleStore } from '../server/stores/s3.js';
import { defaultStores } from '../server/stores/index.js';
import { HOST_USAGE, runHost } from './host.js';
import { MCP_USAGE, runMcp } from './mcp.js';
import { EXPORT_USAGE, LINK_USAGE, runExport, STATUS_USAGE } from './export.js';
import { INSIGHTS_USAGE, runInsights } from './insights.js';
import {
  closestName,
  EXIT,
  existingPath,
  integerOption,
  parseArgsMessage,
  portOption,
  stringOption,
  urlOption,
  UsageError,
  type CliIo,
  type OptionValues,
} from './io.js';

export { EXIT, processIo, UsageError, type CliIo, type ExitCode } from './io.js';

interface Command {
  summary: string;
  usage: string;
  /** Help for a subcommand, when the command has them. */
  help?(positionals: string[]): string | undefined;
  options: NonNullable<ParseArgsConfig['options']>;
  run(values: OptionValues, positionals: string[], io: CliIo): Promise<number>;
}

const serveCommand: Command = {
  summary: 'Run the reference server (assistant API, docs pages, demo).',
  usage: `Usage: docs-assistant serve [options]

Serves a folder of Markdown docs through the assistant API (SPEC §4.1), with auth, rate limits
and threads, plus the docs as HTML under /docs.

Options:
  --docs DIR          Markdown/MDX docs folder (default: the bundled sample docs)
  --site DIR          Or the HTML a docs generator built (VitePress, Docusaurus, Starlight,
                      Sphinx, MkDocs, …): each page's main content, cited at the URL the build
                      serves it at (with --public-url, the site's origin)
  --watch             Re-read --docs or --site when a file under it changes: new questions,
                      searches and pages see the edit (answers already streaming end from the
                      pages they began with); one log line per re-index
  --domain NAME       Domain identifier the folder is served as (default: demo)
  --config FILE       JSON config with several organisations and sites (instead of --docs);
                      each site may give its "siteName" and "starters" there
  --site-name NAME    The name in the docs pages' titles and header (default: what the root
                      page says: siteName frontmatter, og:site_name, its <title>'s site part,
                      its leading <h1> or title; else package.json's name, else the folder's)
  --starters 'Q1|Q2'  Up to 3 starter questions for the /docs pages' widget, or none
                      (default: the root page's starters frontmatter, else "Tell me about …"
                      the pages the root page links to, each checked to get an answer)
  --port N            Port (default: 4321; 0 picks a free one)
  --host HOST         Interface (default: 127.0.0.1)
  --data DIR          Where threads are stored, and the parsed pages and index kept
                      for the next start (default: .docs-assistant)
  --public-url URL    Origin used in answer, page and bundle links (recommended; default:
                      the request's Host header); with a
                      URL style, the docs' public root, e.g. https://example.com/docs
  --open-to-agents    Let AI agents use this site's MCP server (/mcp/DOMAIN) and search and
                      page operations without a key: for public docs. Rate limits still
                      apply. Without it agents need the assistant key (docs/agents.md)
  --url-style STYLE   Link citations the way the site's generator routes pages:
                      plain, vitepress, vitepress-clean, docusaurus or starlight
  --page-url TEMPLATE Or a template for a page's public path, e.g. '/{path}/'
  --upstream URL      Proxy the assistant operation to another service; its key is read
                      from DOCS_ASSISTANT_UPSTREAM_KEY, never from a flag
  --chunk-delay-ms N  Pause between streamed text chunks (default: 0)
  --llm-base-url URL  Answer with a language model behind an OpenAI-compatible API
                      (Ollama: http://127.0.0.1:11434/v1); its key, if it needs one, is read
                      from DOCS_ASSISTANT_LLM_API_KEY, never from a flag
  --llm-model NAME    The model to ask (required with --llm-base-url or --llm-provider)
  --llm-provider P    openai-compatible (default), openai or anthropic
  --llm-timeout-ms N  Longest wait for the model's next part, the first included (default: 60000)
  --embed-base-url URL  Also retrieve with your embedding model behind an OpenAI-compatible
                      /v1/embeddings (Ollama: http://127.0.0.1:11434/v1); its key, if it needs
                      one, is read from DOCS_ASSISTANT_EMBED_API_KEY, never from a flag
  --embed-model NAME  The embedding model (required with --embed-base-url)
  --link-ttl N        Seconds a static export bundle link works (default: 3600)
  --rate-limit-org N  Valid requests per organisation per hour (default: 10000)
  --rate-limit-ip N   Requests per IP address per day (default: 10000)
  --trust-proxy N     Proxies you run in front of this server; the client IP is then read
                      from X-Forwarded-For, right to left (default: 0)
  --database URL      Keep threads, export jobs and bundles, rate-limit counters and the
                      link-signing key in PostgreSQL (postgres://…), shared by every instance
                      that uses it; or DOCS_ASSISTANT_DATABASE_URL (keeps the password out of
                      the process list). Without it they are files under --data.
  --job-lease-ms N    With --database: how long a running export stays its instance's
                      without a renewal before another instance takes it (default: 30000)
  --bundle-store URL  Keep export bundles in S3-compatible object storage (s3://bucket/prefix)
                      and hand out presigned links to it; credentials and region from the
                      standard AWS environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
                      AWS_REGION, profiles, roles)
  --s3-endpoint URL   Another S3-compatible service (MinIO, …); path-style addressing.
                      Also AWS_ENDPOINT_URL_S3
  --no-insights       Record nothing for the owner's insights (questions, outcomes, feedback)
  --insights-days N   Days insights are kept (default: 90); see docs/insights.md
  --workers N         Server processes sharing the port, e.g. one per core (default: 1);
                      threads, rate limits and export jobs stay in the first process, so
                      every worker sees the same ones

Keys for a folder other than the sample come from DOCS_ASSISTANT_SERVER_KEYS (comma-separated).`,
  options: {
    docs: { type: 'string' },
    site: { type: 'string' },
    watch: { type: 'boolean' },
    domain: { type: 'string' },
    config: { type: 'string' },
    'site-name': { type: 'string' },
    starters: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    'public-url': { type: 'string' },
    'url-style': { type: 'string' },
    'open-to-agents': { type: 'boolean' },
    'page-url': { type: 'string' },
    upstream: { type: 'string' },
    'chunk-delay-ms': { type: 'string' },
    'llm-base-url': { type: 'string' },
    'llm-model': { type: 'string' },
    'llm-provider': { type: 'string' },
    'llm-timeout-ms': { type: 'string' },
    'embed-base-url': { type: 'string' },
    'embed-model': { type: 'string' },
    'link-ttl': { type: 'string' },
    'rate-limit-org': { type: 'string' },
    'rate-limit-ip': { type: 'string' },
    'trust-proxy': { type: 'string' },
    database: { type: 'string' },
    'job-lease-ms': { type: 'string' },
    'bundle-store': { type: 'string' },
    's3-endpoint': { type: 'string' },
    workers: { type: 'string' },
    'no-insights': { type: 'boolean' },
    'insights-days': { type: 'string' },
  },
  async run(values, _positionals, io) {
    const port = portOption(values.port, 4321);
    const host = stringOption(values.host) ?? '127.0.0.1';
    const dataDir = resolve(stringOption(values.data) ?? '.docs-assistant');
    const builtDir = stringOption(values.site);
    if (builtDir && values.docs !== undefined)
      throw new UsageError('Give --docs (Markdown) or --site (built HTML), not both.');
    const docsDir = stringOption(values.docs) ?? builtDir;
    const configFile = stringOption(values.config);
    const domain = stringOption(values.domain) ?? DEMO.domain;
    const upstreamUrl = stringOption(values.upstream);
    const siteName = stringOption(values['site-name']);
    const starters =
      typeof values.starters === 'string' ? startersOption(values.starters) : undefined;
    if (configFile && (siteName || starters))
      throw new UsageError(
        'With --config, give each site its "siteName" and "starters" in the file.',
      );
    const openToAgents = values['open-to-agents'] === true;
    if (openToAgents && configFile)
      throw new UsageError(
        'With --config, set "openToAgents": true on each public site in the file.',
      );
    if (openToAgents && upstreamUrl && !docsDir)
      throw new UsageError(
        '--open-to-agents needs docs served here (--docs or --site): behind --upstream the other service answers agents.',
      );
    if (docsDir && configFile)
      throw new UsageError(`Give ${builtDir ? '--site' : '--docs'} or --config, not both.`);
    const watching = values.watch === true;
    if (watching && !docsDir)
      throw new UsageError(
        '--watch re-reads the folder of --docs or --site: give one of them (not --config).',
      );
    if (!/^[\w.-]{1,100}$/.test(domain))
      throw new UsageError('--domain may hold letters, digits, ".", "_" and "-" only.');

    const workers = integerOption(values.workers, 'workers', 1);
    if (workers < 1) throw new UsageError('--workers must be at least 1.');
    const linkTtlSeconds = integerOption(values['link-ttl'], 'link-ttl', 3600);
    if (linkTtlSeconds < 1) throw new UsageError('--link-ttl must be at least 1 second.');
    const options: AppOptions = {
      dataDir,
      chunkDelayMs: integerOption(values['chunk-delay-ms'], 'chunk-delay-ms', 0),
      exports: { linkTtlSeconds },
      limits: {
        orgPerHour: integerOption(values['rate-limit-org'], 'rate-limit-org', 10_000),
        ipPerDay: integerOption(values['rate-limit-ip'], 'rate-limit-ip', 10_000),
      },
      trustProxy: integerOption(values['trust-proxy'], 'trust-proxy', 0),
      recordInsights: !values['no-insights'],
      insightsRetentionDays: integerOption(values['insights-days'], 'insights-days', 90),
    };
    if (options.insightsRetentionDays! < 1)
      throw new UsageError('--insights-days must be at least 1.');
    const llmModel = stringOption(values['llm-model']);
    const llmBaseUrl = stringOption(values['llm-base-url']);
    const llmProvider = stringOption(values['llm-provider']);
    if (llmModel || llmBaseUrl || llmProvider) {
      const llm: LlmConfig = {
        model: llmModel ?? '',
        ...(llmProvider ? { provider: llmProvider as LlmProvider } : {}),
        ...(llmBaseUrl ? { baseUrl: urlOption(llmBaseUrl, '--llm-base-url') } : {}),
        ...(io.env.DOCS_ASSISTANT_LLM_API_KEY ? { apiKey: io.env.DOCS_ASSISTANT_LLM_API_KEY } : {}),
        timeoutMs: integerOption(values['llm-timeout-ms'], 'llm-timeout-ms', 60_000),
      };
      try {
        checkLlmConfig(llm);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      options.llm = llm;
    }
    const embedKeyValue = io.env[EMBED_API_KEY_VARIABLE];
    const embedKey = embedKeyValue ? { apiKey: embedKeyValue } : {};
    const embedBaseUrl = stringOption(values['embed-base-url']);
    const embedModel = stringOption(values['embed-model']);
    if (embedBaseUrl || embedModel) {
      if (!embedBaseUrl || !embedModel)
        throw new UsageError('--embed-base-url and --embed-model go together.');
      options.embed = {
        baseUrl: urlOption(embedBaseUrl, '--embed-base-url'),
        model: embedModel,
        ...embedKey,
      };
    }
    const publicUrl = stringOption(values['public-url']);
    if (publicUrl) options.publicUrl = urlOption(publicUrl, '--public-url');
    const urlStyle = stringOption(values['url-style']);
    const pageUrl = stringOption(values['page-url']);
    let pageUrls: PageUrlRule | undefined;
    if (urlStyle || pageUrl) {
      if (configFile)
        throw new UsageError(
          'With --config, give each site its "urlStyle" or "pageUrl" in the file.',
        );
      const rule = parsePageUrlRule({ style: urlStyle, template: pageUrl });
      if (!rule.ok) throw new UsageError(rule.error);
      pageUrls = rule.rule;
    }
    if (upstreamUrl) {
      const key = io.env.DOCS_ASSISTANT_UPSTREAM_KEY;
      const keyKind = key ? classifyKey(key) : 'assistant';
      if (keyKind !== 'assistant') {
        io.stderr.write(
          `${wrongKeySentence('DOCS_ASSISTANT_UPSTREAM_KEY', 'assistant', keyKind)}\n`,
        );
        return EXIT.failed;
      }
      options.upstream = { baseUrl: urlOption(upstreamUrl, '--upstream'), ...(key ? { key } : {}) };
    }
    const databaseUrl =
      stringOption(values.database) ?? stringOption(io.env.DOCS_ASSISTANT_DATABASE_URL);
    let database: ReturnType<typeof postgresStores> | undefined;
    if (databaseUrl) {
      if (!/^postgres(ql)?:\/\//.test(databaseUrl))
        throw new UsageError(
          '--database must be a PostgreSQL URL: postgres://user:password@host:5432/database.',
        );
      database = postgresStores(databaseUrl, {
        leaseMs: integerOption(values['job-lease-ms'], 'job-lease-ms', 30_000),
      });
      options.stores = database;
    } else if (values['job-lease-ms'] !== undefined) {
      throw new UsageError('--job-lease-ms needs --database: a single instance has no leases.');
    }
    const bundleStore = stringOption(values['bundle-store']);
    if (bundleStore) {
      const location = parseS3Url(bundleStore);
      if (!location)
        throw new UsageError(`--bundle-store must be s3://bucket/prefix, got "${bundleStore}".`);
      const endpoint =
        stringOption(values['s3-endpoint']) ?? stringOption(io.env.AWS_ENDPOINT_URL_S3);
      const bundles = s3BundleStore({
        ...location,
        client: endpoint
          ? { endpoint: urlOption(endpoint, '--s3-endpoint'), forcePathStyle: true }
          : {},
      });
      options.stores = { ...options.stores, bundles };
    } else if (values['s3-endpoint'] !== undefined) {
      throw new UsageError('--s3-endpoint needs --bundle-store s3://bucket/prefix.');
    }
    const stopStores = async () => {
      await app.close();
      await database?.close();
    };
    const docsPath = docsDir
      ? existingPath(
          docsDir,
          builtDir
            ? {
                flag: '--site',
                what: 'Built site folder',
                kind: 'folder',
                expects: 'the folder your docs generator builds, e.g. --site ./build',
              }
            : {
                flag: '--docs',
                what: 'Docs folder',
                kind: 'folder',
                expects: 'a folder of Markdown (.md/.mdx) pages, e.g. --docs ./docs',
              },
        )
      : SAMPLE_DOCS_DIR;
    if (configFile)
      existingPath(configFile, {
        flag: '--config',
        what: 'Config file',
        kind: 'file',
        expects: 'a JSON file of organisations and sites (README "Several sites")',
      });
    // A port another process holds is said now, before the docs are read (seconds on a big site).
    if (!isClusterWorker && port !== 0 && (await portTaken(port, host))) {
      io.stderr.write(`Port ${port} on ${host} is already in use. Pick another with --port.\n`);
      return EXIT.failed;
    }
    const useSample = !configFile && !upstreamUrl && docsPath === SAMPLE_DOCS_DIR;
    const source: SiteSource = {
      kind: builtDir ? 'site' : 'docs',
      dir: docsPath,
      // `--workers N` reads the folder first in the primary, on every core, then in each worker
      // (mostly from the page cache the primary wrote): a worker parses on its share of them.
      ...(isClusterWorker
        ? { parseThreads: Math.max(1, Math.floor(availableParallelism() / workers)) }
        : {}),
    };
    // Each worker re-reads the folder itself (they share no memory); each says so, with its pid.
    const worker = isClusterWorker ? ` (worker ${process.pid})` : '';
    // Parsed pages and built indexes are kept under --data, also with --database: they are what
    // this machine made of its own docs folder, not state to share with other instances.
    const cacheDir = join(dataDir, 'cache');
    const warnCache = (line: string) => io.stderr.write(`${line}${worker}\n`);
    if (configFile || docsDir || !upstreamUrl) {
      // A data folder that cannot be written is an error now, before any page is read.
      try {
        await mkdir(cacheDir, { recursive: true });
      } catch (error) {
        io.stderr.write(`Cannot use the data folder ${dataDir}: ${(error as Error).message}\n`);
        return EXIT.failed;
      }
      await removeOtherVersions(cacheDir);
    }
    const pageStore = diskPageStore(
      cacheDir,
      { ...source, dir: resolve(source.dir), language: DEFAULT_LANGUAGE },
      warnCache,
    );
    const indexStore = diskIndexStore(cacheDir, warnCache);
    options.indexStore = indexStore;
    const pageReader = siteReader(source, pageStore);
    let firstRead: SiteRead | undefined;
    const reader = {
      read: async () => {
        const read = await pageReader.read();
        firstRead ??= read;
        return read;
      },
    };
    /** What each `--config` site reused from the last start, by domain. */
    let configKept: Map<string, { reused: number; parsed: number }> | undefined;
    /**
     * The start-up lines about the cache: what was reused from the last start and what was made,
     * one line per `--config` site (named by its domain).
     */
    const cacheLines = (sites: { domain: string; docs: DocsSite }[] | undefined) => {
      const line = (kept: { reused: number; parsed: number }, docs?: DocsSite, domain?: string) => {
        const { reused, parsed } = kept;
        const index = docs && indexStore.outcome(docs);
        return `Cache ${cacheDir}${domain ? ` (${domain})` : ''}: ${reused} page${reused === 1 ? '' : 's'} reused, ${parsed} parsed${index ? `; index ${index}` : ''}.${worker}\n`;
      };
      if (configKept)
        return [...configKept]
          .map(([domain, kept]) =>
            line(kept, sites?.find((site) => site.domain === domain)?.docs, domain),
          )
          .join('');
      return firstRead?.kept ? line(firstRead.kept, sites?.[0]?.docs) : undefined;
    };
    try {
      if (configFile) {
        const { embed, kept, ...sites } = await fileConfig(resolve(configFile), {
          dir: cacheDir,
          warn: warnCache,
        });
        configKept = kept;
        Object.assign(options, sites);
        // The flags win over the file; the key comes from the environment either way.
        if (embed && !options.embed) options.embed = { ...embed, ...embedKey };
      } else if (docsDir || !upstreamUrl)
        Object.assign(
          options,
          await folderConfig(
            docsPath,
            domain,
            io.env.DOCS_ASSISTANT_SERVER_KEYS,
            // A built page's URL is known (html.ts keeps it as its permalink): with the site's
            // origin, citations link to it there.
            pageUrls ?? (builtDir && publicUrl ? { style: 'plain' } : undefined),
            {
              kind: source.kind,
              reader,
              log: (line) =>
                io.stderr.write(`${line}
`),
            },
          ),
        );
      const site = options.sites?.[0];
      if (site && !configFile) {
        if (siteName) site.docs.name = siteName;
        if (starters) site.starters = starters;
        if (openToAgents) site.openToAgents = true;
      }
    } catch (error) {
      io.stderr.write(`${(error as Error).message}\n`);
      return error instanceof ConfigError ? EXIT.usage : EXIT.failed;
    }

    // The demo pages (gallery, script tag, React import) exist once `npm run build` has run.
    if (existsSync(join(DIST_DIR, 'embed', 'docs-assistant.js'))) {
      options.assetsDir = DIST_DIR;
      const site = options.sites?.[0];
      const key = options.orgs
        ?.find((org) => org.id === site?.org)
        ?.keys.find((k) => classifyKey(k) === 'assistant');
      if (key) options.demoKey = key;
    }

    if (workers > 1 && !isClusterWorker) {
      const line = cacheLines(undefined);
      if (line) io.stdout.write(line);
      return servePrimary(options, workers, host, port, io, database);
    }
    // With a database every worker uses it directly; with files, the primary's stores over IPC.
    // Bundles in object storage (--bundle-store) stay each worker's own client of the same bucket.
    if (isClusterWorker)
      Object.assign(options, {
        recoverOnStart: recoversOnStart,
        ...(database ? {} : { stores: { ...options.stores, ...workerStores() } }),
      });
    const app = createApp(options);
    try {
      // A data folder that cannot be written is an error now, not a thread lost later.
      await app.ready;
    } catch (error) {
      io.stderr.write(
        database
          ? `Cannot use the database ${describeDatabase(databaseUrl!)}: ${(error as Error).message}\n`
          : `Cannot use the data folder ${dataDir}: ${(error as Error).message}\n`,
      );
      await stopStores();
      return EXIT.failed;
    }
    const line = cacheLines(options.sites);
    if (line) io.stdout.write(line);
    // Watching starts before listening, so an edit made once the server says it runs is seen.
    const watcher =
      watching && options.sites?.[0]
        ? watchSite(source, reader, {
            update: (read) => {
              if (siteName) read.site.name = siteName;
              app.replaceDocs(domain, read.site);
            },
            log: (line) => io.stdout.write(`${line}${worker}\n`),
            warn: (line) => io.stderr.write(`${line}${worker}\n`),
          })
        : undefined;
    let server;
    try {
      server = await listen(app, { port, host });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      io.stderr.write(
        code === 'EADDRINUSE'
          ? `Port ${port} on ${host} is already in use. Pick another with --port.\n`
          : `Cannot listen on ${host}:${port}: ${(error as Error).message}\n`,
      );
      watcher?.close();
      await stopStores();
      return EXIT.failed;
    }
    const lines = [`docs-assistant reference server is running at ${server.url}/`, ''];
    if (options.assetsDir) lines.push(`  Widget gallery:  ${server.url}/`);
    if (options.sites?.length) {
      lines.push(
        `  Docs site:       ${server.url}${DOCS_BASE_PATH}${options.assetsDir ? '   (with the script tag; the React import at /react)' : ''}`,
      );
      for (const site of options.sites)
        lines.push(`  Assistant API:   POST ${assistantMessageUrl(server.url, site.domain)}`);
      if (!options.upstream)
        for (const site of options.sites)
          lines.push(
            `  MCP for agents:  ${agentUrls.mcp(server.url, site.domain)} (${site.openToAgents ? 'open: no key needed' : 'with the assistant key'})`,
          );
      if (!options.upstream)
        lines.push(
          `  Insights:        ${server.url}/insights${options.recordInsights === false ? ' (recording off: --no-insights)' : ''}`,
        );
    }
    if (options.llm) lines.push(`  Answers by:      ${describeLlm(options.llm)}`);
    if (options.embed) lines.push(`  Embeddings by:   ${describeEmbed(options.embed)}`);
    if (options.upstream)
      lines.push(
        `  Proxying to:     ${options.upstream.baseUrl} (key ${options.upstream.key ? 'added by this server' : 'not set'})`,
      );
    if (useSample)
      lines.push(
        `  Demo keys:       assistant ${DEMO.assistantKey} · admin ${DEMO.adminKey} (the bundled docs only)`,
      );
    if (bundleStore) lines.push(`  Bundles:         ${bundleStore} (presigned links)`);
    if (databaseUrl)
      lines.push(
        `  Database:        ${describeDatabase(databaseUrl)} (threads, jobs, bundles, rate limits, signing key)`,
      );
    lines.push(`  Data:            ${dataDir}`, '');
    if (!options.publicUrl && !/^(127\.|\[::1\]|localhost)/.test(host)) {
      // Without it, links in answers, pages and bundle links are built from the request's Host header.
      lines.push(
        '  Tip: pass --public-url https://your.host so links never depend on the Host header.',
        '',
      );
    }
    lines.push('Press Ctrl-C to stop.', '');
    // Workers print nothing: the primary says where the server runs.
    if (!isClusterWorker) io.stdout.write(lines.join('\n'));

    await untilAborted(io);
    watcher?.close();
    await server.close();
    await stopStores();
    if (isClusterWorker) leaveCluster();
    else io.stdout.write('Server stopped.\n');
    return EXIT.ok;
  },
};

/** `--starters 'A|B|C'`: the widget shows at most 3; `none` (or nothing) for no starters. */
function startersOption(value: string): string[] {
  if (/^\s*(none)?\s*$/i.test(value)) return [];
  const questions = value
    .split('|')
    .map((question) => question.trim())
    .filter(Boolean);
  if (questions.length > 3)
    throw new UsageError(`--starters takes at most 3 questions, got ${questions.length}.`);
  return questions;
}

const untilAborted = (io: CliIo) =>
  new Promise<void>((done) => {
    if (io.signal?.aborted) return done();
    io.signal?.addEventListener('abort', () => done(), { once: true });
  });

/**
 * `serve --workers N`: N forked processes run the app on one port. This process owns the file (or
 * memory) stores they share; with a database, the workers use it directly and this one needs none.
 */
async function servePrimary(
  options: AppOptions,
  count: number,
  host: string,
  port: number,
  io: CliIo,
  database: { close(): Promise<void> } | undefined,
): Promise<number> {
  await database?.close();
  const stores = database ? undefined : defaultStores(options.dataDir);
  try {
    await Promise.all([
      stores?.threads.open(),
      stores?.insights.open(),
      stores?.jobs.open(),
      stores?.rateLimits.open(),
    ]);
  } catch (error) {
    io.stderr.write(`Cannot use the data folder ${options.dataDir}: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  const close = () =>
    Promise.allSettled([
      stores?.threads.close(),
      stores?.insights.close(),
      stores?.jobs.close(),
      stores?.rateLimits.close(),
    ]);
  let workers;
  try {
    workers = await startWorkers(count, stores, host);
  } catch (error) {
    io.stderr.write(`Cannot start the server on ${host}:${port}: ${(error as Error).message}\n`);
    await close();
    return EXIT.failed;
  }
  io.stdout.write(
    `docs-assistant reference server is running at ${workers.url}/ with ${count} worker processes\n  Data:            ${options.dataDir}\n\nPress Ctrl-C to stop.\n`,
  );
  await untilAborted(io);
  await workers.close();
  await close();
  io.stdout.write('Server stopped.\n');
  return EXIT.ok;
}

const exportCommand: Command = {
  summary: 'Export a docs site as a static bundle (start, progress, download, chart values).',
  usage: EXPORT_USAGE,
  help: ([sub]) => (sub === 'status' ? STATUS_USAGE : sub === 'link' ? LINK_USAGE : undefined),
  options: {
    domain: { type: 'string' },
    version: { type: 'string' },
    paths: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    values: { type: 'string' },
    'base-url': { type: 'string' },
    json: { type: 'boolean' },
    'interval-ms': { type: 'string' },
  },
  run: runExport,
};

const hostCommand: Command = {
  summary: 'Serve a static export bundle as a self-hosted deployment (reads the chart values).',
  usage: HOST_USAGE,
  options: {
    values: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    cache: { type: 'string' },
    'retry-seconds': { type: 'string' },
  },
  run: (values, _positionals, io) => runHost(values, io),
};

const mcpCommand: Command = {
  summary: 'Serve the docs to a local agent over MCP stdio (search_docs, get_page).',
  usage: MCP_USAGE,
  options: {
    docs: { type: 'string' },
    'site-name': { type: 'string' },
    'docs-url': { type: 'string' },
  },
  run: (values, _positionals, io) => runMcp(values, io),
};

const insightsCommand: Command = {
  summary:
    "Show what readers asked and what the assistant could not answer (the owner's insights).",
  usage: INSIGHTS_USAGE,
  options: {
    domain: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    'base-url': { type: 'string' },
    json: { type: 'boolean' },
    csv: { type: 'boolean' },
  },
  run: (values, _positionals, io) => runInsights(values, io),
};

const commands: Record<string, Command> = {
  serve: serveCommand,
  export: exportCommand,
  host: hostCommand,
  mcp: mcpCommand,
  insights: insightsCommand,
};

function mainUsage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  return [
    'Usage: docs-assistant <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(
      ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
    ),
    '',
    'Run "docs-assistant <command> --help" for a command\'s options.',
    '',
  ].join('\n');
}

/** Runs the CLI: 0 ok, 1 failed, 2 usage. Takes its streams so tests need no subprocess. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? io.stdout : io.stderr).write(mainUsage());
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = commands[name];
  if (!command) {
    const meant = closestName(name, Object.keys(commands));
    io.stderr.write(
      `Unknown command "${name}".${meant ? ` Did you mean "${meant}"?` : ''}\n\n${mainUsage()}`,
    );
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.stdout.write((command.help?.(positionals) ?? command.usage) + '\n');
      return EXIT.ok;
    }
    return await command.run(values, positionals, io);
  } catch (error) {
    const usage =
      error instanceof UsageError
        ? error.message
        : parseArgsMessage(error, [...Object.keys(command.options), 'help']);
    if (usage !== undefined) {
      io.stderr.write(`${usage}\n\nRun "docs-assistant ${name} --help" for its options.\n`);
      return EXIT.usage;
    }
    io.stderr.write(`docs-assistant ${name} failed: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}
