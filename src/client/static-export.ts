import { classifyKey, wrongKeySentence } from '../protocol/keys.js';
import { exportPaths, serviceUrl } from '../protocol/routes.js';
import { parseErrorBody } from '../protocol/errors.js';
import type { Bundle, Job, StartJobRequest } from '../protocol/types.js';

/** Any failure of the static export operations, with the HTTP status and the server's code. */
export class StaticExportError extends Error {
  override readonly name = 'StaticExportError';
  constructor(
    message: string,
    /** HTTP status, or undefined when no response came (network, timeout, refused key). */
    readonly status: number | undefined,
    /** The server's error code (`job_not_completed`, `plan_required`…), or ours: `network`, `timeout`, `job_failed`, `size_mismatch`, `wrong_key_type`. */
    readonly code: string,
    /** The job, when the error is about one (a failed job). */
    readonly job?: Job,
  ) {
    super(message);
  }
}

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

/** The typed client for SPEC §4.2–4.4: start, poll, bundle, download. */
export function createStaticExportClient(options: StaticExportClientOptions) {
  const keyKind = classifyKey(options.adminKey);
  if (keyKind !== 'admin') {
    throw new StaticExportError(
      wrongKeySentence("The static export client's adminKey", 'admin', keyKind),
      undefined,
      'wrong_key_type',
    );
  }
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function call<T>(
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
      if ((error as Error).name === 'AbortError') throw error;
      throw new StaticExportError(
        `Could not reach ${base}: ${(error as Error).message}`,
        undefined,
        'network',
      );
    }
    const text = await response.text();
    if (!response.ok) {
      const parsed = parseErrorBody(text);
      throw new StaticExportError(
        parsed.message ?? `The server answered ${response.status}.`,
        response.status,
        parsed.error ?? `http_${response.status}`,
      );
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new StaticExportError(
        `The server answered ${response.status} with a body that is not JSON.`,
        response.status,
        'bad_response',
      );
    }
  }

  const client = {
    startJob: (request: StartJobRequest, signal?: AbortSignal) =>
      call<Job>('POST', exportPaths.jobs(), request, signal),
    getJob: (jobId: string, signal?: AbortSignal) =>
      call<Job>('GET', exportPaths.job(jobId), undefined, signal),
    generateBundle: (jobId: string, signal?: AbortSignal) =>
      call<Bundle>('POST', exportPaths.bundle(jobId), undefined, signal),

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
          throw new StaticExportError(
            job.error ?? 'The export failed.',
            undefined,
            'job_failed',
            job,
          );
        if (Date.now() + interval > deadline)
          throw new StaticExportError(
            `Job ${jobId} did not finish within ${Math.round(timeoutMs / 1000)} s.`,
            undefined,
            'timeout',
            job,
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
        if ((error as Error).name === 'AbortError') throw error;
        throw new StaticExportError(
          `Could not download the bundle: ${(error as Error).message}`,
          undefined,
          'network',
        );
      }
      if (!response.ok || !response.body) {
        const parsed = parseErrorBody(await response.text().catch(() => ''));
        throw new StaticExportError(
          parsed.message ?? `The bundle download answered ${response.status}.`,
          response.status,
          parsed.error ?? `http_${response.status}`,
        );
      }
      const temp = `${file}.${process.pid}.${Date.now()}.partial`;
      let sizeBytes = 0;
      try {
        const counted = Readable.fromWeb(
          response.body as import('node:stream/web').ReadableStream<Uint8Array>,
        );
        counted.on('data', (chunk: Buffer) => (sizeBytes += chunk.length));
        await pipeline(counted, createWriteStream(temp));
        if (expectedSize !== undefined && sizeBytes !== expectedSize) {
          throw new StaticExportError(
            `The bundle is ${sizeBytes} bytes but the server announced ${expectedSize}; nothing was saved.`,
            undefined,
            'size_mismatch',
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
