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
