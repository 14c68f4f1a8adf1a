import { z } from 'zod';
import { MAX_CURRENT_PATH, MAX_RETRIEVAL_PAGE_SIZE } from './limits.js';

export const reasoningDetailSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), signature: z.string().optional() }),
  z.object({ type: z.literal('redacted'), data: z.string() }),
]);

const toolInvocationBase = {
  toolCallId: z.string(),
  toolName: z.string(),
  // `args` is required but may be any value; z.unknown() would accept a missing key.
  args: z.any().refine((v) => v !== undefined, 'Required'),
  step: z.number().optional(),
};

export const toolInvocationSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('partial-call'), ...toolInvocationBase }),
  z.object({ state: z.literal('call'), ...toolInvocationBase }),
  z.object({
    state: z.literal('result'),
    ...toolInvocationBase,
    result: z.any().refine((v) => v !== undefined, 'Required'),
  }),
]);

export const sourceSchema = z.object({
  sourceType: z.literal('url'),
  id: z.string(),
  url: z.string(),
  title: z.string().optional(),
});

export const messagePartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('reasoning'),
    reasoning: z.string(),
    details: z.array(reasoningDetailSchema),
  }),
  z.object({ type: z.literal('step-start') }),
  z.object({ type: z.literal('source'), source: sourceSchema }),
  z.object({ type: z.literal('tool-invocation'), toolInvocation: toolInvocationSchema }),
]);

export const attachmentSchema = z.object({
  url: z.string(),
  name: z.string().optional(),
  contentType: z.string().optional(),
});

export const messageRoleSchema = z.enum(['system', 'assistant', 'data', 'user']);

export const messageSchema = z.object({
  id: z.string().min(1),
  role: messageRoleSchema,
  content: z.string(),
  parts: z.array(messagePartSchema),
  createdAt: z.string().datetime({ offset: true }).optional(),
  annotations: z.array(z.any()).optional(),
  experimental_attachments: z.array(attachmentSchema).optional(),
});

export const contextItemSchema = z.object({
  type: z.enum(['code', 'textSelection']),
  value: z.string(),
  path: z.string().optional(),
  elementId: z.string().optional(),
});

export const filterSchema = z.object({
  version: z.string().optional(),
  language: z.string().optional(),
});

/** NOTES §7: the live service's search operation. */
export const searchRequestSchema = z.object({
  query: z.string().trim().min(1).max(2000),
  pageSize: z.number().int().min(1).max(50).default(10),
  /** 0–1: hits scoring below this share of the best hit's score are left out. */
  scoreThreshold: z.number().min(0).max(1).optional(),
  filter: z
    .object({
      version: z.string().optional(),
      language: z.string().optional(),
      tag: z.string().optional(),
      groups: z.array(z.string()).optional(),
    })
    .optional(),
});

/** NOTES §7: one search hit, the section as Markdown. */
export const searchResultSchema = z.object({
  content: z.string(),
  path: z.string(),
  metadata: z
    .object({
      title: z.string(),
      url: z.string(),
      score: z.number(),
      version: z.string().optional(),
      language: z.string(),
    })
    .passthrough(),
});

/** NOTES §7: the live service's page operation. */
export const pageRequestSchema = z.object({
  path: z.string().trim().min(1).max(2000),
  groups: z.array(z.string()).optional(),
});

export const pageResponseSchema = z.object({ path: z.string(), content: z.string() });

export const assistantRequestSchema = z.object({
  fp: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  threadId: z.string().nullish(),
  retrievalPageSize: z.number().int().min(1).max(MAX_RETRIEVAL_PAGE_SIZE).optional(),
  filter: filterSchema.nullish(),
  context: z.array(contextItemSchema).optional(),
  currentPath: z.string().max(MAX_CURRENT_PATH).optional(),
});

export const jobStatusSchema = z.enum(['queued', 'running', 'completed', 'failed']);

export const startJobRequestSchema = z.object({
  domain: z.string().min(1),
  version: z.string().min(1).optional(),
  paths: z.array(z.string().min(1)).min(1).optional(),
});

