import { classifyKey, wrongKeySentence } from '../protocol/keys.js';
import { exportPaths, serviceUrl } from '../protocol/routes.js';
import { parseBundle, parseJob, type Parsed } from '../protocol/parse.js';
import type { Bundle, Job, StartJobRequest } from '../protocol/types.js';
import { AssistantError, errorFromResponse } from './errors.js';

/**
 * @deprecated Since 0.2: the static export client throws `AssistantError` (with `kind` and a typed
 * `code`), the same error as the assistant's. This alias keeps `instanceof StaticExportError` working.
 */
export const StaticExportError = AssistantError;
/** @deprecated Since 0.2: use `AssistantError`. */
export type StaticExportError = AssistantError;

export interface StaticExportClientOptions {
  /** API root of the service ({base_url}). */
  baseUrl: string;
  /** Admin key (`svc_…`); a server-side secret. */
  adminKey: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

export interface WaitOptions {
  /** Called with each new state of the job while it runs. */
  onProgress?: (job: Job) => void;
  /** First poll interval; it grows ×1.5 up to 10 s. @default 1000 */
  intervalMs?: number;
  /** Give up after this long. @default 30 minutes */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const MAX_INTERVAL_MS = 10_000;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The typed client for SPEC §4.2–4.4: start, poll, bundle, download. Every failure is an `AssistantError`. */
export function createStaticExportClient(options: StaticExportClientOptions) {
  const keyKind = classifyKey(options.adminKey);
  if (keyKind !== 'admin') {
    // Refused before anything is sent, with the kind and code the server would answer.
    throw new AssistantError(
      keyKind === 'invalid' ? 'unauthorized' : 'forbidden',
      wrongKeySentence("The static export client's adminKey", 'admin', keyKind),
      { code: keyKind === 'invalid' ? 'unauthorized' : 'wrong_key_type' },
    );
  }
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function call<T>(
    parse: (json: unknown) => Parsed<T>,
    what: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(serviceUrl(options.baseUrl, path), {
        method,
        headers: {
          Authorization: `Bearer ${options.adminKey}`,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new AssistantError('network', `Could not reach ${base}: ${messageOf(error)}`, {
        code: 'network',
      });
    }
    if (!response.ok) throw await errorFromResponse(response);
    const text = await response.text();
    const badResponse = (why: string) =>
      new AssistantError(
        'protocol',
        `The server answered ${method} ${path} with ${why}, not ${what}.`,
        { status: response.status, code: 'bad_response' },
      );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw badResponse('a body that is not JSON');
    }
    const parsed = parse(json);
    if (!parsed.ok) throw badResponse(`JSON that does not fit (${parsed.error})`);
    return parsed.value;
  }

  const client = {
    startJob: (request: StartJobRequest, signal?: AbortSignal): Promise<Job> =>
      call(parseJob, 'a job', 'POST', exportPaths.jobs(), request, signal),
    getJob: (jobId: string, signal?: AbortSignal): Promise<Job> =>
      call(parseJob, 'a job', 'GET', exportPaths.job(jobId), undefined, signal),
    generateBundle: (jobId: string, signal?: AbortSignal): Promise<Bundle> =>
      call(parseBundle, 'a bundle link', 'POST', exportPaths.bundle(jobId), undefined, signal),

    /** Polls until the job is completed (returned) or failed (thrown with the job's error). */
    async waitForJob(
      jobId: string,
      { onProgress, intervalMs = 1000, timeoutMs = 30 * 60_000, signal }: WaitOptions = {},
    ): Promise<Job> {
      const deadline = Date.now() + timeoutMs;
      let interval = intervalMs;
      let last = '';
      for (;;) {
        const job = await client.getJob(jobId, signal);
        const seen = `${job.status}:${job.progress}:${job.pageCount}`;
        if (seen !== last) {
          last = seen;
          onProgress?.(job);
        }
        if (job.status === 'completed') return job;
        if (job.status === 'failed')
          throw new AssistantError('server', job.error ?? 'The export failed.', {
            code: 'job_failed',
            job,
          });
        if (Date.now() + interval > deadline)
          throw new AssistantError(
            'server',
            `Job ${jobId} did not finish within ${Math.round(timeoutMs / 1000)} s.`,
            { code: 'timeout', job },
          );
        await sleep(interval, signal);
        interval = Math.min(MAX_INTERVAL_MS, Math.round(interval * 1.5));
      }
    },

    /**
     * Streams the bundle to `file` through a temporary file that is renamed only when complete and
     * of the expected size, so `file` is never half-written.
     */
    async downloadBundle(
      url: string,
      file: string,
      { expectedSize, signal }: { expectedSize?: number; signal?: AbortSignal } = {},
    ): Promise<{ file: string; sizeBytes: number }> {
      const [{ createWriteStream }, { rename, rm }, { pipeline }, { Readable }] = await Promise.all(
        [
          import('node:fs'),
          import('node:fs/promises'),
          import('node:stream/promises'),
          import('node:stream'),
        ],
      );
      let response: Response;
      try {
        response = await doFetch(url, signal ? { signal } : {});
      } catch (error) {
        if (isAbort(error)) throw error;
        throw new AssistantError('network', `Could not download the bundle: ${messageOf(error)}`, {
          code: 'network',
        });
      }
      if (!response.ok) throw await errorFromResponse(response);
      if (!response.body)
        throw new AssistantError('protocol', 'The bundle download answered without a body.', {
          status: response.status,
          code: 'bad_response',
        });
      const temp = `${file}.${process.pid}.${Date.now()}.partial`;
      let sizeBytes = 0;
      try {
        const counted = Readable.fromWeb(
          response.body as import('node:stream/web').ReadableStream<Uint8Array>,
        );
        counted.on('data', (chunk: Buffer) => (sizeBytes += chunk.length));
        await pipeline(counted, createWriteStream(temp));
        if (expectedSize !== undefined && sizeBytes !== expectedSize) {
          throw new AssistantError(
            'protocol',
            `The bundle is ${sizeBytes} bytes but the server announced ${expectedSize}; nothing was saved.`,
            { code: 'size_mismatch' },
          );
        }
        await rename(temp, file);
        return { file, sizeBytes };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
  return client;
}

export type StaticExportClient = ReturnType<typeof createStaticExportClient>;
