import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ADMIN_KEY_PREFIX,
  ASSISTANT_KEY_PREFIX,
  classifyKey,
  describeIssues,
  KEY_EXAMPLE,
} from '../protocol/index.js';
import type { AppOptions, OrgConfig, SiteConfig } from './http/app.js';
import { DEFAULT_LANGUAGE, type CachedPage, type PackedPage } from './site/docs.js';
import { diskPageStore } from './site/page-cache.js';
import { parsePool } from './site/parse-pool.js';
import { siteReader } from './site/watch.js';
import { parsePageUrlRule, type PageUrlRule } from './site/page-urls.js';

/** The demo that `npm start` serves; these keys are public and work only for the sample docs. */
export const DEMO = {
  domain: 'demo',
  org: 'demo',
  assistantKey: 'svc_dsc_demo',
  adminKey: 'svc_demo_admin',
} as const;

/**
 * The nearest folder above this module with a package.json: the repository (src/, dist/, a test's
 * bundled CLI) or the published package's own folder.
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '../..');
  }
}
const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
/**
 * The sample site `serve` answers from with no `--docs`: docs-assistant's own documentation (docs/),
 * shipped in the package (works from src/ under vitest and from dist/).
 */
export const SAMPLE_DOCS_DIR = join(PACKAGE_ROOT, 'docs');
/** Built browser files (`npm run build`): the demo site and the script tag. */
export const DIST_DIR = join(PACKAGE_ROOT, 'dist');

/** The `--config` file: several organisations and their sites. */
const configFileSchema = z.object({
  orgs: z.array(
    z.object({
      id: z.string().min(1),
      plan: z.enum(['free', 'pro', 'enterprise']).optional(),
      keys: z.array(z.string()).default([]),
    }),
  ),
  /** `urlStyle` or `pageUrl` and `publicUrl` link citations to the site's own pages (README "Citation URLs"). */
  sites: z.array(
    z.object({
      domain: z.string().min(1),
      org: z.string().min(1),
      docs: z.string().min(1),
      urlStyle: z.string().optional(),
      pageUrl: z.string().optional(),
      publicUrl: z.string().optional(),
      /** The name in page titles and headers (README "Serving your own docs"). */
      siteName: z.string().min(1).optional(),
      /** Starter questions of the /docs pages' widget, at most 3; [] for none. */
      starters: z.array(z.string().min(1)).max(3).optional(),
      /** Agents may use the MCP server, search and page operations without a key (docs/agents.md). */
      openToAgents: z.boolean().optional(),
    }),
  ),
  /**
   * The owner's embedding model for every site of the file (docs/embeddings.md); the key is read
   * from DOCS_ASSISTANT_EMBED_API_KEY, never from the file.
   */
  embed: z
    .object({ baseUrl: z.string().url(), model: z.string().min(1) })
    .strict()
    .optional(),
});

export type ConfigFile = z.input<typeof configFileSchema>;

export class ConfigError extends Error {}

function checkKeys(keys: string[], where: string): void {
  for (const key of keys) {
    if (classifyKey(key) === 'invalid')
      throw new ConfigError(
        `${where}: "${key.slice(0, 12)}…" is not a key (keys begin with ${ASSISTANT_KEY_PREFIX} or ${ADMIN_KEY_PREFIX}).`,
      );
  }
}

/** A site served from a folder with keys from the environment (`DOCS_ASSISTANT_SERVER_KEYS`). */
export async function folderConfig(
  docsDir: string,
  domain: string,
  keysEnv: string | undefined,
  pageUrls?: PageUrlRule,
  /**
   * `site`: `docsDir` is a generator's built HTML (html.ts); `log` hears which pages were skipped;
   * `reader` reads the folder (`serve --watch` keeps it to read it again).
   */
  source: {
    kind: 'docs' | 'site';
    log?: (line: string) => void;
    reader?: ReturnType<typeof siteReader>;
  } = { kind: 'docs' },
): Promise<Pick<AppOptions, 'orgs' | 'sites'>> {
  const isSample = resolve(docsDir) === SAMPLE_DOCS_DIR;
  const keys =
    keysEnv
      ?.split(',')
      .map((k) => k.trim())
      .filter(Boolean) ?? [];
  if (keys.length === 0 && !isSample) {
    throw new ConfigError(
      'This docs folder needs its own keys: set DOCS_ASSISTANT_SERVER_KEYS to a comma-separated list ' +
        `(an assistant key ${KEY_EXAMPLE.assistant} and, for static export, an admin key ${KEY_EXAMPLE.admin}), or pass --config FILE.`,
    );
  }
  checkKeys(keys, 'DOCS_ASSISTANT_SERVER_KEYS');
  const { site: docs, skipped } = await (
    source.reader ?? siteReader({ kind: source.kind, dir: docsDir })
  ).read();
  for (const page of skipped) source.log?.(`Skipped ${page.file}: ${page.reason}.`);
  const org: OrgConfig = {
    id: isSample ? DEMO.org : domain,
    plan: 'enterprise',
    keys: keys.length ? keys : [DEMO.assistantKey, DEMO.adminKey],
  };
  const site: SiteConfig = { domain, org: org.id, docs, ...(pageUrls ? { pageUrls } : {}) };
  return { orgs: [org], sites: [site] };
}

