import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { FEEDBACK_REASONS, TURN_OUTCOMES } from '../../protocol/index.js';
import { probeWritable, writeFileDurably } from './fs.js';
import type { InsightFeedback, InsightRange, InsightStore, InsightTurn } from './types.js';

/** Questions are kept up to this length: a record stays small whatever was asked. */
export const MAX_INSIGHT_QUESTION_CHARS = 500;

const turnSchema = z.object({
  domain: z.string(),
  at: z.string(),
  question: z.string(),
  currentPath: z.string().optional(),
  outcome: z.enum(TURN_OUTCOMES),
  mode: z.enum(['quoted', 'model']),
  cited: z.array(z.string()),
  firstByteMs: z.number().optional(),
  totalMs: z.number().optional(),
  threadId: z.string().optional(),
  messageId: z.string().optional(),
});
const feedbackSchema = z.object({
  domain: z.string(),
  at: z.string(),
  threadId: z.string(),
  messageId: z.string(),
  rating: z.enum(['up', 'down']),
  reasons: z.array(z.enum(FEEDBACK_REASONS)),
  comment: z.string().optional(),
  question: z.string().optional(),
});

/** A record read back from disk or a database, or undefined (logged) when it does not fit. */
export function parseInsight(kind: 'turn', value: unknown): InsightTurn | undefined;
export function parseInsight(kind: 'feedback', value: unknown): InsightFeedback | undefined;
export function parseInsight(kind: 'turn' | 'feedback', value: unknown) {
  const parsed = (kind === 'turn' ? turnSchema : feedbackSchema).safeParse(value);
  if (parsed.success) return parsed.data;
  console.error(`[docs-assistant] an insights ${kind} record does not fit; it is skipped.`);
  return undefined;
}

const inRange = (at: string, { since, until }: InsightRange) => at >= since && at < until;
const byTime = <T extends { at: string }>(records: T[]) =>
  records.sort((a, b) => a.at.localeCompare(b.at));

/** The latest feedback per answer, in time order. */
export function latestFeedback(all: InsightFeedback[]): InsightFeedback[] {
  const byAnswer = new Map<string, InsightFeedback>();
  for (const item of byTime([...all])) byAnswer.set(`${item.threadId} ${item.messageId}`, item);
  return [...byAnswer.values()];
}

/** Insights in this process only (no `--data`). */
export function memoryInsightStore(): InsightStore {
  let turns: InsightTurn[] = [];
  let feedback: InsightFeedback[] = [];
  return {
    async open() {},
    async recordTurn(turn) {
      turns.push(turn);
    },
    async recordFeedback(item) {
      feedback.push(item);
    },
    async list(domain, range) {
      const mine = <T extends { domain: string; at: string }>(all: T[]) =>
        all.filter((item) => item.domain === domain && inRange(item.at, range));
      return { turns: byTime(mine(turns)), feedback: latestFeedback(mine(feedback)) };
    },
    async deleteDomain(domain) {
      const before = turns.length + feedback.length;
      turns = turns.filter((turn) => turn.domain !== domain);
      feedback = feedback.filter((item) => item.domain !== domain);
      return before - turns.length - feedback.length;
    },
    async prune(before) {
      const count = turns.length + feedback.length;
      turns = turns.filter((turn) => turn.at >= before);
      feedback = feedback.filter((item) => item.at >= before);
      return count - turns.length - feedback.length;
    },
    async close() {},
  };
}

/** `turns-2026-11-25.jsonl` → its kind and UTC day. */
const DAY_FILE = /^(turns|feedback)-(\d{4}-\d{2}-\d{2})\.jsonl$/;

/**
 * One JSON line per record, in one file per kind and UTC day under `dir`: recording is an append,
 * retention removes whole days, and a report reads only the days of its range. An append is not
 * fsynced: insights are worth less than an answer's speed, and a crash loses a few lines at most.
 */
export function fileInsightStore(dir: string): InsightStore {
  const fileOf = (kind: 'turns' | 'feedback', at: string) =>
    join(dir, `${kind}-${at.slice(0, 10)}.jsonl`);
  const days = async () =>
    (await readdir(dir)).flatMap((name) => {
      const match = DAY_FILE.exec(name);
      return match ? [{ name, kind: match[1] as 'turns' | 'feedback', day: match[2]! }] : [];
    });
  const readLines = async (name: string): Promise<unknown[]> => {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    return text.split('\n').flatMap((line) => {
      if (!line) return [];
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        // A line cut by a crash mid-append: the rest of the day still counts.
        return [];
      }
    });
  };
  // Rewrites (deleteDomain) and appends take turns, so no append lands in a file being replaced.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.catch(() => {}).then(work);
    queue = next;
    return next;
  };
  const append = (kind: 'turns' | 'feedback', record: { at: string }) =>
    serial(() => appendFile(fileOf(kind, record.at), `${JSON.stringify(record)}\n`));

  return {
    async open() {
      await mkdir(dir, { recursive: true });
      await probeWritable(dir);
    },
    recordTurn: (turn) => append('turns', turn),
    recordFeedback: (item) => append('feedback', item),
    async list(domain, range) {
      const turns: InsightTurn[] = [];
      const feedback: InsightFeedback[] = [];
      const firstDay = range.since.slice(0, 10);
      const lastDay = range.until.slice(0, 10);
      for (const file of (await days()).sort((a, b) => a.name.localeCompare(b.name))) {
        if (file.day < firstDay || file.day > lastDay) continue;
        for (const line of await readLines(file.name)) {
          const record =
            file.kind === 'turns' ? parseInsight('turn', line) : parseInsight('feedback', line);
          if (!record || record.domain !== domain || !inRange(record.at, range)) continue;
          if (file.kind === 'turns') turns.push(record as InsightTurn);
          else feedback.push(record as InsightFeedback);
        }
      }
      return { turns: byTime(turns), feedback: latestFeedback(feedback) };
    },
    deleteDomain: (domain) =>
      serial(async () => {
        let deleted = 0;
        for (const file of await days()) {
          const lines = await readLines(file.name);
          const kept = lines.filter(
            (line) =>
              !(typeof line === 'object' && line && 'domain' in line && line.domain === domain),
          );
          if (kept.length === lines.length) continue;
          deleted += lines.length - kept.length;
          if (kept.length === 0) await rm(join(dir, file.name), { force: true });
          else
            await writeFileDurably(
              join(dir, file.name),
              kept.map((line) => `${JSON.stringify(line)}\n`).join(''),
            );
        }
        return deleted;
      }),
    prune: (before) =>
      serial(async () => {
        // Whole days only: a day file goes once its last moment is before the cutoff.
        const cutoffDay = before.slice(0, 10);
        let deleted = 0;
        for (const file of await days()) {
          if (file.day >= cutoffDay) continue;
          deleted += (await readLines(file.name)).length;
          await rm(join(dir, file.name), { force: true });
        }
        return deleted;
      }),
    async close() {
      await queue.catch(() => {});
    },
  };
}
