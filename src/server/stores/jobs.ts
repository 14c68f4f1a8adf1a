import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { describeIssues, jobSchema } from '../../protocol/index.js';
import { probeWritable, removeTempFiles, writeFileDurably } from './fs.js';
import type { JobRecord, JobStore } from './types.js';

/** Job ids are `se_` + a ULID; anything else is unknown, which keeps ids out of file paths. */
const JOB_ID = /^se_[0-9A-HJKMNP-TV-Z]{26}$/;
export const isJobId = (value: string) => JOB_ID.test(value);

const jobRecordSchema = jobSchema.passthrough().extend({
  org: z.string(),
  paths: z.array(z.string()).optional(),
  sizeBytes: z.number().optional(),
  workerId: z.string().optional(),
});

/** A stored job (a `job.json`, a database row) as a job, or why it is not one. */
export function parseJobRecord(
  json: unknown,
): { ok: true; value: JobRecord } | { ok: false; error: string } {
  const parsed = jobRecordSchema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: describeIssues(parsed.error) };
}

/** A `job.json`'s text as the job `jobId`, or why it is not one. */
export function parseJobFile(
  text: string,
  jobId: string,
): { ok: true; value: JobRecord } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const job = parseJobRecord(json);
  if (job.ok && job.value.jobId !== jobId)
    return { ok: false, error: `it holds job ${job.value.jobId}` };
  return job;
}

/**
 * Jobs held in a Map; `persist` (when given) makes each change durable before the call resolves.
 * Claims are atomic because they run synchronously within this one process.
 */
function mapJobStore(persist?: {
  load(): Promise<JobRecord[]>;
  save(job: JobRecord): Promise<void>;
  remove(jobId: string): Promise<void>;
  open(): Promise<void>;
}): JobStore {
  const jobs = new Map<string, JobRecord>();
  const save = async (job: JobRecord) => {
    jobs.set(job.jobId, job);
    await persist?.save(job);
  };
  return {
    async open() {
      if (!persist) return;
      await persist.open();
      for (const job of (await persist.load()).sort((a, b) => a.jobId.localeCompare(b.jobId)))
        jobs.set(job.jobId, job);
    },
    insert: (job) => save({ ...job }),
    async get(jobId) {
      const job = isJobId(jobId) ? jobs.get(jobId) : undefined;
      return job && { ...job };
    },
    async update(jobId, changes) {
      const job = jobs.get(jobId);
      if (!job) return undefined;
      const next = { ...job, ...changes };
      await save(next);
      return { ...next };
    },
    async claim(workerId, at) {
      const busy = new Set(
        [...jobs.values()].filter((job) => job.status === 'running').map((job) => job.domain),
      );
      // Ids are ULIDs made from the start time: id order is start order.
      const next = [...jobs.values()]
        .filter((job) => job.status === 'queued' && !busy.has(job.domain))
        .sort((a, b) => a.jobId.localeCompare(b.jobId))[0];
      if (!next) return undefined;
      const claimed: JobRecord = { ...next, status: 'running', workerId, updatedAt: at };
      await save(claimed);
      return { ...claimed };
    },
    async list({ status, org }) {
      return [...jobs.values()]
        .filter((job) => status.includes(job.status) && (org === undefined || job.org === org))
        .sort((a, b) => a.jobId.localeCompare(b.jobId))
        .map((job) => ({ ...job }));
    },
    async delete(jobId) {
      jobs.delete(jobId);
      await persist?.remove(jobId);
    },
    async close() {},
  };
}

export const memoryJobStore = (): JobStore => mapJobStore();

/** One folder per job under `dir` with its `job.json` (the export worker keeps the bundle beside it). */
export function fileJobStore(dir: string): JobStore {
  const fileOf = (jobId: string) => join(dir, jobId, 'job.json');
  return mapJobStore({
    async open() {
      await mkdir(dir, { recursive: true });
      await probeWritable(dir);
    },
    async load() {
      const jobs: JobRecord[] = [];
      for (const entry of await readdir(dir)) {
        if (!isJobId(entry)) continue;
        // Crash leftovers: half-written job files, and folders whose job was never recorded.
        await removeTempFiles(join(dir, entry)).catch(() => 0);
        if (!(await stat(fileOf(entry)).catch(() => undefined))) {
          await rm(join(dir, entry), { recursive: true, force: true });
          continue;
        }
        const job = await readFile(fileOf(entry), 'utf8').then(
          (text) => parseJobFile(text, entry),
          (error: Error) => ({ ok: false as const, error: error.message }),
        );
        if (job.ok) jobs.push(job.value);
        // Left alone on disk (it may hold a bundle someone wants), and said once at start.
        else
          console.error(
            `[docs-assistant] job file ${fileOf(entry)} is unreadable (${job.error}); it is skipped.`,
          );
      }
      return jobs;
    },
    async save(job) {
      await mkdir(join(dir, job.jobId), { recursive: true });
      await writeFileDurably(fileOf(job.jobId), JSON.stringify(job));
    },
    remove: (jobId) => rm(join(dir, jobId), { recursive: true, force: true }),
  });
}