/**
 * Several organisations and sites from a JSON file; docs folders resolve against the file. With
 * `cache`, each site's parsed pages are kept under `cache.dir` (page-cache.ts, as for `--docs`),
 * so a restart reads them instead of parsing, and `kept` says per domain what was reused.
 */
export async function fileConfig(
  file: string,
  cache?: { dir: string; warn: (line: string) => void },
): Promise<
  Pick<AppOptions, 'orgs' | 'sites'> & {
    embed?: { baseUrl: string; model: string };
    kept?: Map<string, { reused: number; parsed: number }>;
  }
> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read config ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const result = configFileSchema.safeParse(json);
  if (!result.success)
    throw new ConfigError(
      `${file} is not a docs-assistant config ({"orgs": [...], "sites": [...]}): ${describeIssues(result.error)}`,
    );
  const parsed = result.data;
  const orgs = parsed.orgs.map((org): OrgConfig => {
    checkKeys(org.keys, `${file} org ${org.id}`);
    return { id: org.id, plan: org.plan ?? 'free', keys: org.keys };
  });
  // One set of parse threads for every site of the file, not one per site read at once.
  const pool = parsePool<CachedPage | PackedPage>();
  const kept = new Map<string, { reused: number; parsed: number }>();
  const sites = await Promise.all(
    parsed.sites.map(async (site): Promise<SiteConfig> => {
      if (!orgs.some((org) => org.id === site.org))
        throw new ConfigError(`${file}: site ${site.domain} names unknown org ${site.org}.`);
      const urls =
        site.urlStyle || site.pageUrl
          ? parsePageUrlRule(
              { style: site.urlStyle, template: site.pageUrl },
              { style: 'urlStyle', template: 'pageUrl', publicUrl: 'publicUrl' },
            )
          : undefined;
      if (urls && !urls.ok) throw new ConfigError(`${file} site ${site.domain}: ${urls.error}`);
      if (site.publicUrl !== undefined && !URL.canParse(site.publicUrl))
        throw new ConfigError(
          `${file} site ${site.domain}: publicUrl "${site.publicUrl}" is not a URL.`,
        );
      const dir = resolve(dirname(file), site.docs);
      const store = cache
        ? diskPageStore(cache.dir, { kind: 'docs', dir, language: DEFAULT_LANGUAGE }, cache.warn)
        : undefined;
      const read = siteReader({ kind: 'docs', dir, pool }, store)
        .read()
        .then((read) => {
          if (read.kept) kept.set(site.domain, read.kept);
          return read.site;
        });
      const docs = await read.catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' || error.code === 'ENOTDIR'
          ? new ConfigError(
              `${file} site ${site.domain}: docs folder not found: ${dir} ("docs" is a folder of Markdown pages, relative to the config file).`,
            )
          : error;
      });
      if (site.siteName) docs.name = site.siteName;
      return {
        domain: site.domain,
        org: site.org,
        docs,
        ...(site.starters ? { starters: site.starters } : {}),
        ...(site.openToAgents ? { openToAgents: true } : {}),
        ...(urls ? { pageUrls: urls.rule } : {}),
        ...(site.publicUrl ? { publicUrl: site.publicUrl } : {}),
      };
    }),
  ).finally(() => pool.close());
  return {
    orgs,
    sites,
    ...(parsed.embed ? { embed: parsed.embed } : {}),
    // In the file's order, not the order the reads ended in.
    ...(cache
      ? {
          kept: new Map(
            sites.flatMap(({ domain }) => (kept.has(domain) ? [[domain, kept.get(domain)!]] : [])),
          ),
        }
      : {}),
  };
}
