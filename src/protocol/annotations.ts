// No zod here: the widget reads annotations, and zod must stay out of the page's bundle.
import { isRecord } from './_guards.js';

/**
 * Follow-up questions an answer offers. They ride in a message annotation (`8:`): a stock `useChat`
 * keeps an annotation on its own answer, where a `2:` data item would be shared by the whole chat.
 */
export interface SuggestionsAnnotation {
  type: 'suggestions';
  questions: string[];
}

/** The questions of every suggestions annotation of a message; anything else is ignored. */
export function suggestedQuestions(annotations: unknown): string[] {
  if (!Array.isArray(annotations)) return [];
  return annotations.flatMap((item: unknown) =>
    isRecord(item) && item.type === 'suggestions' && Array.isArray(item.questions)
      ? item.questions.filter(
          (question: unknown): question is string => typeof question === 'string',
        )
      : [],
  );
}

/**
 * How sure an answer is, as the reader is shown it: one section clearly answers (`sure`), the best
 * matches are close and the answer shows them as places to read (`unsure`), or the docs do not
 * cover the question (`refused`). The turn's outcomes `answered`, `unsure`, `refused` (insights).
 */
export const CONFIDENCE_LEVELS = ['sure', 'unsure', 'refused'] as const;
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];

/** An answer's confidence, in a message annotation (`8:`) beside its suggestions; v2 sends `data-confidence`. */
export interface ConfidenceAnnotation {
  type: 'confidence';
  level: ConfidenceLevel;
}

/** The level of a message's confidence annotation (the last one), or undefined when it has none. */
export function confidenceLevel(annotations: unknown): ConfidenceLevel | undefined {
  if (!Array.isArray(annotations)) return undefined;
  let level: ConfidenceLevel | undefined;
  for (const item of annotations as unknown[])
    if (
      isRecord(item) &&
      item.type === 'confidence' &&
      (CONFIDENCE_LEVELS as readonly unknown[]).includes(item.level)
    )
      level = item.level as ConfidenceLevel;
  return level;
}
