import { describe, expect, it } from 'vitest';
import {
  assistantRequestSchema,
  bearerKey,
  classifyKey,
  describeIssues,
  formatStreamPart,
  messagePartSchema,
  parseErrorBody,
  parseStreamLine,
  parseSearchHits,
  searchQueryOf,
  wrongKeySentence,
  assistantMessageUrl,
  exportPaths,
  ROUTES,
  serviceUrl,
  suggestedQuestions,
  confidenceLevel,
} from '../src/protocol/index.js';
import { parseBundle, parseJob } from '../src/protocol/parse.js';
import { bundleSchema, jobSchema } from '../src/protocol/schemas.js';

describe('keys', () => {
  it('tells assistant keys, admin keys and non-keys apart', () => {
    expect(classifyKey('svc_dsc_abc')).toBe('assistant');
    expect(classifyKey('svc_abc')).toBe('admin');
    expect(classifyKey('svc_demo_admin')).toBe('admin');
    expect(classifyKey('svc_dsc_')).toBe('invalid');
    expect(classifyKey('svc_')).toBe('invalid');
    expect(classifyKey('mint_dsc_abc')).toBe('invalid');
    expect(classifyKey('svc_dsc_a b')).toBe('invalid');
    expect(classifyKey(undefined)).toBe('invalid');
  });

  it('reads the key from a bearer header only', () => {
    expect(bearerKey('Bearer svc_dsc_x')).toBe('svc_dsc_x');
    expect(bearerKey('bearer   svc_dsc_x ')).toBe('svc_dsc_x');
    expect(bearerKey('Basic abc')).toBeUndefined();
    expect(bearerKey(undefined)).toBeUndefined();
  });
});

describe('key refusals', () => {
  it('name where the key was found, what it should be and what it is', () => {
    expect(wrongKeySentence('data-api-key', 'assistant', 'admin')).toMatch(
      /^data-api-key must be an assistant key \(svc_dsc_…\) but is an admin key \(svc_…\)\. Admin keys are server-side secrets.*Revoke one that was exposed\.$/,
    );
    expect(wrongKeySentence('DOCS_ASSISTANT_ADMIN_KEY', 'admin', 'assistant')).toMatch(
      /^DOCS_ASSISTANT_ADMIN_KEY must be an admin key \(svc_…\) but is an assistant key \(svc_dsc_…\)\. Static export needs an admin key/,
    );
    expect(wrongKeySentence('The key sent', 'admin', 'invalid')).toBe(
      'The key sent must be an admin key (svc_…) but is not a key.',
    );
  });
});

describe('routes', () => {
  it('builds the URLs of SPEC §4 from a base URL with or without a trailing slash', () => {
    expect(assistantMessageUrl('https://api.example.com/', 'docs.acme')).toBe(
      'https://api.example.com/discovery/v1/assistant/docs.acme/message',
    );
    expect(assistantMessageUrl('', 'a/b')).toBe('/discovery/v1/assistant/a%2Fb/message');
    expect(serviceUrl('http://x//', exportPaths.jobs())).toBe('http://x/v1/static-export/jobs');
    expect(exportPaths.job('se_1')).toBe('/v1/static-export/jobs/se_1');
    expect(exportPaths.bundle('se_1')).toBe('/v1/static-export/jobs/se_1/bundle');
    expect(exportPaths.bundleFile('se_1', { expires: 9, signature: 'ab' })).toBe(
      '/v1/static-export/bundles/se_1.tar.gz?expires=9&signature=ab',
    );
  });

  it('keeps every route pattern under its SPEC prefix', () => {
    expect(ROUTES.assistantMessage.startsWith('/discovery/v1/')).toBe(true);
    for (const path of [ROUTES.exportJobs, ROUTES.exportJob, ROUTES.exportBundle])
      expect(path.startsWith('/v1/static-export/jobs')).toBe(true);
  });
});

describe('search hits', () => {
  it('reads both search-result shapes (a bare list and one under "results") and the fields other services use', () => {
    const ours = [
      {
        url: 'https://d/x#a',
        path: '/x',
        title: 'X',
        section: 'A',
        score: 1,
        metadata: { title: 'X' },
      },
    ];
    expect(parseSearchHits(ours)).toEqual([{ url: 'https://d/x#a', path: '/x', title: 'X' }]);
    expect(
      parseSearchHits({
        type: 'search',
        results: [
          { path: '/y', metadata: { title: 'Y', description: 'about y' } },
          { url: '/z', title: '  ', content: 'zed' },
        ],
      }),
    ).toEqual([
      { path: '/y', title: 'Y', snippet: 'about y' },
      { url: '/z', snippet: 'zed' },
    ]);
  });

  it('drops what cannot be shown instead of trusting it', () => {
    expect(parseSearchHits(null)).toEqual([]);
    expect(parseSearchHits('oops')).toEqual([]);
    expect(parseSearchHits({ results: 'x' })).toEqual([]);
    expect(parseSearchHits([null, 3, [], { title: 'no link' }, { url: 7, path: ' ' }])).toEqual([]);
    expect(parseSearchHits([{ url: '/a', title: 5, metadata: 'x' }])).toEqual([{ url: '/a' }]);
  });

  it('reads the query of a search call', () => {
    expect(searchQueryOf({ query: '  how\n to  ' })).toBe('how to');
    expect(searchQueryOf({ query: 3 })).toBeUndefined();
    expect(searchQueryOf(undefined)).toBeUndefined();
  });
});

