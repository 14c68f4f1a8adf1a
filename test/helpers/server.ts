import { processDataStream } from '@ai-sdk/ui-utils';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppOptions } from '../../src/server/http/app.js';
import { DEMO } from '../../src/server/config.js';
import { loadDocsSite, type DocsSite } from '../../src/server/site/docs.js';

/**
 * The tests' sample docs site: 21 small pages about an imaginary docs-assistant (versions, a French
 * page, code blocks, an export folder), which the answer and page tests assert on. `npm start`
 * serves the project's own docs/ instead.
 */
export const FIXTURE_DOCS_DIR = join(import.meta.dirname, '..', 'fixtures', 'sample-docs');
let sample: Promise<DocsSite> | undefined;
/**
 * The fixture docs, loaded once per vitest worker (the unit project shares modules between files:
 * vite.config.ts). Tests read the site and never change it.
 */
export const sampleDocs = () => (sample ??= loadDocsSite(FIXTURE_DOCS_DIR));

/** Fastify's docs folder (v5, MIT), a real third-party corpus: 80 pages of guides and reference. */
export const FASTIFY_DOCS_DIR = join(import.meta.dirname, '..', 'fixtures', 'corpus', 'fastify');
let fastify: Promise<DocsSite> | undefined;
/** Fastify's docs, loaded once per vitest worker like {@link sampleDocs}. */
export const fastifyDocs = () => (fastify ??= loadDocsSite(FASTIFY_DOCS_DIR));

export const tempDir = (prefix = 'da-test-') => mkdtemp(join(tmpdir(), prefix));

/** The demo configuration `npm start` uses, with overrides. */
export async function demoApp(overrides: Partial<AppOptions> = {}) {
  return createApp({
    orgs: [
      { id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey, DEMO.adminKey] },
      { id: 'other', plan: 'free', keys: ['svc_dsc_other'] },
    ],
    sites: [{ domain: DEMO.domain, org: DEMO.org, docs: await sampleDocs() }],
    ...overrides,
  });
}

export type TestApp = Awaited<ReturnType<typeof demoApp>>;

let counter = 0;
export function userMessage(text: string) {
  counter++;
  return {
    id: `u${counter}`,
    role: 'user' as const,
    content: text,
    parts: [{ type: 'text' as const, text }],
    createdAt: new Date(0).toISOString(),
  };
}

export function askBody(text: string, extra: Record<string, unknown> = {}) {
  return { fp: 'anonymous', messages: [userMessage(text)], ...extra };
}

export const MESSAGE_URL = `http://test/discovery/v1/assistant/${DEMO.domain}/message`;

export function post(
  app: TestApp,
  body: unknown,
  {
    key = DEMO.assistantKey as string | null,
    url = MESSAGE_URL,
    headers = {} as Record<string, string>,
  } = {},
) {
  return app.request(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface StreamPart {
  type: string;
  value: unknown;
}

/** Parses a response body with the real SDK parser, keeping every part in arrival order. */
export async function readStream(response: Response): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  // processDataStream hands each callback the part's value only; the callback names its type.
  const on = (type: string) => (value: unknown) => {
    parts.push({ type, value });
  };
  await processDataStream({
    stream: response.body!,
    onTextPart: on('text'),
    onReasoningPart: on('reasoning'),
    onSourcePart: on('source'),
    onToolCallPart: on('tool_call'),
    onToolResultPart: on('tool_result'),
    onStartStepPart: on('start_step'),
    onFinishStepPart: on('finish_step'),
    onFinishMessagePart: on('finish_message'),
    onErrorPart: on('error'),
    onDataPart: on('data'),
    onMessageAnnotationsPart: on('message_annotations'),
  });
  return parts;
}

export const textOf = (parts: StreamPart[]) =>
  parts
    .filter((p) => p.type === 'text')
    .map((p) => p.value as string)
    .join('');
export const sourcesOf = (parts: StreamPart[]) =>
  parts
    .filter((p) => p.type === 'source')
    .map((p) => p.value as { id: string; url: string; title?: string });
export const searchResultsOf = (parts: StreamPart[]) =>
  (
    parts.find((p) => p.type === 'tool_result')?.value as {
      result: { url: string; path: string; title: string }[];
    }
  ).result;
