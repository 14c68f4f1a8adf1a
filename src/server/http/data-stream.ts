import { createDataStreamResponse, formatDataStreamPart, type DataStreamWriter } from 'ai';
import type { DataStreamString } from '@ai-sdk/ui-utils';
import type { ConfidenceAnnotation, SuggestionsAnnotation } from '../../protocol/index.js';
import type { TurnPart } from '../answering/parts.js';

/**
 * The v1 writer: a turn's parts as the AI SDK 4 data stream (SPEC §4.1), every line made by the
 * `ai` package's own encoder. A writer for another protocol (the AI SDK 5 UI message stream) is a
 * sibling module with the same signature, `(parts, headers) => Response`; the turn picks one.
 */
export function dataStreamResponse(
  parts: AsyncIterable<TurnPart>,
  headers: Record<string, string>,
): Response {
  return createDataStreamResponse({
    status: 200,
    headers,
    execute: async (stream) => {
      const out = coalesced(stream);
      try {
        for await (const part of parts) out.write(lineOf(part));
      } finally {
        out.flush();
      }
    },
    onError: () => 'The answer was cut short by a server error. Please ask again.',
  });
}

/** The one line of the data stream a part is. */
function lineOf(part: TurnPart): DataStreamString {
  switch (part.type) {
    case 'step-start':
      return formatDataStreamPart('start_step', { messageId: part.messageId });
    case 'step-finish':
      return formatDataStreamPart('finish_step', {
        finishReason: part.finishReason,
        usage: part.usage,
        isContinued: part.isContinued,
      });
    case 'text':
      return formatDataStreamPart('text', part.text);
    case 'reasoning':
      return formatDataStreamPart('reasoning', part.text);
    case 'reasoning-signature':
      return formatDataStreamPart('reasoning_signature', { signature: part.signature });
    case 'redacted-reasoning':
      return formatDataStreamPart('redacted_reasoning', { data: part.data });
    case 'source':
      return formatDataStreamPart('source', {
        sourceType: 'url',
        id: part.id,
        url: part.url,
        ...(part.title !== undefined ? { title: part.title } : {}),
      });
    case 'tool-call':
      return formatDataStreamPart('tool_call', {
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        args: part.args,
      });
    case 'tool-result':
      return formatDataStreamPart('tool_result', {
        toolCallId: part.toolCallId,
        result: part.result,
      });
    case 'suggestions':
      // Follow-up questions ride in a message annotation (`8:`): a stock `useChat` keeps it on
      // this answer's `message.annotations`, where a `2:` data item would be shared by the chat.
      return formatDataStreamPart('message_annotations', [
        { type: 'suggestions', questions: part.questions } satisfies SuggestionsAnnotation,
      ]);
    case 'confidence':
      // How sure the answer is rides the same way, so the reader's client shows it beside the answer.
      return formatDataStreamPart('message_annotations', [
        { type: 'confidence', level: part.level } satisfies ConfidenceAnnotation,
      ]);
    case 'error':
      return formatDataStreamPart('error', part.error.message);
    case 'finish':
      // SPEC §6: the finish event carries threadId. The SDK type has no such key; the wire does.
      return formatDataStreamPart('finish_message', {
        finishReason: part.finishReason,
        usage: part.usage,
        threadId: part.threadId,
      } as Parameters<typeof formatDataStreamPart<'finish_message'>>[1]);
    default:
      return part satisfies never;
  }
}

/**
 * Lines written in one turn of the event loop go out as one write: a quoted answer is known up
 * front, and one socket write per 48-character part made the HTTP plumbing, not the search, the
 * main cost of an answer. A model's parts, which arrive apart, still go out as they come.
 */
function coalesced(stream: DataStreamWriter) {
  const lines: DataStreamString[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const flush = () => {
    clearImmediate(scheduled);
    scheduled = undefined;
    if (lines.length) stream.write(lines.splice(0).join('') as DataStreamString);
  };
  return {
    write(line: DataStreamString) {
      lines.push(line);
      scheduled ??= setImmediate(flush);
    },
    flush,
  };
}
