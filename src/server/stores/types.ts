import type { AnswerMode, FeedbackReason, Job, TurnOutcome } from '../../protocol/index.js';
import type { VectorStore } from './vectors.js';

/**
 * The four things the reference server keeps between requests, each behind a small async
 * interface so one process (files, memory) and several instances (a database) can back them.
 * Every method may reject; callers turn a rejection into a clear error, never a silent loss.
 */

export interface ThreadTurn {
  messageId: string;
  question: string;
  answer: string;
  sources: string[];
  at: string;
}

export interface ThreadRecord {
  threadId: string;
  domain: string;
  /**
   * The keyed hash (`h1:…`, see fingerprint.ts) of the browser fingerprint the thread was started
   * with; another fp never continues it. The fingerprint itself is never stored.
   */
  fp: string;
  createdAt: string;
  updatedAt: string;
  turns: ThreadTurn[];
}

export type NewThread = Omit<ThreadRecord, 'turns' | 'updatedAt'>;

export interface ThreadStore {
  /** Makes the store usable (folders, tables) and proves it can be written; rejects with the reason. */
  open(): Promise<void>;
  /** Resolves only once the thread is durably stored: its id may be handed out after that. */
  create(thread: NewThread): Promise<void>;
  get(threadId: string): Promise<ThreadRecord | undefined>;
  /**
   * Adds a turn durably, keeping only the last `maxTurns` turns. Resolves to false when the
   * thread no longer exists (deleted by retention meanwhile).
   */
  appendTurn(threadId: string, turn: ThreadTurn, limits: { maxTurns: number }): Promise<boolean>;
  /**
   * Removes a thread that has no turns (a new thread whose first answer failed before it began, so
   * its id was never handed out); a thread with turns is left alone. Resolves to whether it went.
   */
  discard(threadId: string): Promise<boolean>;
  /**
   * Replaces every fingerprint stored before they were hashed with its keyed hash (`hash` holds
   * the key as hex, so the call can cross to another process). Resolves to how many changed.
   */
  hashFingerprints(keyHex: string): Promise<number>;
  /** Retention: deletes threads not updated since `updatedBefore`, then the oldest beyond `maxThreads`. Resolves to how many went. */
  prune(policy: { updatedBefore: string; maxThreads: number }): Promise<number>;
  close(): Promise<void>;
}

/** An export job as stored: the public job plus our bookkeeping. */
export interface JobRecord extends Job {
  org: string;
  paths?: string[];
  sizeBytes?: number;
  /** The worker that claimed it (one among several instances). */
  workerId?: string;
}

export interface JobStore {
  open(): Promise<void>;
  insert(job: JobRecord): Promise<void>;
  get(jobId: string): Promise<JobRecord | undefined>;
  /** Applies `changes` and resolves to the updated job (undefined when it does not exist). */
  update(jobId: string, changes: Partial<JobRecord>): Promise<JobRecord | undefined>;
  /**
   * Atomically takes the oldest queued job whose domain has no running job and marks it
   * running for `workerId`, so two instances never run the same job. Undefined when none is free.
   */
  claim(workerId: string, at: string): Promise<JobRecord | undefined>;
  /** Jobs in the given states, oldest first (optionally one organisation's). */
  list(filter: { status: Job['status'][]; org?: string }): Promise<JobRecord[]>;
  delete(jobId: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Present when several instances share the store: a running job belongs to its worker only
   * while the worker renews its lease. Without it, every job found running at start is from a
   * process that stopped.
   */
  leases?: JobLeases;
}

export interface JobLeases {
  /** How often a worker renews its leases and looks for expired ones. */
  renewEveryMs: number;
  /** Extends the lease of every job `workerId` is running. */
  renew(workerId: string): Promise<void>;
  /** Jobs whose worker stopped renewing (killed, cut off): queued again or failed, never left running. */
  expire(at: string): Promise<JobRecord[]>;
}

/** Where finished bundles are kept when every instance must be able to hand them out. */
export interface BundleStore {
  /** Stores the finished archive at `file` (which stays where it is). */
  put(jobId: string, file: string): Promise<void>;
  /** The archive's bytes, or undefined when this store does not have it. */
  read(jobId: string): Promise<ReadableStream<Uint8Array> | undefined>;
  /** A link clients download from directly (object storage); without it the server's own signed route serves the bundle. */
  presign?(jobId: string, expiresInSeconds: number, signedAt: Date): Promise<string>;
}

export interface RateLimitStore {
  open(): Promise<void>;
  /**
   * Atomically counts one hit on `key` in its fixed window (which starts with the key's first hit
   * and lasts `windowMs`). Resolves to the count including this hit and when the window ends.
   */
  increment(
    key: string,
    windowMs: number,
    now: number,
  ): Promise<{ count: number; resetAt: number }>;
  close(): Promise<void>;
}

export interface SigningKeyStore {
  /**
   * The bundle-link signing key: the stored one, or `fresh` stored atomically when there is none
   * yet (two instances starting together end up with the same key).
   */
  getOrCreate(fresh: Buffer): Promise<Buffer>;
}

/** One answered (or not) question, as the owner's insights keep it: no IP, no fingerprint. */
export interface InsightTurn {
  domain: string;
  at: string;
  /** The question, cut to MAX_INSIGHT_QUESTION_CHARS. */
  question: string;
  /** The page the reader was on (a page path), when the widget said. */
  currentPath?: string | undefined;
  outcome: TurnOutcome;
  mode: AnswerMode;
  /** Page paths the answer cited. */
  cited: string[];
  firstByteMs?: number | undefined;
  totalMs?: number | undefined;
  threadId?: string | undefined;
  messageId?: string | undefined;
}

/** A reader's thumbs on one answer; a later one for the same answer replaces it. */
export interface InsightFeedback {
  domain: string;
  at: string;
  threadId: string;
  messageId: string;
  rating: 'up' | 'down';
  reasons: FeedbackReason[];
  comment?: string | undefined;
  /** The question the rated answer replied to (from its thread), cut like a turn's. */
  question?: string | undefined;
}

export interface InsightRange {
  /** ISO time, inclusive. */
  since: string;
  /** ISO time, exclusive. */
  until: string;
}

export interface InsightStore {
  open(): Promise<void>;
  /** Keeps one turn. Callers log a rejection; it never reaches the reader. */
  recordTurn(turn: InsightTurn): Promise<void>;
  recordFeedback(feedback: InsightFeedback): Promise<void>;
  /** A domain's turns (oldest first) and feedback (the latest per answer) in the range. */
  list(
    domain: string,
    range: InsightRange,
  ): Promise<{ turns: InsightTurn[]; feedback: InsightFeedback[] }>;
  /** Deletes everything kept for `domain`; resolves to how many records went. */
  deleteDomain(domain: string): Promise<number>;
  /** Retention: deletes records older than `before`. Resolves to how many went. */
  prune(before: string): Promise<number>;
  close(): Promise<void>;
}

export interface Stores {
  insights: InsightStore;
  threads: ThreadStore;
  jobs: JobStore;
  rateLimits: RateLimitStore;
  signingKey: SigningKeyStore;
  /** Bundles outside this machine's disk (a database, object storage); the export folder when absent. */
  bundles?: BundleStore;
  /**
   * The embedding model's section vectors (`serve --embed-…`): the data folder's `vectors/`, the
   * database, the primary's over IPC. A memory store of the app's own when absent.
   */
  vectors?: VectorStore;
}

export type { VectorStore } from './vectors.js';