describe('static export answers without zod', () => {
  const job = {
    jobId: 'se_1',
    domain: 'demo',
    status: 'running',
    progress: 40,
    pageCount: 3,
    createdAt: 'a',
    updatedAt: 'b',
  };
  const bundle = { jobId: 'se_1', bundleUrl: 'https://x', sizeBytes: 10, expiresAt: 'c' };

  it('accept and refuse exactly what the schemas do', () => {
    const jobs: unknown[] = [
      job,
      { ...job, version: 'v1', error: 'x', extra: true },
      { ...job, status: 'done' },
      { ...job, progress: 101 },
      { ...job, progress: -1 },
      { ...job, pageCount: 1.5 },
      { ...job, pageCount: '3' },
      { ...job, version: 3 },
      { ...job, jobId: undefined },
      null,
      [],
      'job',
    ];
    for (const value of jobs)
      expect(parseJob(value).ok, JSON.stringify(value)).toBe(jobSchema.safeParse(value).success);
    const bundles: unknown[] = [
      bundle,
      { ...bundle, sizeBytes: -1 },
      { ...bundle, bundleUrl: null },
      { ...bundle, expiresAt: undefined },
      {},
    ];
    for (const value of bundles)
      expect(parseBundle(value).ok, JSON.stringify(value)).toBe(
        bundleSchema.safeParse(value).success,
      );
  });

  it('keep fields another service adds, and name every field that is wrong', () => {
    expect(parseJob({ ...job, region: 'eu' })).toEqual({
      ok: true,
      value: { ...job, region: 'eu' },
    });
    expect(parseJob({ jobId: 'se_1', status: 'done' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^domain: Expected string; status: Expected queued \| running/),
    });
  });
});

describe('suggestions annotation', () => {
  it('gives the questions of every suggestions annotation and ignores the rest', () => {
    expect(
      suggestedQuestions([
        { type: 'suggestions', questions: ['How?', 7, 'Why?'] },
        { type: 'finish', threadId: 'x' },
        null,
        { type: 'suggestions', questions: 'not a list' },
        { type: 'suggestions', questions: ['And?'] },
      ]),
    ).toEqual(['How?', 'Why?', 'And?']);
    expect(suggestedQuestions(undefined)).toEqual([]);
    expect(suggestedQuestions({ type: 'suggestions', questions: ['x'] })).toEqual([]);
  });
});

describe('confidence annotation', () => {
  it('gives the level of the confidence annotation and ignores anything that is not one', () => {
    expect(
      confidenceLevel([
        { type: 'suggestions', questions: ['How?'] },
        { type: 'confidence', level: 'unsure' },
      ]),
    ).toBe('unsure');
    expect(confidenceLevel([{ type: 'confidence', level: 'certain' }, null])).toBeUndefined();
    expect(confidenceLevel(undefined)).toBeUndefined();
  });
});

