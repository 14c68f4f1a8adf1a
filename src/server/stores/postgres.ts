import { createReadStream } from 'node:fs';
import pg from 'pg';
import type {
  BundleStore,
  InsightFeedback,
  InsightStore,
  InsightTurn,
  JobLeases,
  JobRecord,
  JobStore,
  RateLimitStore,
  SigningKeyStore,
  Stores,
  ThreadStore,
} from './types.js';
import { isJobId, parseJobRecord } from './jobs.js';
import { isThreadId, parseThreadRecord } from './threads.js';
import { hashFingerprint } from './fingerprint.js';
import { parseInsight } from './insights.js';
import {
  VECTOR_RETENTION_DAYS,
  vectorFromBytes,
  vectorToBytes,
  type VectorStore,
} from './vectors.js';

export interface PostgresStoreOptions {
  /** How long a claimed job stays its worker's without a renewal. @default 30000 */
  leaseMs?: number;
  /** Runs of one job before a worker that vanished makes it `failed` instead of `queued` again. @default 2 */
  maxAttempts?: number;
  /** Connections in the pool. @default 10 */
  maxConnections?: number;
}

/** One schema, created by whichever instance opens first (an advisory lock keeps two from racing). */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs_assistant_threads (
  thread_id text PRIMARY KEY,
  domain text NOT NULL,
  fp text NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  turns jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS docs_assistant_threads_updated ON docs_assistant_threads (updated_at);
CREATE TABLE IF NOT EXISTS docs_assistant_insight_turns (
  id bigserial PRIMARY KEY,
  domain text NOT NULL,
  at text NOT NULL,
  data jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_assistant_insight_turns_domain_at ON docs_assistant_insight_turns (domain, at);
CREATE TABLE IF NOT EXISTS docs_assistant_insight_feedback (
  thread_id text NOT NULL,
  message_id text NOT NULL,
  domain text NOT NULL,
  at text NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (thread_id, message_id)
);
CREATE INDEX IF NOT EXISTS docs_assistant_insight_feedback_domain_at ON docs_assistant_insight_feedback (domain, at);
CREATE TABLE IF NOT EXISTS docs_assistant_jobs (
  job_id text PRIMARY KEY,
  org text NOT NULL,
  domain text NOT NULL,
  status text NOT NULL,
  data jsonb NOT NULL,
  worker_id text,
  lease_expires_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS docs_assistant_jobs_status ON docs_assistant_jobs (status, job_id);
CREATE TABLE IF NOT EXISTS docs_assistant_rate_limits (
  key text PRIMARY KEY,
  window_start bigint NOT NULL,
  window_ms bigint NOT NULL,
  count integer NOT NULL
);
CREATE TABLE IF NOT EXISTS docs_assistant_settings (
  name text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE IF NOT EXISTS docs_assistant_vectors (
  model text NOT NULL,
  hash text NOT NULL,
  data bytea NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (model, hash)
);
CREATE TABLE IF NOT EXISTS docs_assistant_bundle_chunks (
  job_id text NOT NULL,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (job_id, seq)
);
`;
const SCHEMA_LOCK = 4_242_001;
const CLAIM_LOCK = 4_242_002;
/** With the model's hash: one indexing of a model's vectors at a time across instances. */
const VECTOR_LOCK = 4_242_003;
/** Vectors written per statement. */
const VECTOR_ROWS = 200;
const CHUNK_BYTES = 1024 * 1024;

/** Connection strings are credentials: errors name the host and database, never the password. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return '(an unparsable database URL)';
  }
}

/**
 * Every store of the reference server in one PostgreSQL database, shared by any number of
 * instances: threads, owner insights, export jobs (claimed with `FOR UPDATE SKIP LOCKED`, held by renewable
 * leases), rate-limit counters, the link-signing key and the bundles themselves.
 */
export function postgresStores(
  url: string,
  options: PostgresStoreOptions = {},
): Stores & { bundles: BundleStore; vectors: VectorStore; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', (error) =>
    console.error('[docs-assistant] PostgreSQL connection error:', error.message),
  );
  const leaseMs = options.leaseMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 2;
  let migrated: Promise<void> | undefined;
  let closed = false;

  const migrate = () =>
    (migrated ??= (async () => {
      const client = await pool.connect().catch((error: Error) => {
        throw new Error(
          `Cannot connect to the database ${describeDatabase(url)}: ${error.message}`,
        );
      });
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        await client.query(SCHEMA);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    })());

  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  const threads: ThreadStore = {
    open: migrate,
    async create(thread) {
      if (!isThreadId(thread.threadId)) throw new Error(`Not a thread id: ${thread.threadId}`);
      await pool.query(
        'INSERT INTO docs_assistant_threads (thread_id, domain, fp, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
        [thread.threadId, thread.domain, thread.fp, thread.createdAt],
      );
    },
    async get(threadId) {
      if (!isThreadId(threadId)) return undefined;
      const { rows } = await pool.query<Record<string, unknown>>(
        'SELECT * FROM docs_assistant_threads WHERE thread_id = $1',
        [threadId],
      );
      const row = rows[0];
      if (!row) return undefined;
      const thread = parseThreadRecord({
        threadId: row.thread_id,
        domain: row.domain,
        fp: row.fp,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        turns: row.turns,
      });
      if (thread.ok) return thread.value;
      // Treated as unknown, as a damaged thread file is: the reader starts a new thread.
      console.error(
        `[docs-assistant] thread ${threadId} in docs_assistant_threads does not fit (${thread.error}); it is treated as unknown.`,
      );
      return undefined;
    },
    async appendTurn(threadId, turn, { maxTurns }) {
      // One statement: two instances appending to one thread at once both land, in order.
      const { rowCount } = await pool.query(
        `UPDATE docs_assistant_threads SET updated_at = $3,
           turns = (SELECT COALESCE(jsonb_agg(e ORDER BY i), '[]'::jsonb) FROM (
             SELECT e, i FROM jsonb_array_elements(turns || jsonb_build_array($2::jsonb)) WITH ORDINALITY AS x(e, i) ORDER BY i DESC LIMIT $4) last)
         WHERE thread_id = $1`,
        [threadId, JSON.stringify(turn), turn.at, Math.max(1, maxTurns)],
      );
      return rowCount === 1;
    },
    async discard(threadId) {
      if (!isThreadId(threadId)) return false;
      const { rowCount } = await pool.query(
        "DELETE FROM docs_assistant_threads WHERE thread_id = $1 AND turns = '[]'::jsonb",
        [threadId],
      );
      return rowCount === 1;
    },
    async hashFingerprints(keyHex) {
      const key = Buffer.from(keyHex, 'hex');
      const { rows } = await pool.query<{ thread_id: string; fp: string }>(
        "SELECT thread_id, fp FROM docs_assistant_threads WHERE fp NOT LIKE 'h1:%'",
      );
      for (const row of rows)
        await pool.query(
          'UPDATE docs_assistant_threads SET fp = $2 WHERE thread_id = $1 AND fp = $3',
          [row.thread_id, hashFingerprint(key, row.fp), row.fp],
        );
      return rows.length;
    },
    async prune({ updatedBefore, maxThreads }) {
      const old = await pool.query('DELETE FROM docs_assistant_threads WHERE updated_at < $1', [
        updatedBefore,
      ]);
      const over = await pool.query(
        'DELETE FROM docs_assistant_threads WHERE thread_id IN (SELECT thread_id FROM docs_assistant_threads ORDER BY updated_at DESC OFFSET $1)',
        [maxThreads],
      );
      return (old.rowCount ?? 0) + (over.rowCount ?? 0);
    },
    close: async () => {},
  };

  const insights: InsightStore = {
    open: migrate,
    async recordTurn(turn) {
      await pool.query(
        'INSERT INTO docs_assistant_insight_turns (domain, at, data) VALUES ($1, $2, $3)',
        [turn.domain, turn.at, JSON.stringify(turn)],
      );
    },
    async recordFeedback(item) {
      // A later thumbs on the same answer (up, then down with a reason) replaces the earlier one.
      await pool.query(
        `INSERT INTO docs_assistant_insight_feedback (thread_id, message_id, domain, at, data) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (thread_id, message_id) DO UPDATE SET domain = $3, at = $4, data = $5`,
        [item.threadId, item.messageId, item.domain, item.at, JSON.stringify(item)],
      );
    },
    async list(domain, { since, until }) {
      const query = (table: string) =>
        pool.query<{ data: unknown }>(
          `SELECT data FROM ${table} WHERE domain = $1 AND at >= $2 AND at < $3 ORDER BY at`,
          [domain, since, until],
        );
      const [turns, feedback] = await Promise.all([
        query('docs_assistant_insight_turns'),
        query('docs_assistant_insight_feedback'),
      ]);
      return {
        turns: turns.rows.flatMap((row): InsightTurn[] => {
          const turn = parseInsight('turn', row.data);
          return turn ? [turn] : [];
        }),
        feedback: feedback.rows.flatMap((row): InsightFeedback[] => {
          const item = parseInsight('feedback', row.data);
          return item ? [item] : [];
        }),
      };
    },
    async deleteDomain(domain) {
      const turns = await pool.query('DELETE FROM docs_assistant_insight_turns WHERE domain = $1', [
        domain,
      ]);
      const feedback = await pool.query(
        'DELETE FROM docs_assistant_insight_feedback WHERE domain = $1',
        [domain],
      );
      return (turns.rowCount ?? 0) + (feedback.rowCount ?? 0);
    },
    async prune(before) {
      const turns = await pool.query('DELETE FROM docs_assistant_insight_turns WHERE at < $1', [
        before,
      ]);
      const feedback = await pool.query(
        'DELETE FROM docs_assistant_insight_feedback WHERE at < $1',
        [before],
      );
      return (turns.rowCount ?? 0) + (feedback.rowCount ?? 0);
    },
    close: async () => {},
  };

  // jsonb written by this code, yet read back through the schema: a row edited by hand or by an
  // older version is skipped with a log line instead of passing for a job.
  const toJob = (row: { data: unknown } | undefined): JobRecord | undefined => {
    if (!row) return undefined;
    const job = parseJobRecord(row.data);
    if (job.ok) return job.value;
    console.error(
      `[docs-assistant] a row of docs_assistant_jobs is not a job (${job.error}); it is skipped.`,
    );
    return undefined;
  };
  const toJobs = (rows: { data: unknown }[]) => rows.flatMap((row) => toJob(row) ?? []);

  const leases: JobLeases = {
    renewEveryMs: Math.max(50, Math.floor(leaseMs / 3)),
    async renew(workerId) {
      await pool.query(
        `UPDATE docs_assistant_jobs SET lease_expires_at = now() + $2 * interval '1 millisecond' WHERE worker_id = $1 AND status = 'running'`,
        [workerId, leaseMs],
      );
    },
    async expire(at) {
      // A worker that stopped renewing (killed, cut off) loses its job: queued again, or failed
      // after maxAttempts runs, so nothing stays `running` forever.
      const { rows } = await pool.query<{ data: unknown }>(
        `UPDATE docs_assistant_jobs SET
           status = CASE WHEN attempts < $2 THEN 'queued' ELSE 'failed' END,
           worker_id = NULL, lease_expires_at = NULL,
           data = (data - 'workerId') || CASE WHEN attempts < $2
             THEN jsonb_build_object('status', 'queued', 'progress', 0, 'pageCount', 0, 'updatedAt', $1::text)
             ELSE jsonb_build_object('status', 'failed', 'updatedAt', $1::text, 'error', 'The server running this export stopped. Start a new export.') END
         WHERE status = 'running' AND lease_expires_at < now()
         RETURNING data`,
        [at, maxAttempts],
      );
      return toJobs(rows);
    },
  };

  const jobs: JobStore = {
    open: migrate,
    leases,
    async insert(job) {
      await pool.query(
        'INSERT INTO docs_assistant_jobs (job_id, org, domain, status, data) VALUES ($1, $2, $3, $4, $5)',
        [job.jobId, job.org, job.domain, job.status, JSON.stringify(job)],
      );
    },
    async get(jobId) {
      if (!isJobId(jobId)) return undefined;
      const { rows } = await pool.query<{ data: unknown }>(
        'SELECT data FROM docs_assistant_jobs WHERE job_id = $1',
        [jobId],
      );
      return toJob(rows[0]);
    },
    async update(jobId, changes) {
      const { rows } = await pool.query<{ data: unknown }>(
        `UPDATE docs_assistant_jobs SET data = data || $2::jsonb, status = (data || $2::jsonb)->>'status' WHERE job_id = $1 RETURNING data`,
        [jobId, JSON.stringify(changes)],
      );
      return toJob(rows[0]);
    },
    claim(workerId, at) {
      return transaction(async (client) => {
        // Claims take turns (a transaction-scoped lock), so "one running job per domain" holds
        // across instances; SKIP LOCKED passes over rows another transaction is changing.
        await client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
        const { rows } = await client.query<{ data: unknown }>(
          `WITH next AS (
             SELECT job_id FROM docs_assistant_jobs j
             WHERE status = 'queued' AND NOT EXISTS (SELECT 1 FROM docs_assistant_jobs r WHERE r.status = 'running' AND r.domain = j.domain)
             ORDER BY job_id LIMIT 1 FOR UPDATE SKIP LOCKED)
           UPDATE docs_assistant_jobs SET status = 'running', worker_id = $1, attempts = attempts + 1,
             lease_expires_at = now() + $3 * interval '1 millisecond',
             data = data || jsonb_build_object('status', 'running', 'workerId', $1::text, 'updatedAt', $2::text)
           FROM next WHERE docs_assistant_jobs.job_id = next.job_id
           RETURNING docs_assistant_jobs.data`,
          [workerId, at, leaseMs],
        );
        return toJob(rows[0]);
      });
    },
    async list({ status, org }) {
      const { rows } = await pool.query<{ data: unknown }>(
        'SELECT data FROM docs_assistant_jobs WHERE status = ANY($1) AND ($2::text IS NULL OR org = $2) ORDER BY job_id',
        [status, org ?? null],
      );
      return toJobs(rows);
    },
    async delete(jobId) {
      await pool.query('DELETE FROM docs_assistant_jobs WHERE job_id = $1', [jobId]);
      await pool.query('DELETE FROM docs_assistant_bundle_chunks WHERE job_id = $1', [jobId]);
    },
    close: async () => {},
  };

  let lastSweep = 0;
  const rateLimits: RateLimitStore = {
    open: migrate,
    async increment(key, windowMs, now) {
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        await pool.query(
          'DELETE FROM docs_assistant_rate_limits WHERE window_start + window_ms <= $1',
          [now],
        );
      }
      // One upsert: concurrent hits from every instance are counted, none lost.
      const { rows } = await pool.query<{ count: number; reset_at: string }>(
        `INSERT INTO docs_assistant_rate_limits AS r (key, window_start, window_ms, count) VALUES ($1, $2, $3, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN $2 - r.window_start >= r.window_ms THEN 1 ELSE r.count + 1 END,
           window_ms = CASE WHEN $2 - r.window_start >= r.window_ms THEN $3 ELSE r.window_ms END,
           window_start = CASE WHEN $2 - r.window_start >= r.window_ms THEN $2 ELSE r.window_start END
         RETURNING count, window_start + window_ms AS reset_at`,
        [key, now, windowMs],
      );
      return { count: rows[0]!.count, resetAt: Number(rows[0]!.reset_at) };
    },
    close: async () => {},
  };

  const signingKey: SigningKeyStore = {
    async getOrCreate(fresh) {
      await migrate();
      // Of several instances starting together, the first insert wins and every one reads it.
      await pool.query(
        `INSERT INTO docs_assistant_settings (name, value) VALUES ('link-signing-key', $1) ON CONFLICT (name) DO NOTHING`,
        [fresh.toString('hex')],
      );
      const { rows } = await pool.query<{ value: string }>(
        `SELECT value FROM docs_assistant_settings WHERE name = 'link-signing-key'`,
      );
      return Buffer.from(rows[0]!.value, 'hex');
    },
  };

  const bundles: BundleStore = {
    async put(jobId, file) {
      await transaction(async (client) => {
        await client.query('DELETE FROM docs_assistant_bundle_chunks WHERE job_id = $1', [jobId]);
        let seq = 0;
        for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
          await client.query(
            'INSERT INTO docs_assistant_bundle_chunks (job_id, seq, data) VALUES ($1, $2, $3)',
            [jobId, seq++, chunk],
          );
        }
      });
    },
    async read(jobId) {
      const { rows } = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM docs_assistant_bundle_chunks WHERE job_id = $1',
        [jobId],
      );
      const chunks = rows[0]?.n ?? 0;
      if (chunks === 0) return undefined;
      let seq = 0;
      // One chunk per pull: a big bundle never sits in memory whole.
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (seq >= chunks) return controller.close();
          const {
            rows: [row],
          } = await pool.query<{ data: Buffer }>(
            'SELECT data FROM docs_assistant_bundle_chunks WHERE job_id = $1 AND seq = $2',
            [jobId, seq++],
          );
          if (!row) return controller.error(new Error(`Bundle ${jobId} lost chunk ${seq - 1}.`));
          controller.enqueue(new Uint8Array(row.data));
        },
      });
    },
  };

  // Section vectors as float32 bytes (bytea): every PostgreSQL has it, and nearest-neighbour search
  // runs in the server's memory over the site's few thousand sections, so pgvector would add nothing.
  const lockClients = new Map<string, pg.PoolClient>();
  let lockCount = 0;
  const vectors: VectorStore = {
    async load(model, hashes) {
      await migrate();
      const { rows } = await pool.query<{ hash: string; data: Buffer }>(
        'SELECT hash, data FROM docs_assistant_vectors WHERE model = $1 AND hash = ANY($2)',
        [model, hashes],
      );
      return new Map(rows.map((row) => [row.hash, vectorFromBytes(row.data)]));
    },
    async save(model, found, used) {
      await migrate();
      await transaction(async (client) => {
        const entries = [...found];
        for (let start = 0; start < entries.length; start += VECTOR_ROWS) {
          const part = entries.slice(start, start + VECTOR_ROWS);
          await client.query(
            `INSERT INTO docs_assistant_vectors (model, hash, data)
             SELECT $1, * FROM unnest($2::text[], $3::bytea[])
             ON CONFLICT (model, hash) DO UPDATE SET data = excluded.data, seen_at = now()`,
            [model, part.map(([hash]) => hash), part.map(([, vector]) => vectorToBytes(vector))],
          );
        }
        await client.query(
          'UPDATE docs_assistant_vectors SET seen_at = now() WHERE model = $1 AND hash = ANY($2)',
          [model, used],
        );
        await client.query(
          `DELETE FROM docs_assistant_vectors WHERE model = $1 AND seen_at < now() - make_interval(days => $2)`,
          [model, VECTOR_RETENTION_DAYS],
        );
      });
    },
    // A session lock on its own connection: an instance that dies mid-indexing lets go with it.
    async lock(model) {
      await migrate();
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [VECTOR_LOCK, model]);
      } catch (error) {
        client.release();
        throw error;
      }
      const token = `${++lockCount}\n${model}`;
      lockClients.set(token, client);
      return token;
    },
    async unlock(token) {
      const client = lockClients.get(token);
      if (!client) return;
      lockClients.delete(token);
      const model = token.slice(token.indexOf('\n') + 1);
      try {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [VECTOR_LOCK, model]);
        client.release();
      } catch (error) {
        client.release(error as Error);
      }
    },
  };

  return {
    threads,
    insights,
    jobs,
    rateLimits,
    signingKey,
    bundles,
    vectors,
    async close() {
      if (closed) return;
      closed = true;
      // A lock still held (an indexing cut short) goes with its connection.
      for (const client of lockClients.values()) client.release(true);
      lockClients.clear();
      await pool.end();
    },
  };
}
