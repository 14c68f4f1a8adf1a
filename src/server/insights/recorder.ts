import type { AnswerMode, TurnOutcome } from '../../protocol/index.js';
import { MAX_INSIGHT_QUESTION_CHARS, type InsightStore } from '../stores/index.js';

/** A settled turn as the answering side summarises it (its `TurnSummary` fits this shape). */
export interface SettledTurn {
  domain: string;
  question: string;
  currentPath?: string | undefined;
  outcome: TurnOutcome;
  mode: AnswerMode;
  /** Page paths the answer cited. */
  cited: readonly string[];
  threadId?: string | undefined;
  messageId?: string | undefined;
  /** When the turn began (ISO 8601). */
  at: string;
  firstByteMs?: number | undefined;
  totalMs?: number | undefined;
}

/**
 * Records settled turns without ever holding up or failing an answer: the write runs on its own,
 * and a failure is a log line. With recording off (`serve --no-insights`) nothing is kept.
 */
export function createRecorder(store: InsightStore, { recording }: { recording: boolean }) {
  const pending = new Set<Promise<void>>();
  return {
    record(turn: SettledTurn): void {
      if (!recording) return;
      const write = store
        .recordTurn({
          domain: turn.domain,
          at: turn.at,
          question: turn.question.trim().slice(0, MAX_INSIGHT_QUESTION_CHARS),
          ...(turn.currentPath ? { currentPath: turn.currentPath } : {}),
          outcome: turn.outcome,
          mode: turn.mode,
          cited: [...new Set(turn.cited)].slice(0, 20),
          ...(turn.firstByteMs !== undefined ? { firstByteMs: Math.round(turn.firstByteMs) } : {}),
          ...(turn.totalMs !== undefined ? { totalMs: Math.round(turn.totalMs) } : {}),
          ...(turn.threadId ? { threadId: turn.threadId } : {}),
          ...(turn.messageId ? { messageId: turn.messageId } : {}),
        })
        .catch((error: unknown) =>
          console.error('[docs-assistant] could not record a turn for insights:', error),
        )
        .finally(() => pending.delete(write));
      pending.add(write);
    },
    /** Resolves once the writes under way have settled (close, tests). */
    settled: () => Promise.allSettled([...pending]).then(() => {}),
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
