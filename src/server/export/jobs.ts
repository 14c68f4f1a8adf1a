import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { newUlid } from '../ids.js';
import {
  BUNDLE_MANIFEST_FILE,
  type BundleManifest,
  type Job,
  type JobStatus,
  type StartJobRequest,
} from '../../protocol/index.js';
import type { DocsSite } from '../site/docs.js';
import type { BundleStore, JobRecord, JobStore } from '../stores/index.js';
import { exportSite } from './site-export.js';

export type { JobRecord };
export { isJobId } from '../stores/index.js';

export interface ExportServiceOptions {
  /** Where bundles are built and kept; a function makes a folder only when a job starts. */
  dir: string | (() => string);
  store: JobStore;
  now: () => number;
  /** Sites by domain. */
  site(domain: string): DocsSite | undefined;
  /** Exports running at once in this process. @default 2 */
  concurrency?: number;
  /** Where finished bundles go so every instance can serve them; this process's folder only when absent. */
  bundles?: BundleStore;
  /** Above this, a bundle's llms-full.txt is split by sidebar section. @default 5 MiB */
  fullTextMaxBytes?: number | undefined;
}

/**
 * The public view of a job (SPEC §2.5, plus the `createdAt`/`updatedAt` other services of this API
 * return), without our bookkeeping.
 */
export function publicJob(job: JobRecord): Job {
  const { org: _org, paths: _paths, sizeBytes: _size, workerId: _worker, ...rest } = job;
  return rest;
}

/**
 * Export jobs: queued in the job store, claimed by a worker with bounded concurrency and at most
 * one job per domain at a time (so one huge site cannot hold every slot).
 */
