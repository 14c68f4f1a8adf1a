import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { list as listTar } from 'tar';
import {
  AssistantError,
  createStaticExportClient,
  type StaticExportClient,
} from '../client/node.js';
import { adminSettings, reportError } from './admin.js';
import type { Job } from '../protocol/schemas.js';
import {
  EXIT,
  integerOption,
  outputPath,
  UsageError,
  type CliIo,
  type OptionValues,
} from './io.js';

export const EXPORT_USAGE = `Usage: docs-assistant export --domain <domain> [options]
       docs-assistant export status <jobId> [--json]
       docs-assistant export link <jobId> [--values FILE] [--json]

Runs a static export end to end: starts the job, shows its progress, generates the bundle link,
downloads bundle.tar.gz, checks it, and optionally writes chart values for a self-hosted deployment.

Options:
  --domain D        Site to export (required)
  --version V       Label for this export, written to the chart values as staticExport.version
  --paths a,b       Export only these pages
  --out FILE        Where to save the bundle (default: bundle.tar.gz); an existing file is
                    left alone and nothing starts, unless --force
  --force           Overwrite the --out file if it exists
  --values FILE     Also write chart values (staticExport.enabled, bundleUrl, version)
  --base-url URL    API root (default: $DOCS_ASSISTANT_BASE_URL or http://127.0.0.1:4321)
  --json            One JSON object per line instead of a progress bar
  --interval-ms N   First poll interval; it grows to 10 s (default: 2000)

The admin key is read from DOCS_ASSISTANT_ADMIN_KEY, never from a flag.
Exit codes: ${EXIT.ok} done, ${EXIT.failed} failed job or service error, ${EXIT.usage} usage, ${EXIT.interrupted} stopped with Ctrl-C.`;

export const STATUS_USAGE = `Usage: docs-assistant export status <jobId> [--json] [--base-url URL]

Shows a job's status, progress and page count. Exits ${EXIT.failed} when the job failed.`;

export const LINK_USAGE = `Usage: docs-assistant export link <jobId> [--values FILE] [--json] [--base-url URL]

Generates a fresh bundle link for a completed job (links expire; the export does not).`;

const BAR_WIDTH = 24;

interface Connection {
  client: StaticExportClient;
  /** The API root the client calls, for messages. */
  baseUrl: string;
}

function connect(values: OptionValues, io: CliIo): Connection {
  const { adminKey, baseUrl } = adminSettings(values, io);
  const client = createStaticExportClient({
    baseUrl,
    adminKey,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });
  return { client, baseUrl };
}

function describe(job: Job): string {
  const pages = `${job.pageCount} page${job.pageCount === 1 ? '' : 's'}`;
  return `${job.jobId} (${job.domain}): ${job.status} ${job.progress}%, ${pages}${job.error ? ` — ${job.error}` : ''}`;
}

function bar(job: Job): string {
  const filled = Math.round((job.progress / 100) * BAR_WIDTH);
  return `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${String(job.progress).padStart(3)}%  ${job.pageCount} pages  ${job.status}`;
}

/** Chart values of SPEC §2.6, as YAML (JSON-quoted strings are valid YAML scalars). */
export function chartValues(bundleUrl: string, version: string | undefined): string {
  return [
    'staticExport:',
    '  enabled: true',
    `  bundleUrl: ${JSON.stringify(bundleUrl)}`,
    ...(version ? [`  version: ${JSON.stringify(version)}`] : []),
    '',
  ].join('\n');
}

