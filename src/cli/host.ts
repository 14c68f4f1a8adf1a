import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { classifyKey, ROUTES, wrongKeySentence } from '../protocol/index.js';
import { DIST_DIR } from '../server/config.js';
import {
  createHost,
  envNameOf,
  readValues,
  ValuesError,
  VALUE_KEYS,
} from '../server/host/index.js';
import { listen } from '../server/http/serve.js';
import {
  EXIT,
  existingPath,
  integerOption,
  portOption,
  stringOption,
  UsageError,
  type CliIo,
  type OptionValues,
} from './io.js';

export const HOST_USAGE = `Usage: docs-assistant host [--values values.yaml] [options]

Runs a self-hosted deployment of a static export (SPEC §2.6): downloads staticExport.bundleUrl,
checks it, unpacks it to a versioned folder and serves it as the active version, with the
assistant's script tag set up for the deployment type (cloud, client-hosted, air-gapped).
${ROUTES.health} answers at once; ${ROUTES.ready} once a version is active.

Options:
  --values FILE   Chart values (YAML): deployment.type, staticExport.*, assistant.*
  --port N        Port (default: 8080)
  --host H        Interface (default: 127.0.0.1; 0.0.0.0 in a container)
  --cache DIR     Unpacked versions, kept across restarts (default: .docs-assistant-host)
  --retry-seconds N
                  While the wanted bundle is not active, try again after N seconds,
                  doubling up to 5 minutes (default: 10)

Every value can also come from the environment (it wins over the file):
${VALUE_KEYS.map((key) => `  ${envNameOf(key).padEnd(44)} ${key}`).join('\n')}
The proxy key (client-hosted with assistant.upstream) is read from DOCS_ASSISTANT_UPSTREAM_KEY.`;

export async function runHost(values: OptionValues, io: CliIo): Promise<number> {
  const port = portOption(values.port, 8080);
  const hostName = stringOption(values.host) ?? '127.0.0.1';
  const retrySeconds = integerOption(values['retry-seconds'], 'retry-seconds', 10);
  if (retrySeconds < 1) throw new UsageError('--retry-seconds must be at least 1 second.');
  const cacheDir = resolve(stringOption(values.cache) ?? '.docs-assistant-host');
  // A cache that cannot be a folder is said now, not as a crash when the first bundle unpacks.
  try {
    mkdirSync(cacheDir, { recursive: true });
  } catch (error) {
    throw new UsageError(
      `Cannot use ${cacheDir} as the cache folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).\n--cache expects a folder, created if missing, where unpacked versions are kept.`,
    );
  }
  const log = (line: string) => io.stderr.write(`[docs-assistant host] ${line}\n`);

  let host;
  try {
    const file =
      typeof values.values === 'string'
        ? await readFile(
            existingPath(values.values, {
              flag: '--values',
              what: 'Values file',
              kind: 'file',
              expects:
                'the chart values YAML, as "docs-assistant export --values values.yaml" writes it',
            }),
            'utf8',
          )
        : undefined;
    const upstreamKey = io.env.DOCS_ASSISTANT_UPSTREAM_KEY?.trim();
    const keyKind = upstreamKey ? classifyKey(upstreamKey) : 'assistant';
    if (keyKind !== 'assistant')
      throw new ValuesError(wrongKeySentence('DOCS_ASSISTANT_UPSTREAM_KEY', 'assistant', keyKind));
    const embedDir = join(DIST_DIR, 'embed');
    host = createHost({
      values: readValues(file, io.env),
      cacheDir,
      log,
      ...(existsSync(join(embedDir, 'docs-assistant.js')) ? { embedDir } : {}),
      ...(upstreamKey ? { upstreamKey } : {}),
      ...(io.fetch ? { fetch: io.fetch } : {}),
    });
  } catch (error) {
    if (error instanceof ValuesError || (error as NodeJS.ErrnoException).code === 'ENOENT') {
      io.stderr.write(`${(error as Error).message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  if (host.assistant.mode === 'off')
    log(`No assistant launcher on the pages: ${host.assistant.reason}.`);
  else if (!existsSync(join(DIST_DIR, 'embed', 'docs-assistant.js')))
    log(
      'WARNING: the script tag files (dist/embed) are missing; run npm run build. Pages are served without the assistant.',
    );
  else
    log(
      host.assistant.mode === 'proxy'
        ? `Assistant: proxied to ${host.assistant.upstream} (key ${io.env.DOCS_ASSISTANT_UPSTREAM_KEY ? 'added by this host' : 'not set'}).`
        : `Assistant: pages call ${host.assistant.baseUrl}.`,
    );

  let server;
  try {
    server = await listen(host.app, { port, host: hostName });
  } catch (error) {
    io.stderr.write(`Cannot listen on ${hostName}:${port}: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  io.stdout.write(`docs-assistant host is running at ${server.url}/ (cache ${cacheDir})\n`);
  const stopped = new Promise<void>((done) => {
    if (io.signal?.aborted) return done();
    io.signal?.addEventListener('abort', () => done(), { once: true });
  });
  // Until the wanted bundle is active, try again now and then (a link fixed in storage, a network
  // back): --retry-seconds, doubling to 5 min. A stale version keeps being served meanwhile.
  const installing = (async () => {
    let delayMs = retrySeconds * 1000;
    for (
      let state = await host.install();
      state.status === 'unavailable' || state.status === 'stale';
      state = await host.install()
    ) {
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        stopped.then(() => 'stopped' as const),
        new Promise<'retry'>((wake) => (timer = setTimeout(() => wake('retry'), delayMs))),
      ]);
      clearTimeout(timer);
      if (waited === 'stopped') return;
      log('Trying the bundle link again.');
      delayMs = Math.min(delayMs * 2, 300_000);
    }
  })();
  await stopped;
  await installing.catch(() => {});
  await server.close();
  io.stdout.write('Host stopped.\n');
  return EXIT.ok;
}
