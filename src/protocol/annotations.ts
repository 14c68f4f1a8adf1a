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