export const jobSchema = z.object({
  jobId: z.string(),
  domain: z.string(),
  status: jobStatusSchema,
  progress: z.number().min(0).max(100),
  pageCount: z.number().int().min(0),
  version: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  error: z.string().optional(),
});

export const bundleSchema = z.object({
  jobId: z.string(),
  bundleUrl: z.string(),
  sizeBytes: z.number().int().min(0),
  expiresAt: z.string(),
});

/** File at the root of every bundle that says what it is; a deployment checks `version` against its pin. */
export const BUNDLE_MANIFEST_FILE = 'docs-assistant-bundle.json';

export const bundleManifestSchema = z.object({
  jobId: z.string().min(1),
  domain: z.string().min(1),
  /** The export's `version` label; absent when the export had none. */
  version: z.string().min(1).optional(),
  createdAt: z.string(),
  pageCount: z.number().int().min(0),
});

export type ToolInvocation = z.infer<typeof toolInvocationSchema>;
export type Source = z.infer<typeof sourceSchema>;
export type Message = z.infer<typeof messageSchema>;
export type ContextItem = z.infer<typeof contextItemSchema>;
export type Filter = z.infer<typeof filterSchema>;
export type SearchRequest = z.input<typeof searchRequestSchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type PageRequest = z.input<typeof pageRequestSchema>;
export type PageResponse = z.infer<typeof pageResponseSchema>;
export type AssistantRequest = z.infer<typeof assistantRequestSchema>;
export type JobStatus = z.infer<typeof jobStatusSchema>;
export type StartJobRequest = z.infer<typeof startJobRequestSchema>;
export type Job = z.infer<typeof jobSchema>;
export type Bundle = z.infer<typeof bundleSchema>;
export type BundleManifest = z.infer<typeof bundleManifestSchema>;

/** Turns a zod failure into one sentence that names the offending field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}

/**
 * The v2 operation (NOTES §8): AI SDK 5 UI messages, parts without `content`. A client may send
 * back whatever its SDK kept of an earlier answer (tool parts, data parts, `step-start`), so parts
 * of other types pass through unread; only `text` parts make the question.
 */
const providerMetadataSchema = z.record(z.string(), z.any()).optional();

export const uiMessagePartSchema = z.union([
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string(), state: z.string().optional() }),
    z.object({
      type: z.literal('reasoning'),
      text: z.string(),
      providerMetadata: providerMetadataSchema,
    }),
    z.object({
      type: z.literal('source-url'),
      sourceId: z.string(),
      url: z.string(),
      title: z.string().optional(),
      providerMetadata: providerMetadataSchema,
    }),
    z.object({
      type: z.literal('file'),
      mediaType: z.string(),
      url: z.string(),
      filename: z.string().optional(),
    }),
    z.object({ type: z.literal('step-start') }),
  ]),
  // SDK 5's other parts: `tool-<name>`, `dynamic-tool`, `data-<name>`, `source-document`.
  z
    .object({
      type: z
        .string()
        .regex(/^(tool-|data-|dynamic-tool$|source-document$)/, 'unknown message part type'),
    })
    .passthrough(),
]);

export const uiMessageSchema = z.object({
  id: z.string().min(1),
  role: z.enum(['system', 'assistant', 'user']),
  parts: z.array(uiMessagePartSchema),
  metadata: z.unknown().optional(),
});

export const assistantRequestV2Schema = assistantRequestSchema.extend({
  messages: z.array(uiMessageSchema).min(1),
  filter: filterSchema.extend({ groups: z.array(z.string()).optional() }).nullish(),
});

export type UIMessageV2 = z.infer<typeof uiMessageSchema>;
export type AssistantRequestV2 = z.infer<typeof assistantRequestV2Schema>;

/**
 * A v2 message as the turn reads messages: its text parts are its content. Only text reaches an
 * answerer, in both versions.
 */
export function messageOfV2(message: UIMessageV2): Message {
  const texts = message.parts.flatMap((part) =>
    part.type === 'text' && 'text' in part && typeof part.text === 'string' ? [part.text] : [],
  );
  return {
    id: message.id,
    role: message.role,
    content: texts.join('\n'),
    parts: texts.map((text) => ({ type: 'text' as const, text })),
  };
}
