import { formatDataStreamPart, parseDataStreamPart } from '@ai-sdk/ui-utils';

/**
 * The AI SDK 4 data stream protocol (SPEC §4.1, §9): one `CODE:JSON\n` line per part. These are the
 * only codes the SDK accepts; anything else makes it throw away a whole network read.
 */
export const STREAM_CODES = {
  '0': 'text',
  '2': 'data',
  '3': 'error',
  '8': 'message_annotations',
  '9': 'tool_call',
  a: 'tool_result',
  b: 'tool_call_streaming_start',
  c: 'tool_call_delta',
  d: 'finish_message',
  e: 'finish_step',
  f: 'start_step',
  g: 'reasoning',
  h: 'source',
  i: 'redacted_reasoning',
  j: 'reasoning_signature',
  k: 'file',
} as const;

export type StreamCode = keyof typeof STREAM_CODES;
export type StreamPartType = (typeof STREAM_CODES)[StreamCode];

export type StreamLineFailure =
  'empty' | 'no_separator' | 'unknown_code' | 'bad_json' | 'bad_value';

export type ParsedStreamLine =
  | {
      ok: true;
      code: StreamCode;
      type: StreamPartType;
      /** The value as the SDK's parser reads it (for `d:` only finishReason and usage survive). */
      value: unknown;
      /** The value exactly as sent, every key kept (where `threadId` rides in `d:`/`e:`). */
      json: unknown;
    }
  | { ok: false; reason: StreamLineFailure; line: string };

export function isStreamCode(code: string): code is StreamCode {
  return Object.hasOwn(STREAM_CODES, code);
}

/** Parses one line (with or without its trailing newline) into a part, or says why it is not one. */
export function parseStreamLine(raw: string): ParsedStreamLine {
  const line = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return { ok: false, reason: 'empty', line };
  const colon = line.indexOf(':');
  if (colon < 0) return { ok: false, reason: 'no_separator', line };
  const code = line.slice(0, colon);
  if (!isStreamCode(code)) return { ok: false, reason: 'unknown_code', line };
  let json: unknown;
  try {
    json = JSON.parse(line.slice(colon + 1));
  } catch {
    return { ok: false, reason: 'bad_json', line };
  }
  try {
    // The SDK's own parser also checks each code's value shape (e.g. `d:` needs `finishReason`).
    const part = parseDataStreamPart(line);
    return { ok: true, code, type: part.type as StreamPartType, value: part.value, json };
  } catch {
    return { ok: false, reason: 'bad_value', line };
  }
}

/**
 * Formats one part exactly as the SDK does (the real encoder, never hand-made strings). Typed
 * without the SDK's part types, whose declarations need zod: the widget's own must not.
 */
export function formatStreamPart(type: StreamPartType, value: unknown): string {
  return formatDataStreamPart(type, value as never);
}
