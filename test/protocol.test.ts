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
} from '../src/protocol/index.js';

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
  });
});