describe('request schema', () => {
  const message = { id: 'm1', role: 'user', content: 'hi', parts: [{ type: 'text', text: 'hi' }] };

  it('accepts every message part variant and tool-invocation state of SPEC §2.3', () => {
    const parts = [
      { type: 'text', text: 'a' },
      {
        type: 'reasoning',
        reasoning: 'r',
        details: [
          { type: 'text', text: 'r', signature: 's' },
          { type: 'redacted', data: 'x' },
        ],
      },
      { type: 'step-start' },
      { type: 'source', source: { sourceType: 'url', id: '1', url: 'https://x.dev', title: 'X' } },
      {
        type: 'tool-invocation',
        toolInvocation: { state: 'partial-call', toolCallId: 't', toolName: 'search', args: null },
      },
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'call',
          toolCallId: 't',
          toolName: 'search',
          args: { q: 1 },
          step: 0,
        },
      },
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'result',
          toolCallId: 't',
          toolName: 'search',
          args: {},
          result: [],
        },
      },
    ];
    for (const part of parts)
      expect(messagePartSchema.safeParse(part).success, JSON.stringify(part)).toBe(true);
    const full = {
      fp: 'anonymous',
      messages: [
        {
          ...message,
          role: 'assistant',
          parts,
          createdAt: '2026-01-01T00:00:00.000Z',
          annotations: [{ a: 1 }],
          experimental_attachments: [{ url: 'https://x' }],
        },
        message,
      ],
      threadId: null,
      retrievalPageSize: 5,
      filter: { version: 'v2', language: 'en' },
      context: [
        { type: 'code', value: 'x', path: '/a', elementId: 'e' },
        { type: 'textSelection', value: 'y' },
      ],
      currentPath: '/a',
    };
    expect(assistantRequestSchema.safeParse(full).success).toBe(true);
  });

  it('rejects what the spec forbids and names the field', () => {
    const cases: [unknown, string][] = [
      [{ messages: [message] }, 'fp'],
      [{ fp: 'a', messages: [{ ...message, role: 'robot' }] }, 'messages.0.role'],
      [{ fp: 'a', messages: [{ ...message, id: undefined }] }, 'messages.0.id'],
      [{ fp: 'a', messages: [message], currentPath: 'x'.repeat(201) }, 'currentPath'],
      [
        { fp: 'a', messages: [message], context: [{ type: 'image', value: 'x' }] },
        'context.0.type',
      ],
      [
        {
          fp: 'a',
          messages: [
            {
              ...message,
              parts: [
                {
                  type: 'tool-invocation',
                  toolInvocation: { state: 'result', toolCallId: 't', toolName: 'n', args: {} },
                },
              ],
            },
          ],
        },
        'result',
      ],
      [
        {
          fp: 'a',
          messages: [
            {
              ...message,
              parts: [{ type: 'source', source: { sourceType: 'file', id: '1', url: 'u' } }],
            },
          ],
        },
        'sourceType',
      ],
    ];
    for (const [body, field] of cases) {
      const result = assistantRequestSchema.safeParse(body);
      expect(result.success, field).toBe(false);
      if (!result.success) expect(describeIssues(result.error)).toContain(field);
    }
    expect(
      assistantRequestSchema.safeParse({
        fp: 'a',
        messages: [message],
        currentPath: 'x'.repeat(200),
      }).success,
    ).toBe(true);
  });
});

describe('stream line codec', () => {
  it('parses every valid part the SDK knows', () => {
    const lines = [
      formatStreamPart('text', 'hé\n"x"'),
      formatStreamPart('data', [{ threadId: 't' }]),
      formatStreamPart('error', 'boom'),
      formatStreamPart('message_annotations', [{ threadId: 't' }]),
      formatStreamPart('tool_call', { toolCallId: 'c', toolName: 'search', args: { q: 1 } }),
      formatStreamPart('tool_result', { toolCallId: 'c', result: [] }),
      formatStreamPart('tool_call_streaming_start', { toolCallId: 'c', toolName: 'search' }),
      formatStreamPart('tool_call_delta', { toolCallId: 'c', argsTextDelta: '{"q' }),
      formatStreamPart('finish_message', { finishReason: 'stop' }),
      formatStreamPart('finish_step', { finishReason: 'stop', isContinued: false }),
      formatStreamPart('start_step', { messageId: 'm' }),
      formatStreamPart('reasoning', 'because'),
      formatStreamPart('source', { sourceType: 'url', id: '1', url: 'https://x' }),
      formatStreamPart('redacted_reasoning', { data: 'x' }),
      formatStreamPart('reasoning_signature', { signature: 's' }),
      formatStreamPart('file', { data: 'aGk=', mimeType: 'text/plain' }),
    ];
    const codes = lines.map((line) => {
      const parsed = parseStreamLine(line);
      expect(parsed.ok, line).toBe(true);
      return parsed.ok ? parsed.code : '';
    });
    expect(codes.join('')).toBe('02389abcdefghijk');
    const text = parseStreamLine(lines[0]!);
    expect(text.ok && text.value).toBe('hé\n"x"');
  });

  it('says why a line is not a part', () => {
    expect(parseStreamLine('')).toMatchObject({ ok: false, reason: 'empty' });
    expect(parseStreamLine('hello')).toMatchObject({ ok: false, reason: 'no_separator' });
    expect(parseStreamLine('z:"x"')).toMatchObject({ ok: false, reason: 'unknown_code' });
    expect(parseStreamLine('0:"unterminated')).toMatchObject({ ok: false, reason: 'bad_json' });
    expect(parseStreamLine('d:{"threadId":"x"}')).toMatchObject({ ok: false, reason: 'bad_value' });
    expect(parseStreamLine('0:42')).toMatchObject({ ok: false, reason: 'bad_value' });
  });
});

describe('error bodies', () => {
  it('reads our body and tolerates anything else', () => {
    expect(parseErrorBody('{"error":"rate_limited","message":"m","retryAfterSeconds":3}')).toEqual({
      error: 'rate_limited',
      message: 'm',
      retryAfterSeconds: 3,
    });
    expect(parseErrorBody('<html>')).toEqual({});
    expect(parseErrorBody('[1]')).toEqual({});
    expect(parseErrorBody('null')).toEqual({});
    // A code that is not ours, and fields of the wrong type, are left out rather than trusted.
    expect(parseErrorBody('{"error":"teapot","message":"m"}')).toEqual({ message: 'm' });
    expect(parseErrorBody('{"error":7,"message":{},"retryAfterSeconds":"3"}')).toEqual({});
  });
});
