// The spec's shapes that browser code and the public types use, as plain types: the widget's
// declaration files must not need zod. `schemas.ts` validates the same shapes;
// test/public-types.test.ts keeps each type equal to its schema's.

/** SPEC §2.4. */
export interface ContextItem {
  type: 'code' | 'textSelection';
  /** The code snippet or the selected text. */
  value: string;
  /** Path of the source file or page. */
  path?: string | undefined;
  /** Identifier of the element that holds the context. */
  elementId?: string | undefined;
}

/** SPEC §2.1: only search this docs version and/or language. */
export interface Filter {
  version?: string | undefined;
  language?: string | undefined;
}

/** SPEC §3 names `completed` and `failed`; services of this API also report `queued` and `running`. */
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

/** SPEC §4.2: `domain`, plus an optional version label and a subset of pages. */
export interface StartJobRequest {
  domain: string;
  version?: string | undefined;
  paths?: string[] | undefined;
}

/** SPEC §2.5 and §4.3. */
export interface Job {
  jobId: string;
  domain: string;
  status: JobStatus;
  /** Percentage, 0–100. */
  progress: number;
  /** Pages exported so far. */
  pageCount: number;
  version?: string | undefined;
  createdAt: string;
  updatedAt: string;
  /** Why the job failed; only when `status` is `failed`. */
  error?: string | undefined;
}

/** SPEC §4.4. */
export interface Bundle {
  jobId: string;
  bundleUrl: string;
  sizeBytes: number;
  expiresAt: string;
}
