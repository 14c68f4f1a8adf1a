import type { TextStreamPart, ToolSet } from 'ai';

/**
 * The model ends its answer with its follow-up questions in a fenced block of this language; the
 * server takes the block out of the text and sends the questions as the `8:` annotation
 * `{type:'suggestions', questions}` that extractive answers send too. One call, no second round
 * trip: the model knows best what its own answer leaves open.
 */
export const FOLLOW_UPS_LANGUAGE = 'followups';
const FENCE = '```' + FOLLOW_UPS_LANGUAGE;

/** The instruction added to the system prompt. */
export const FOLLOW_UPS_INSTRUCTION = `- After the answer, suggest up to 3 short follow-up questions the reader may ask next, each one the passages can answer, one per line in a fenced block, and write nothing after it:
${FENCE}
First question?
Second question?
\`\`\``;

/** How many questions are kept, and how long one may be (the widget shows no longer ones). */
const MAX_QUESTIONS = 3;
const MAX_QUESTION_CHARS = 200;

/** The questions of a block's body: one a line, list markers and blank lines dropped. */
export function questionsOf(block: string): string[] {
  const body = block.split(/^```/m)[0] ?? '';
  const questions = body
    .split('\n')
    // A citation in a question points at passages the reader cannot see there.
    .map((line) =>
      line
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/\s*\[\d{1,3}\]/g, '')
        .trim(),
    )
    .filter((line) => line.length > 0 && line.length <= MAX_QUESTION_CHARS);
  return [...new Set(questions)].slice(0, MAX_QUESTIONS);
}

/**
 * A stream transform that keeps the follow-ups block out of the text the reader sees (and the
 * thread stores), across chunk boundaries: the end of a chunk that may begin the fence is held
 * until the next chunk tells. The block's questions go into `found` when a step finishes.
 */
export function followUpsFilter<TOOLS extends ToolSet>(found: string[]) {
  return () => {
    let held = '';
    let block: string | undefined;
    return new TransformStream<TextStreamPart<TOOLS>, TextStreamPart<TOOLS>>({
      transform(part, controller) {
        if (part.type === 'text-delta') {
          if (block !== undefined) {
            block += part.textDelta;
            return;
          }
          const text = held + part.textDelta;
          const at = text.indexOf(FENCE);
          if (at >= 0) {
            const before = text.slice(0, at).trimEnd();
            if (before) controller.enqueue({ ...part, textDelta: before });
            block = text.slice(at + FENCE.length);
            held = '';
            return;
          }
          // Hold back a tail that could still grow into the fence ("`", "``", "```fol"…), and
          // the blank lines before it, which would otherwise end the answer.
          let keep = Math.min(text.length, FENCE.length - 1);
          while (keep > 0 && !FENCE.startsWith(text.slice(text.length - keep))) keep--;
          while (keep < text.length && /\s/.test(text[text.length - keep - 1]!)) keep++;
          held = text.slice(text.length - keep);
          const ready = text.slice(0, text.length - keep);
          if (ready) controller.enqueue({ ...part, textDelta: ready });
          return;
        }
        if (part.type === 'step-finish' || part.type === 'finish' || part.type === 'tool-call') {
          if (held) controller.enqueue({ type: 'text-delta', textDelta: held });
          held = '';
          if (block !== undefined) found.splice(0, found.length, ...questionsOf(block));
          block = undefined;
        }
        controller.enqueue(part);
      },
    });
  };
}
