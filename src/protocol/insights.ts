import { z } from 'zod';
import { FEEDBACK_REASONS, MAX_FEEDBACK_COMMENT } from './limits.js';

/**
 * Owner insights (docs/insights.md): the feedback a widget sends, and the report an owner reads
 * with the admin key. Ours; SPEC §1 names web analytics beside the assistant and leaves the shape open.
 */

/** How a turn ended: answered, answered but unsure, refused as not covered, failed, stopped by the reader. */
export const TURN_OUTCOMES = ['answered', 'unsure', 'refused', 'failed', 'stopped'] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];
/** Quoted from the docs, or written by a language model. */
export type AnswerMode = 'quoted' | 'model';

const reasonSchema = z.enum(FEEDBACK_REASONS);

/** `POST {discovery_url}/v1/assistant/{domain}/feedback` with the assistant key → 204. */
export const feedbackRequestSchema = z.object({
  /** The same `fp` the thread was started with; another reader's thumbs is refused. */
  fp: z.string().min(1).max(1000),
  threadId: z.string().min(1).max(64),
  messageId: z.string().min(1).max(100),
  rating: z.enum(['up', 'down']),
  /** One of the widget's reasons, or several (the widget lets a reader tick more than one). */
  reason: z.union([reasonSchema, z.array(reasonSchema).max(FEEDBACK_REASONS.length)]).optional(),
  comment: z.string().max(MAX_FEEDBACK_COMMENT).optional(),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

const count = z.number().int().min(0);
const outcomeCounts = z.object(
  Object.fromEntries(TURN_OUTCOMES.map((outcome) => [outcome, count])) as Record<
    TurnOutcome,
    typeof count
  >,
);

/** `GET {base_url}/v1/insights/{domain}?since=…&until=…` with the admin key. */
export const insightsReportSchema = z.object({
  domain: z.string(),
  since: z.string(),
  until: z.string(),
  totals: outcomeCounts.extend({ questions: count }),
  /** One row per UTC day of the range, oldest first, days without questions included. */
  days: z.array(outcomeCounts.extend({ day: z.string() })),
  /** Refused, failed and unsure questions grouped by similar wording, most asked first. */
  unanswered: z.array(
    z.object({
      example: z.string(),
      count,
      outcomes: z.array(z.enum(TURN_OUTCOMES)),
      /** The pages readers were on when they asked, most frequent first. */
      pages: z.array(z.object({ path: z.string(), count })),
      lastAsked: z.string(),
      threadIds: z.array(z.string()),
    }),
  ),
  /** Pages the answers cited, most cited first. */
  citedPages: z.array(z.object({ path: z.string(), count })),
  /** Pages readers asked from when the answer was refused, failed or unsure: where the docs fall short. */
  gapPages: z.array(z.object({ path: z.string(), count, example: z.string() })),
  feedback: z.object({
    up: count,
    down: count,
    reasons: z.record(z.string(), count),
    items: z.array(
      z.object({
        at: z.string(),
        rating: z.enum(['up', 'down']),
        reasons: z.array(reasonSchema),
        comment: z.string().optional(),
        threadId: z.string(),
        messageId: z.string(),
        /** The question the rated answer replied to, when the turn was recorded. */
        question: z.string().optional(),
      }),
    ),
  }),
});
export type InsightsReport = z.infer<typeof insightsReportSchema>;

/** `GET {base_url}/v1/insights/{domain}/threads/{threadId}`: a conversation, for the owner. */
export const insightsThreadSchema = z.object({
  threadId: z.string(),
  domain: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  turns: z.array(
    z.object({
      messageId: z.string(),
      question: z.string(),
      answer: z.string(),
      sources: z.array(z.string()),
      at: z.string(),
    }),
  ),
});
export type InsightsThread = z.infer<typeof insightsThreadSchema>;

/** `DELETE {base_url}/v1/insights/{domain}` → how many records went. */
export const insightsDeletedSchema = z.object({ deleted: count });
