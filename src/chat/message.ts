/**
 * A message as the chat holds it: the AI SDK 4 `UIMessage`, written out as plain types.
 *
 * The widget's public types use these instead of importing the SDK's: `@ai-sdk/ui-utils`' own
 * declarations import zod and `json-schema`, so a page that installs the widget would need both to
 * type-check with `skipLibCheck: false`. `test/public-types.test.ts` keeps these assignable both
 * ways to the SDK's `UIMessage`, so the hook's messages go in and out unchanged.
 */

export type JsonValue =
  null | string | number | boolean | { [key: string]: JsonValue } | JsonValue[];

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ReasoningPart {
  type: 'reasoning';
  reasoning: string;
  details: Array<
    { type: 'text'; text: string; signature?: string } | { type: 'redacted'; data: string }
  >;
}

/** A tool call while it streams (`partial-call`), once called (`call`), and with its `result`. */
export type ToolInvocation =
  | {
      state: 'partial-call' | 'call';
      step?: number;
      toolCallId: string;
      toolName: string;
      args: unknown;
    }
  | {
      state: 'result';
      step?: number;
      toolCallId: string;
      toolName: string;
      args: unknown;
      result: unknown;
    };

export interface ToolInvocationPart {
  type: 'tool-invocation';
  toolInvocation: ToolInvocation;
}

export interface SourcePart {
  type: 'source';
  source: { sourceType: 'url'; id: string; url: string; title?: string };
}

export interface FilePart {
  type: 'file';
  mimeType: string;
  data: string;
}

export interface StepStartPart {
  type: 'step-start';
}

export type MessagePart =
  TextPart | ReasoningPart | ToolInvocationPart | SourcePart | FilePart | StepStartPart;

export interface ChatMessage {
  id: string;
  createdAt?: Date;
  role: 'system' | 'user' | 'assistant' | 'data';
  /** The message's text; `parts` holds it too, with everything else the answer streamed. */
  content: string;
  parts: MessagePart[];
  annotations?: JsonValue[];
  experimental_attachments?: Array<{ url: string; name?: string; contentType?: string }>;
}
