// Reading the static export answers without zod: `docs-assistant/client/node` ships in the widget's
// package, which does not depend on zod. test/protocol.test.ts checks these agree with the schemas.
import { isRecord } from './_guards.js';
import type { Bundle, Job, JobStatus } from './types.js';

/** A value read from outside, as what it should be, or why it is not (`field: what is wrong`). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'completed', 'failed'];

type Check = (value: unknown) => string | undefined;
const string: Check = (v) => (typeof v === 'string' ? undefined : 'Expected string');
const optionalString: Check = (v) => (v === undefined ? undefined : string(v));
const count: Check = (v) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0
    ? undefined
    : 'Expected a whole number, at least 0';
const percentage: Check = (v) =>
  typeof v === 'number' && v >= 0 && v <= 100 ? undefined : 'Expected a number from 0 to 100';
const status: Check = (v) =>
  JOB_STATUSES.some((known) => known === v) ? undefined : `Expected ${JOB_STATUSES.join(' | ')}`;

/** Checks each field; unknown fields are kept (another service may send more). */
function parseObject<T>(value: unknown, fields: Record<string, Check>): Parsed<T> {
  if (!isRecord(value)) return { ok: false, error: 'body: Expected object' };
  const problems = Object.entries(fields).flatMap(([name, check]) => {
    const problem = check(value[name]);
    return problem ? [`${name}: ${problem}`] : [];
  });
  // As describeIssues does for the schemas: the first three, which is enough to see what is wrong.
  if (problems.length) return { ok: false, error: problems.slice(0, 3).join('; ') };
  // Every field of T was checked above; the spread only keeps what another service added.
  return { ok: true, value: { ...value } as T };
}

/** SPEC §4.2/§4.3: a job. */
export const parseJob = (value: unknown): Parsed<Job> =>
  parseObject<Job>(value, {
    jobId: string,
    domain: string,
    status,
    progress: percentage,
    pageCount: count,
    version: optionalString,
    createdAt: string,
    updatedAt: string,
    error: optionalString,
  });

/** SPEC §4.4: a bundle link. */
export const parseBundle = (value: unknown): Parsed<Bundle> =>
  parseObject<Bundle>(value, {
    jobId: string,
    bundleUrl: string,
    sizeBytes: count,
    expiresAt: string,
  });
