import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { ulid } from 'ulid';
import type { Job, JobStatus, StartJobRequest } from '../../protocol/index.js';
import type { DocsSite } from '../docs.js';
import { exportSite } from './site-export.js';

export interface JobRecord extends Job {
  org: string;
  paths?: string[];
  sizeBytes?: number;
}

/** Job ids are `se_` + a ULID; anything else is unknown, which keeps ids out of file paths. */
const JOB_ID = /^se_[0-9A-HJKMNP-TV-Z]{26}$/;
export const isJobId = (value: string) => JOB_ID.test(value);

export interface ExportServiceOptions {
  /** Where jobs and bundles live (survives restarts); a function makes a folder only when a job starts. */
  dir: string | (() => string);
  now: () => number;
  /** Sites by domain. */
  site(domain: string): DocsSite | undefined;
  /** Exports running at once. @default 2 */
  concurrency?: number;
}

/** The public view of a job (NOTES §4), without our bookkeeping. */
export function publicJob(job: JobRecord): Job {
  const { org: _org, paths: _paths, sizeBytes: _size, ...rest } = job;
  return rest;
}

/**
 * Export jobs: queued, run in the background with bounded concurrency and at most one job per
 * domain at a time (so one huge site cannot hold every slot), persisted as one JSON file per job.
 */
export function createExportService(options: ExportServiceOptions) {
  const { now } = options;
  let madeDir: string | undefined;
  const dir = () => (typeof options.dir === 'string' ? options.dir : (madeDir ??= options.dir()));
  const concurrency = options.concurrency ?? 2;
  const jobs = new Map<string, JobRecord>();
  const queue: string[] = [];
  const running = new Map<string, Promise<void>>();
  const runningDomains = new Set<string>();
  const waiters: (() => void)[] = [];

  const jobDir = (jobId: string) => join(dir(), jobId);
  const bundlePath = (jobId: string) => join(jobDir(jobId), 'bundle.tar.gz');
  const at = () => new Date(now()).toISOString();

  async function save(job: JobRecord): Promise<void> {
    await mkdir(jobDir(job.jobId), { recursive: true });
    const file = join(jobDir(job.jobId), 'job.json');
    await writeFile(`${file}.tmp`, JSON.stringify(job));
    await rename(`${file}.tmp`, file);
  }

  function update(job: JobRecord, changes: Partial<JobRecord>): Promise<void> {
    Object.assign(job, changes, { updatedAt: at() });
    return save(job);
  }

  async function run(job: JobRecord): Promise<void> {
    const site = options.site(job.domain);
    const staging = join(jobDir(job.jobId), 'site');
    try {
      if (!site) throw new Error(`The docs site for ${job.domain} is no longer configured.`);
      await update(job, { status: 'running', progress: 0, pageCount: 0 });
      let lastSaved = 0;
      await rm(staging, { recursive: true, force: true });
      const { pageCount } = await exportSite(site, {
        ...(job.paths ? { paths: job.paths } : {}),
        outDir: staging,
        onProgress: async ({ done, total }) => {
          // Pages are 95% of the work; packing is the rest.
          job.progress = Math.floor((done / total) * 95);
          job.pageCount = done;
          job.updatedAt = at();
          if (job.progress - lastSaved >= 5) {
            lastSaved = job.progress;
            await save(job);
          }
        },
      });
      const partial = `${bundlePath(job.jobId)}.partial`;
      // gzip's default level: -9 took seconds more on big sites for a few percent of size.
      await createTar({ gzip: true, file: partial, cwd: staging, portable: true }, await readdir(staging));
      await rename(partial, bundlePath(job.jobId));
      const { size } = await stat(bundlePath(job.jobId));
      await rm(staging, { recursive: true, force: true });
      await update(job, { status: 'completed', progress: 100, pageCount, sizeBytes: size });
    } catch (error) {
      await rm(staging, { recursive: true, force: true }).catch(() => {});
      await update(job, { status: 'failed', error: `The export failed: ${(error as Error).message}` }).catch(() => {});
    }
  }

  function pump(): void {
    while (running.size < concurrency) {
      const index = queue.findIndex((id) => !runningDomains.has(jobs.get(id)!.domain));
      if (index < 0) break;
      const [jobId] = queue.splice(index, 1);
      const job = jobs.get(jobId!)!;
      runningDomains.add(job.domain);
      const task = run(job).finally(() => {
        running.delete(job.jobId);
        runningDomains.delete(job.domain);
        pump();
        if (running.size === 0 && queue.length === 0) waiters.splice(0).forEach((wake) => wake());
      });
      running.set(job.jobId, task);
    }
  }

  /** Jobs found on disk: queued ones run again; one that was running when the server stopped failed. */
  async function recover(): Promise<void> {
    // A folder made on demand is new: there is nothing in it to recover.
    if (typeof options.dir !== 'string') return;
    await mkdir(options.dir, { recursive: true });
    for (const entry of await readdir(options.dir)) {
      if (!isJobId(entry)) continue;
      try {
        const job = JSON.parse(await readFile(join(options.dir, entry, 'job.json'), 'utf8')) as JobRecord;
        jobs.set(job.jobId, job);
        if (job.status === 'running') {
          await update(job, { status: 'failed', error: 'The server stopped while this export was running. Start a new export.' });
        } else if (job.status === 'queued') {
          queue.push(job.jobId);
        }
      } catch {
        // A job folder without a readable job.json is left alone.
      }
    }
    queue.sort((a, b) => a.localeCompare(b));
    pump();
  }

  const ready = recover();

  return {
    ready,
    bundlePath,
    async start(org: string, request: StartJobRequest & { paths?: string[] }): Promise<JobRecord> {
      await ready;
      const time = at();
      const job: JobRecord = {
        jobId: `se_${ulid(now())}`,
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
      jobs.set(job.jobId, job);
      await save(job);
      // The caller gets the job as started (queued); the worker may pick it up at once.
      const snapshot = { ...job };
      queue.push(job.jobId);
      pump();
      return snapshot;
    },
    async get(jobId: string): Promise<JobRecord | undefined> {
      await ready;
      return isJobId(jobId) ? jobs.get(jobId) : undefined;
    },
    /** Resolves when no job is queued or running (tests, graceful shutdown). */
    idle(): Promise<void> {
      return ready.then(() => (running.size === 0 && queue.length === 0 ? undefined : new Promise<void>((wake) => waiters.push(wake))));
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
