import { createVersionCache, DEFAULT_LIMITS, redactUrl, type BundleLimits } from './bundle.js';
import { BUNDLE_STALE_HEADER } from '../../protocol/headers.js';
import { ROUTES } from '../../protocol/routes.js';
import { createHostApp, type HostState } from './site.js';
import { planAssistant, type HostValues } from './values.js';

export { envNameOf, readValues, ValuesError, VALUE_KEYS, type HostValues } from './values.js';
export type { HostState } from './site.js';

export interface HostOptions {
  values: HostValues;
  /** Where unpacked versions and the `current` pointer live (a volume in a container). */
  cacheDir: string;
  limits?: Partial<BundleLimits>;
  /** Built script-tag files (`dist/embed`). */
  embedDir?: string;
  /** Proxy mode's key (DOCS_ASSISTANT_UPSTREAM_KEY). */
  upstreamKey?: string;
  /** Transport for the bundle download and the proxy (tests). @default fetch */
  fetch?: typeof fetch;
  log(line: string): void;
}

/**
 * `docs-assistant host`: a deployment that consumes the chart values (SPEC §2.6). The web app
 * answers at once (liveness); `install()` fetches the bundle and makes it the active version
 * (readiness), or falls back to the last good cached version and says so.
 */
export function createHost(options: HostOptions) {
  const { values, log } = options;
  const assistant = planAssistant(values);
  const versions = createVersionCache(options.cacheDir, { ...DEFAULT_LIMITS, ...options.limits });
  let state: HostState = values.staticExport.enabled
    ? { status: 'starting' }
    : { status: 'disabled' };
  const app = createHostApp({
    state: () => state,
    assistant,
    ...(options.embedDir ? { embedDir: options.embedDir } : {}),
    ...(options.upstreamKey ? { upstreamKey: options.upstreamKey } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  async function install(): Promise<HostState> {
    const { bundleUrl, version } = values.staticExport;
    if (!values.staticExport.enabled || !bundleUrl) {
      log('staticExport.enabled is false: no bundle is served.');
      return state;
    }
    log(
      `Fetching the bundle from ${redactUrl(bundleUrl)}${version ? ` (pinned to version ${JSON.stringify(version)})` : ''}…`,
    );
    const result = await versions.install(bundleUrl, {
      ...(version ? { pinnedVersion: version } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    if (result.ok) {
      const { name, manifest } = result.value;
      state = { status: 'ready', active: result.value };
      log(
        `Serving bundle ${name}: ${manifest.domain}, ${manifest.pageCount} pages, export ${manifest.jobId} of ${manifest.createdAt}.`,
      );
      return state;
    }
    log(`ERROR: the bundle was not installed (${result.problem.kind}): ${result.problem.message}`);
    const previous = await versions.current();
    if (previous) {
      const reason = `${result.problem.kind}: serving the cached version ${previous.name} instead`;
      state = { status: 'stale', active: previous, reason };
      log(
        `WARNING: serving the LAST GOOD cached version ${previous.name} (${previous.manifest.pageCount} pages, export of ${previous.manifest.createdAt}); it is NOT the bundle the values ask for. Every response carries ${BUNDLE_STALE_HEADER}.`,
      );
    } else {
      state = { status: 'unavailable', reason: result.problem.message };
      log(
        `ERROR: no cached version exists either; pages answer 503 and ${ROUTES.ready} stays false.`,
      );
    }
    return state;
  }

  return { app, assistant, install, state: () => state };
}