/** The bundle must be a gzip tar holding an index.html: a truncated or foreign file fails here. */
async function verifyBundle(file: string): Promise<number> {
  const entries: string[] = [];
  await listTar({
    file,
    onReadEntry: (entry) => void entries.push(entry.path.replace(/^\.\//, '')),
  });
  if (!entries.includes('index.html'))
    throw new AssistantError(
      'protocol',
      'The downloaded bundle has no index.html; it was removed.',
      { code: 'bad_bundle' },
    );
  return entries.filter((path) => path.endsWith('.html')).length;
}

export async function runExport(
  values: OptionValues,
  positionals: string[],
  io: CliIo,
): Promise<number> {
  const [sub, jobIdArg, ...extra] = positionals;
  const json = values.json === true;
  const emit = (event: Record<string, unknown>) => io.stdout.write(`${JSON.stringify(event)}\n`);
  if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}".`);

  if (sub === 'status' || sub === 'link') {
    if (!jobIdArg) throw new UsageError(`export ${sub} needs a job id.`);
    const valuesFile =
      typeof values.values === 'string' ? outputPath(values.values, '--values') : undefined;
    const { client, baseUrl } = connect(values, io);
    try {
      if (sub === 'status') {
        const job = await client.getJob(jobIdArg, io.signal);
        if (json) emit({ event: 'status', job });
        else io.stdout.write(`${describe(job)}\n`);
        return job.status === 'failed' ? EXIT.failed : EXIT.ok;
      }
      const bundle = await client.generateBundle(jobIdArg, io.signal);
      if (valuesFile)
        await writeFile(
          valuesFile,
          chartValues(
            bundle.bundleUrl,
            typeof values.version === 'string' ? values.version : undefined,
          ),
        );
      if (json) emit({ event: 'link', ...bundle });
      else
        io.stdout.write(
          `${bundle.bundleUrl}\nExpires at ${bundle.expiresAt} (${bundle.sizeBytes} bytes).\n`,
        );
      return EXIT.ok;
    } catch (error) {
      return reportError(error, io, baseUrl, jobIdArg);
    }
  }
  if (sub !== undefined) throw new UsageError(`Unknown export command "${sub}" (status or link).`);

  const domain = typeof values.domain === 'string' ? values.domain.trim() : '';
  if (!domain) throw new UsageError('--domain is required.');
  const version =
    typeof values.version === 'string' && values.version.trim() ? values.version.trim() : undefined;
  const paths =
    typeof values.paths === 'string'
      ? values.paths
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)
      : undefined;
  if (paths && paths.length === 0) throw new UsageError('--paths needs at least one page path.');
  const out = outputPath(typeof values.out === 'string' ? values.out : 'bundle.tar.gz', '--out');
  // Checked before the job starts: a re-run must not replace last release's bundle unasked.
  if (existsSync(out) && values.force !== true)
    throw new UsageError(
      `${out} already exists; nothing was started. Pass --force to overwrite it, or --out to save elsewhere.`,
    );
  const valuesFile =
    typeof values.values === 'string' ? outputPath(values.values, '--values') : undefined;
  const intervalMs = integerOption(values['interval-ms'], 'interval-ms', 2000);
  if (intervalMs < 1) throw new UsageError('--interval-ms must be at least 1.');
  const { client, baseUrl } = connect(values, io);
  const tty = io.stdout.isTTY === true && !json;

  let jobId: string | undefined;
  try {
    const job = await client.startJob(
      { domain, ...(version ? { version } : {}), ...(paths ? { paths } : {}) },
      io.signal,
    );
    jobId = job.jobId;
    if (json) emit({ event: 'started', job });
    else io.stdout.write(`Started export ${job.jobId} of ${domain}.\n`);
    const done = await client.waitForJob(job.jobId, {
      intervalMs,
      ...(io.signal ? { signal: io.signal } : {}),
      onProgress: (update) => {
        if (json)
          emit({
            event: 'progress',
            status: update.status,
            progress: update.progress,
            pageCount: update.pageCount,
          });
        else if (tty) io.stdout.write(`\r\x1b[2K${bar(update)}`);
        else io.stdout.write(`${update.status} ${update.progress}% (${update.pageCount} pages)\n`);
      },
    });
    if (tty) io.stdout.write('\n');
    const bundle = await client.generateBundle(done.jobId, io.signal);
    const saved = await client.downloadBundle(bundle.bundleUrl, out, {
      expectedSize: bundle.sizeBytes,
      ...(io.signal ? { signal: io.signal } : {}),
    });
    let pages: number;
    try {
      pages = await verifyBundle(out);
    } catch (error) {
      await rm(out, { force: true });
      throw error instanceof AssistantError
        ? error
        : new AssistantError(
            'protocol',
            `The downloaded bundle is not a valid archive (${error instanceof Error ? error.message : String(error)}); it was removed.`,
            { code: 'bad_bundle' },
          );
    }
    if (json)
      emit({
        event: 'downloaded',
        file: out,
        sizeBytes: saved.sizeBytes,
        pages,
        bundleUrl: bundle.bundleUrl,
        expiresAt: bundle.expiresAt,
      });
    else
      io.stdout.write(
        `Saved ${out} (${saved.sizeBytes} bytes, ${pages} pages, checked).\nBundle link (expires ${bundle.expiresAt}):\n${bundle.bundleUrl}\n`,
      );
    if (valuesFile) {
      await writeFile(valuesFile, chartValues(bundle.bundleUrl, version));
      if (json) emit({ event: 'values', file: valuesFile });
      else io.stdout.write(`Wrote chart values to ${valuesFile}.\n`);
    }
    return EXIT.ok;
  } catch (error) {
    if (tty) io.stdout.write('\n');
    return reportError(error, io, baseUrl, jobId);
  }
}