export function createExportService(options: ExportServiceOptions) {
  const { now, store } = options;
  let madeDir: string | undefined;
  const dir = () => (typeof options.dir === 'string' ? options.dir : (madeDir ??= options.dir()));
  const concurrency = options.concurrency ?? 2;
  // Each start of the process is a new worker: a job another worker claimed is not ours to run.
  const workerId = `w_${randomUUID()}`;
  const running = new Set<Promise<void>>();
  const waiters: (() => void)[] = [];
  let pumping = false;
  let pumpAgain = false;

  const jobDir = (jobId: string) => join(dir(), jobId);
  const bundlePath = (jobId: string) => join(jobDir(jobId), 'bundle.tar.gz');
  const at = () => new Date(now()).toISOString();

  /**
   * With leases, a worker stalled past its lease has lost the job to another instance: it must not
   * then mark it completed or failed over the other worker's run.
   */
  async function stillOurs(jobId: string): Promise<boolean> {
    if (!store.leases) return true;
    const current = await store.get(jobId);
    return current?.status === 'running' && current.workerId === workerId;
  }

  async function run(job: JobRecord): Promise<void> {
    const site = options.site(job.domain);
    const staging = join(jobDir(job.jobId), 'site');
    try {
      if (!site) throw new Error(`The docs site for ${job.domain} is no longer configured.`);
      await store.update(job.jobId, { progress: 0, pageCount: 0, updatedAt: at() });
      let lastSaved = 0;
      await rm(staging, { recursive: true, force: true });
      const { pageCount } = await exportSite(site, {
        ...(job.paths ? { paths: job.paths } : {}),
        outDir: staging,
        fullTextMaxBytes: options.fullTextMaxBytes,
        onProgress: async ({ done, total }) => {
          // Pages are 95% of the work; packing is the rest.
          const progress = Math.floor((done / total) * 95);
          if (progress - lastSaved >= 5) {
            lastSaved = progress;
            await store.update(job.jobId, { progress, pageCount: done, updatedAt: at() });
          }
        },
      });
      const manifest: BundleManifest = {
        jobId: job.jobId,
        domain: job.domain,
        ...(job.version ? { version: job.version } : {}),
        createdAt: at(),
        pageCount,
      };
      await writeFile(
        join(staging, BUNDLE_MANIFEST_FILE),
        `${JSON.stringify(manifest, null, 2)}\n`,
      );
      const partial = `${bundlePath(job.jobId)}.partial`;
      // gzip's default level: -9 took seconds more on big sites for a few percent of size.
      await createTar(
        { gzip: true, file: partial, cwd: staging, portable: true },
        await readdir(staging),
      );
      await rename(partial, bundlePath(job.jobId));
      const { size } = await stat(bundlePath(job.jobId));
      await options.bundles?.put(job.jobId, bundlePath(job.jobId));
      await rm(staging, { recursive: true, force: true });
      if (!(await stillOurs(job.jobId))) return;
      await store.update(job.jobId, {
        status: 'completed',
        progress: 100,
        pageCount,
        sizeBytes: size,
        updatedAt: at(),
      });
    } catch (error) {
      await rm(staging, { recursive: true, force: true }).catch(() => {});
      if (!(await stillOurs(job.jobId).catch(() => false))) return;
      await store
        .update(job.jobId, {
          status: 'failed',
          error: `The export failed: ${(error as Error).message}`,
          updatedAt: at(),
        })
        .catch(() => {});
    }
  }

  /** Claims queued jobs while this process has free slots. */
  async function pump(): Promise<void> {
    if (closed) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        while (running.size < concurrency) {
          const job = await store.claim(workerId, at());
          if (!job) break;
          const task: Promise<void> = run(job).finally(() => {
            running.delete(task);
            void pump();
          });
          running.add(task);
        }
      } while (pumpAgain);
    } catch (error) {
      console.error('[docs-assistant] could not claim an export job:', error);
    } finally {
      pumping = false;
      if (running.size === 0) waiters.splice(0).forEach((wake) => wake());
    }
  }

  /**
   * Jobs found in the store: queued ones run again; one that was running when the server stopped
   * failed, and what it left half-written (the staging folder, a `.partial` bundle) is removed.
   */
  async function recover(): Promise<void> {
    const { leases } = store;
    if (leases) {
      // Other instances may be running jobs right now: only jobs whose lease ran out are ours to recover.
      await leases.expire(at());
      const tick = async () => {
        try {
          await leases.renew(workerId);
          await leases.expire(at());
        } catch (error) {
          console.error('[docs-assistant] could not renew export job leases:', error);
        }
        // Jobs queued by other instances (or queued again) are picked up here too.
        await pump();
      };
      leaseTimer = setInterval(() => void tick(), leases.renewEveryMs);
      leaseTimer.unref();
    } else {
      for (const job of await store.list({ status: ['running'] })) {
        await store.update(job.jobId, {
          status: 'failed',
          error: 'The server stopped while this export was running. Start a new export.',
          updatedAt: at(),
        });
      }
    }
    if (typeof options.dir === 'string') {
      for (const job of await store.list({
        status: ['queued', 'running', 'completed', 'failed'],
      })) {
        await rm(join(jobDir(job.jobId), 'site'), { recursive: true, force: true });
        await rm(`${bundlePath(job.jobId)}.partial`, { force: true });
      }
    }
    await pump();
  }

  let leaseTimer: NodeJS.Timeout | undefined;
  let closed = false;
  let ready: Promise<void> | undefined;
  // idle() may be called before the app has opened the store and called recover().
  let recovered!: () => void;
  const started = new Promise<void>((resolve) => (recovered = resolve));

  return {
    /** Recovers interrupted jobs and starts the queued ones; call once the store is open. */
    recover(): Promise<void> {
      return (ready ??= recover().finally(recovered));
    },
    bundlePath,
    /** The bundle's bytes: from the bundle store when there is one, else from this machine's folder. */
    async openBundle(jobId: string): Promise<ReadableStream<Uint8Array> | undefined> {
      if (options.bundles) return options.bundles.read(jobId);
      const file = bundlePath(jobId);
      if (!(await stat(file).catch(() => undefined))) return undefined;
      return Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    },
    /** A direct download link from the bundle store (object storage), when it makes them. */
    presignBundle: options.bundles?.presign?.bind(options.bundles),
    /** Stops renewing leases (their jobs are then recovered by another instance). */
    close(): void {
      closed = true;
      clearInterval(leaseTimer);
    },
    async start(org: string, request: StartJobRequest & { paths?: string[] }): Promise<JobRecord> {
      const time = at();
      const job: JobRecord = {
        jobId: `se_${newUlid(now())}`,
        domain: request.domain,
        status: 'queued' satisfies JobStatus,
        progress: 0,
        pageCount: 0,
        createdAt: time,
        updatedAt: time,
        org,
        ...(request.version ? { version: request.version } : {}),
        ...(request.paths ? { paths: request.paths } : {}),
      };
      await store.insert(job);
      // The caller gets the job as started (queued); the worker may pick it up at once.
      void pump();
      return job;
    },
    get: (jobId: string): Promise<JobRecord | undefined> => store.get(jobId),
    /** Jobs of an organisation that are queued or running (the per-organisation cap counts them). */
    active: (org: string) => store.list({ status: ['queued', 'running'], org }),
    /** Retention: deletes finished jobs (and their bundles) last updated before `before`. */
    async prune(before: string): Promise<number> {
      let removed = 0;
      for (const job of await store.list({ status: ['completed', 'failed'] })) {
        if (job.updatedAt >= before) continue;
        if (typeof options.dir === 'string' || madeDir)
          await rm(jobDir(job.jobId), { recursive: true, force: true });
        await store.delete(job.jobId);
        removed++;
      }
      return removed;
    },
    /** Resolves when this process runs no job and none is queued (tests, graceful shutdown). */
    async idle(): Promise<void> {
      await started;
      while (running.size > 0 || pumping) await new Promise<void>((wake) => waiters.push(wake));
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
