import { createUIMessageStream, createUIMessageStreamResponse, type UIMessageChunk } from 'ai-v6';
import type { FinishReason, TurnPart } from '../answering/parts.js';

/** What the v2 stream's message metadata holds: the thread a follow-up continues. */
export interface V2MessageMetadata {
  threadId: string;
}

/**
 * The v2 writer: a turn's parts as the AI SDK 5+ UI message stream (NOTES §8), every chunk
 * encoded by the SDK's own writer (`ai` 6, the `ai-v6` alias): `text/event-stream`,
 * `x-vercel-ai-ui-message-stream: v1`, `data: {json}` events, `data: [DONE]` at the end. The
 * sibling of the v1 writer (data-stream.ts), with the same signature.
 *
 * The thread id reaches the client in the `X-Thread-Id` header (the turn's), in the `finish`
 * chunk's `messageMetadata` (which `useChat` keeps as `message.metadata`) and as the `finish`
 * chunk's own `threadId`, where the live service's third-party clients read it (SDK 5.0.277+ and
 * 6 tolerate the extra key and drop it).
 */
export function uiMessageStreamResponse(
  parts: AsyncIterable<TurnPart>,
  headers: Record<string, string>,
): Response {
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      const chunks = chunker();
      for await (const part of parts) for (const chunk of chunks.of(part)) writer.write(chunk);
      for (const chunk of chunks.close()) writer.write(chunk);
    },
    onError: () => 'The answer was cut short by a server error. Please ask again.',
  });
  return createUIMessageStreamResponse({ status: 200, headers, stream });
}

/** SDK 5 has no `unknown` finish reason; `other` is its word for it. */
const finishReasonOf = (reason: FinishReason) => (reason === 'unknown' ? 'other' : reason);

/**
 * Turns parts into UI message chunks. Text and reasoning are blocks in SDK 5 (`text-start`,
 * `text-delta`…, `text-end`): a block stays open while parts of its kind follow one another, and
 * closes before anything else is written.
 */
function chunker() {
  let open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  let blocks = 0;
  let started = false;

  const close = (): UIMessageChunk[] => {
    if (!open) return [];
    const end = { type: `${open.kind}-end` as const, id: open.id };
    open = undefined;
    return [end];
  };
  const delta = (kind: 'text' | 'reasoning', text: string): UIMessageChunk[] => {
    const out: UIMessageChunk[] = [];
    if (open?.kind !== kind) {
      out.push(...close());
      open = { kind, id: `${kind}-${++blocks}` };
      out.push({ type: `${kind}-start`, id: open.id });
    }
    out.push({ type: `${kind}-delta`, id: open.id, delta: text });
    return out;
  };

  function of(part: TurnPart): UIMessageChunk[] {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        return delta(part.type, part.text);
      case 'reasoning-signature':
      case 'redacted-reasoning':
        // SDK 5 carries a provider's proof of reasoning in providerMetadata, which the UI never
        // shows; the answer's text is the same without it.
        return [];
      case 'step-start': {
        const out: UIMessageChunk[] = close();
        if (!started) {
          started = true;
          out.push({ type: 'start', messageId: part.messageId });
        }
        out.push({ type: 'start-step' });
        return out;
      }
      case 'step-finish':
        return [...close(), { type: 'finish-step' }];
      case 'source':
        return [
          ...close(),
          {
            type: 'source-url',
            sourceId: part.id,
            url: part.url,
            ...(part.title !== undefined ? { title: part.title } : {}),
          },
        ];
      case 'tool-call':
        return [
          ...close(),
          {
            type: 'tool-input-available',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.args,
          },
        ];
      case 'tool-result':
        return [
          ...close(),
          { type: 'tool-output-available', toolCallId: part.toolCallId, output: part.result },
        ];
      case 'suggestions':
        // Follow-up questions are a data part of the answer (`message.parts`, `data-suggestions`).
        return [...close(), { type: 'data-suggestions', data: { questions: part.questions } }];
      case 'confidence':
        // How sure the answer is: a data part of the answer (`data-confidence`), like its suggestions.
        return [...close(), { type: 'data-confidence', data: { level: part.level } }];
      case 'error':
        return [...close(), { type: 'error', errorText: part.error.message }];
      case 'finish': {
        const metadata: V2MessageMetadata = { threadId: part.threadId };
        return [
          ...close(),
          {
            type: 'finish',
            finishReason: finishReasonOf(part.finishReason),
            messageMetadata: metadata,
            // The live service's clients read `event.threadId`; the SDK's type has no such key.
            ...{ threadId: part.threadId },
          },
        ];
      }
      default:
        return part satisfies never;
    }
  }

  return { of, close };
}
