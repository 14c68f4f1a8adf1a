import { describe, expect, it } from 'vitest';
import { parseStreamLine } from '../src/protocol/index.js';
import { createApp } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { createSite, parsePage } from '../src/server/site/docs.js';
import {
  askBody,
  demoApp,
  post,
  readStream,
  searchResultsOf,
  sourcesOf,
  tempDir,
  textOf,
  userMessage,
} from './helpers/server.js';

describe('assistant answers on the wire', () => {
  it('streams a start step, the search call and result, reasoning, sources, text, finish step and finish', async () => {
    const app = await demoApp();
    const response = await post(app, askBody('How do I install it?'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('x-vercel-ai-data-stream')).toBe('v1');
    const raw = await response.text();
    const lines = raw.split('\n').filter(Boolean);
    const codes = lines.map((line) => {
      const parsed = parseStreamLine(line);
      expect(parsed.ok, line).toBe(true);
      return parsed.ok ? parsed.code : '?';
    });
    // Collapse runs so the order reads as the protocol's grammar.
    const order = codes.filter((code, i) => code !== codes[i - 1]).join(' ');
    // The confidence annotation (8) comes before the text, the follow-up questions (8) after it.
    expect(order).toBe('f 9 a e f g h 8 0 8 e d');
    expect(codes.filter((c) => c === '0').length).toBeGreaterThan(3);
  });

  it('sends the same parts in the same order when the text is paced (as npm start does)', async () => {
    const codes = async (chunkDelayMs: number) => {
      const raw = await (
        await post(await demoApp({ chunkDelayMs }), askBody('How do I install it?'))
      ).text();
      return raw
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(0, line.indexOf(':')))
        .join(' ');
    };
    const paced = await codes(1);
    expect(paced).toBe(await codes(0));
    expect(paced).toMatch(/^f 9 a e f g h( h)* 8( 0){4,} 8 e d$/);
  });

  it('answers from the docs with quotes, links and fenced code, and cites real pages', async () => {
    const app = await demoApp();
    const parts = await readStream(await post(app, askBody('How do I install it from npm?')));
    const text = textOf(parts);
    expect(text).toContain('```bash\nnpm install docs-assistant react react-dom\n```');
    expect(text).toMatch(/\[Install[^\]]*\]\(http:\/\/test\/docs\/installation/);
    const sources = sourcesOf(parts);
    expect(sources.map((s) => s.id)).toContain('/installation');
    expect(new Set(sources.map((s) => s.url)).size).toBe(sources.length);
    for (const source of sources) {
      const page = await app.request(source.url);
      expect(page.status, source.url).toBe(200);
      expect(await page.text()).toContain(`<title>${source.title}`);
    }
    const call = parts.find((p) => p.type === 'tool_call')!.value as {
      toolName: string;
      args: { query: string };
    };
    expect(call.toolName).toBe('search');
    expect(call.args.query).toContain('install it from npm');
    for (const hit of searchResultsOf(parts))
      expect(hit).toMatchObject({
        url: expect.stringMatching(/^http:\/\/test\/docs/),
        path: expect.any(String),
        title: expect.any(String),
      });
    // The words as the reader wrote them, not the index's stems ("instal").
    const reasoning = String(parts.find((p) => p.type === 'reasoning')!.value);
    expect(reasoning).toMatch(/searched the docs for .*“install”/);
    expect(reasoning).not.toContain('“instal”');
  });

  it('shows the search call’s query cut short when the question and its context are long', async () => {
    const app = await demoApp();
    const question = `How do I install it? ${'Tell me everything about the options. '.repeat(300)}`;
    const parts = await readStream(
      await post(
        app,
        askBody(question, { context: [{ type: 'code', value: 'npm i x'.repeat(90) }] }),
      ),
    );
    const call = parts.find((p) => p.type === 'tool_call')!.value as { args: { query: string } };
    expect(call.args.query.length).toBeLessThanOrEqual(500);
    expect(call.args.query).toMatch(/^How do I install it\? Tell me .*…$/s);
  });

  it('offers up to 3 follow-up questions in a message annotation, and each one the docs answer', async () => {
    const app = await demoApp();
    const parts = await readStream(await post(app, askBody('How do I install it?')));
    const annotations = parts
      .filter((p) => p.type === 'message_annotations')
      .flatMap((p) => p.value as { type: string; questions: string[] }[]);
    const questions = annotations.find((a) => a.type === 'suggestions')!.questions;
    expect(questions.length).toBeGreaterThanOrEqual(2);
    expect(questions.length).toBeLessThanOrEqual(3);
    expect(new Set(questions).size).toBe(questions.length);
    for (const question of questions) {
      const answer = await readStream(await post(app, askBody(question)));
      expect(textOf(answer), question).not.toContain("The docs don't cover this.");
    }
    // A refusal suggests nothing: there is nothing grounded to follow up on. It says it refused.
    const refused = await readStream(
      await post(app, askBody('What is the airspeed velocity of an unladen swallow?')),
    );
    expect(
      refused.filter((p) => p.type === 'message_annotations').flatMap((p) => p.value as unknown[]),
    ).toEqual([{ type: 'confidence', level: 'refused' }]);
  });

  it('says honestly when nothing in the docs matches', async () => {
    const app = await demoApp();
    const parts = await readStream(await post(app, askBody('zebra quantum marmalade')));
    expect(textOf(parts)).toMatch(/^The docs don't cover this\./);
    expect(sourcesOf(parts)).toEqual([]);
    expect(searchResultsOf(parts)).toEqual([]);
  });
});

describe('retrieval follows the request', () => {
  it('uses retrievalPageSize sections (5 by default)', async () => {
    const app = await demoApp();
    const question = 'export bundle link';
    expect(searchResultsOf(await readStream(await post(app, askBody(question))))).toHaveLength(5);
    expect(
      searchResultsOf(
        await readStream(await post(app, askBody(question, { retrievalPageSize: 1 }))),
      ),
    ).toHaveLength(1);
    expect(
      searchResultsOf(
        await readStream(await post(app, askBody(question, { retrievalPageSize: 8 }))),
      ),
    ).toHaveLength(8);
  });

  it('honours filter.version and filter.language', async () => {
    const app = await demoApp();
    const paths = async (extra: Record<string, unknown>) =>
      searchResultsOf(
        await readStream(await post(app, askBody('configuration filters retrieval', extra))),
      ).map((h) => h.path);
    const v1 = await paths({ filter: { version: 'v1' } });
    expect(v1).toContain('/v1/guides/configuration');
    expect(v1).not.toContain('/guides/configuration');
    const v2 = await paths({ filter: { version: 'v2' } });
    expect(v2).toContain('/guides/configuration');
    expect(v2).not.toContain('/v1/guides/configuration');
    const installPaths = async (extra: Record<string, unknown>) =>
      searchResultsOf(
        await readStream(await post(app, askBody('installation npm navigateur', extra))),
      ).map((h) => h.path);
    expect(await installPaths({ filter: { language: 'en' } })).not.toContain('/fr/installation');
    const fr = await installPaths({ filter: { language: 'fr' } });
    expect(fr.length).toBeGreaterThan(0);
    expect(fr.every((p) => p.startsWith('/fr/'))).toBe(true);
  });

  it('uses attached context items as part of the query', async () => {
    const app = await demoApp();
    const bare = searchResultsOf(await readStream(await post(app, askBody('What does this do?'))));
    expect(bare).toEqual([]);
    const context = [
      {
        type: 'code',
        value: 'npx docs-assistant export status se_01JD8X3K2M',
        path: '/static-export/cli',
        elementId: 'code-1',
      },
    ];
    const withCode = searchResultsOf(
      await readStream(await post(app, askBody('What does this do?', { context }))),
    );
    expect(withCode[0]!.path).toBe('/static-export/cli');
  });

  it('knows the page a reader is on under every base path the docs are served at (/docs and /react)', async () => {
    // Two equally good pages: only the page the reader is on can put one first.
    const page = (file: string) =>
      parsePage(
        file,
        '# Webhooks\n\nWebhooks send an event to your endpoint when a job completes.\n',
      );
    const app = createApp({
      orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
      sites: [{ domain: DEMO.domain, org: 'o', docs: createSite([page('a.md'), page('b.md')]) }],
    });
    const top = async (currentPath: string) =>
      sourcesOf(
        await readStream(
          await post(app, askBody('When do webhooks send an event?', { currentPath })),
        ),
      )[0]!.id;
    for (const base of ['/docs', '/react']) {
      expect(await top(`${base}/a`)).toBe('/a');
      expect(await top(`${base}/b/`)).toBe('/b');
    }
  });
});

describe('threads', () => {
  it('returns a new ULID thread in the X-Thread-Id header and in the finish part', async () => {
    const app = await demoApp();
    const response = await post(app, askBody('How do I install it?'));
    const threadId = response.headers.get('x-thread-id');
    expect(threadId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    // Read the raw `d:` line: the SDK's own parser drops every key but finishReason and usage.
    const finishLine = (await response.text()).split('\n').find((line) => line.startsWith('d:'))!;
    expect(JSON.parse(finishLine.slice(2))).toMatchObject({ finishReason: 'stop', threadId });
  });

  it('continues a thread on follow-up and searches with its last question when the follow-up leans on it', async () => {
    const app = await demoApp();
    const first = await post(app, askBody('How does static export work?'));
    const threadId = first.headers.get('x-thread-id')!;
    await first.text();
    const followUp = await post(app, {
      fp: 'anonymous',
      threadId,
      messages: [userMessage('How does static export work?'), userMessage('and then?')],
    });
    expect(followUp.status).toBe(200);
    expect(followUp.headers.get('x-thread-id')).toBe(threadId);
    const parts = await readStream(followUp);
    expect(sourcesOf(parts).map((s) => s.id)).toContain('/static-export/overview');
    expect(String(parts.find((p) => p.type === 'reasoning')!.value)).toContain(
      'earlier question “How does static export work?”',
    );
  });

  it('answers 404 thread_not_found for an unknown or malformed threadId', async () => {
    const app = await demoApp();
    for (const threadId of ['01JD8X3K2M0000000000000000', '../../etc/passwd', 'x'.repeat(5000)]) {
      const response = await post(app, askBody('install', { threadId }));
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        error: 'thread_not_found',
        message: expect.any(String),
      });
    }
  });

  it('keeps threads across a restart on the same data folder', async () => {
    const dataDir = await tempDir();
    const before = await demoApp({ dataDir });
    const response = await post(before, askBody('How do I install it?'));
    const threadId = response.headers.get('x-thread-id')!;
    await response.text();
    const after = await demoApp({ dataDir });
    const followUp = await post(after, askBody('and with a script tag?', { threadId }));
    expect(followUp.status).toBe(200);
    expect(followUp.headers.get('x-thread-id')).toBe(threadId);
    const elsewhere = await demoApp({ dataDir: await tempDir() });
    expect((await post(elsewhere, askBody('again', { threadId }))).status).toBe(404);
  });
});

describe('auth', () => {
  const cases: [string, string | null, string, number, string][] = [
    ['no key', null, DEMO.domain, 401, 'unauthorized'],
    ['an unknown assistant key', 'svc_dsc_nope', DEMO.domain, 401, 'unauthorized'],
    ['a string that is no key', 'hello', DEMO.domain, 401, 'unauthorized'],
    ['an admin key', DEMO.adminKey, DEMO.domain, 403, 'wrong_key_type'],
    ["another organisation's key", 'svc_dsc_other', DEMO.domain, 403, 'forbidden'],
    ['an unknown domain', DEMO.assistantKey, 'nope', 404, 'domain_not_found'],
  ];
  for (const [name, key, domain, status, code] of cases) {
    it(`answers ${status} ${code} for ${name}`, async () => {
      const app = await demoApp();
      const response = await post(app, askBody('install'), {
        key,
        url: `http://test/discovery/v1/assistant/${domain}/message`,
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error: code, message: expect.any(String) });
    });
  }
});

describe('validation', () => {
  it('answers 400 naming the field for schema errors', async () => {
    const app = await demoApp();
    const cases: [unknown, string][] = [
      [{ messages: [userMessage('x')] }, 'fp'],
      [{ fp: 'a', messages: [] }, 'messages'],
      [{ fp: 'a', messages: [{ ...userMessage('x'), role: 'robot' }] }, 'messages.0.role'],
      [askBody('x', { currentPath: '/'.repeat(201) }), 'currentPath'],
      [askBody('x', { retrievalPageSize: 0 }), 'retrievalPageSize'],
      [askBody('x', { retrievalPageSize: 'five' }), 'retrievalPageSize'],
      [askBody('x', { filter: { version: 2 } }), 'filter.version'],
      [
        { fp: 'a', messages: [{ id: 'a1', role: 'assistant', content: 'hi', parts: [] }] },
        'user message',
      ],
      [askBody(''), 'user message'],
    ];
    for (const [body, field] of cases) {
      const response = await post(app, body);
      expect(response.status, field).toBe(400);
      const error = (await response.json()) as { error: string; message: string };
      expect(error.error).toBe('invalid_request');
      expect(error.message).toContain(field);
    }
    expect((await post(app, askBody('install', { currentPath: '/'.repeat(200) }))).status).toBe(
      200,
    );
  });

  it('answers 400 for broken JSON, 415 for another media type and 413 over 1 MiB', async () => {
    const app = await demoApp();
    const broken = await post(app, '{"fp":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: 'invalid_json' });
    const form = await post(app, 'fp=a', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ error: 'unsupported_media_type' });
    const huge = await post(app, askBody('x'.repeat(1024 * 1024)));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('never answers 500 to whatever a client sends', async () => {
    const app = await demoApp();
    const bodies = [
      'null',
      '[]',
      '"x"',
      '1e400',
      '{"fp":null,"messages":null}',
      JSON.stringify(askBody('x', { context: 'nope' })),
      JSON.stringify({ fp: 'a', messages: [{ id: 'x', role: 'user', content: 7, parts: {} }] }),
      '\u0000',
      JSON.stringify(askBody('(*&^%$#@!)[]{}~`')),
    ];
    for (const body of bodies) {
      const response = await post(app, body);
      expect(response.status, body).toBeLessThan(500);
      await response.text();
    }
  });
});

describe('rate limits', () => {
  it("answers 429 with Retry-After once the organisation's hourly limit is used, and recovers next hour", async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const app = await demoApp({ limits: { orgPerHour: 2, ipPerOrgHour: 100 }, now: () => now });
    expect((await post(app, askBody('install'))).status).toBe(200);
    now += 60_000;
    expect((await post(app, askBody('install'))).status).toBe(200);
    const limited = await post(app, askBody('install'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3540');
    expect(await limited.json()).toEqual({
      error: 'rate_limited',
      message: expect.stringContaining('organisation'),
      retryAfterSeconds: 3540,
    });
    now += 3540_000;
    expect((await post(app, askBody('install'))).status).toBe(200);
  });

  it('limits each IP address per day independently', async () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const app = await demoApp({ limits: { ipPerDay: 1 }, trustProxy: true, now: () => now });
    const from = (ip: string) =>
      post(app, askBody('install'), { headers: { 'X-Forwarded-For': ip } });
    expect((await from('10.0.0.1')).status).toBe(200);
    const limited = await from('10.0.0.1');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 86400 });
    expect((await from('10.0.0.2')).status).toBe(200);
  });
});

describe('browsers on other origins', () => {
  it('answers the CORS preflight and exposes the thread header', async () => {
    const app = await demoApp();
    const preflight = await app.request('http://test/discovery/v1/assistant/demo/message', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://docs.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
    const response = await post(app, askBody('install'), {
      headers: { Origin: 'https://docs.example.com' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Thread-Id');
  });
});

describe('proxy mode', () => {
  it("forwards to another service with the server's key and streams the answer back unchanged", async () => {
    const upstream = await demoApp();
    const seen: Request[] = [];
    const proxy = createApp({
      upstream: {
        baseUrl: 'http://upstream.test/',
        key: DEMO.assistantKey,
        fetch: (async (url: string, init: RequestInit) => {
          seen.push(new Request(url, init));
          return upstream.request(url, init);
        }) as typeof fetch,
      },
    });
    const body = askBody('How do I install it?', { retrievalPageSize: 2 });
    const response = await post(proxy, body, {
      key: null,
      headers: { Origin: 'https://docs.example.com' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-thread-id')).toMatch(/^[0-9A-Z]{26}$/);
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Thread-Id');
    const parts = await readStream(response);
    expect(searchResultsOf(parts)).toHaveLength(2);
    expect(seen[0]!.url).toBe('http://upstream.test/discovery/v1/assistant/demo/message');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${DEMO.assistantKey}`);
    expect(await seen[0]!.json()).toEqual(body);
  });

  it('passes upstream errors through and answers 502 when the upstream is unreachable', async () => {
    const upstream = await demoApp();
    const wrongKey = createApp({
      upstream: {
        baseUrl: 'http://u.test',
        key: 'svc_dsc_wrong',
        fetch: ((u: string, i: RequestInit) => upstream.request(u, i)) as typeof fetch,
      },
    });
    const denied = await post(wrongKey, askBody('install'), { key: null });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ error: 'unauthorized' });
    const down = createApp({
      upstream: {
        baseUrl: 'http://u.test',
        fetch: (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch,
      },
    });
    const failed = await post(down, askBody('install'), { key: null });
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ error: 'upstream_error' });
  });
});

describe('docs pages', () => {
  it('serves the sample docs as HTML with links rebased under /docs', async () => {
    const app = await demoApp();
    const home = await app.request('http://test/docs');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1 id="introduction">Introduction</h1>');
    const react = await (await app.request('http://test/docs/guides/react')).text();
    expect(react).toContain('href="/docs/guides/page-context"');
    expect(react).toContain('aria-current="page"');
    for (const broken of ['http://test/docs/%E0%A4%A', 'http://test/react/%ZZ']) {
      const response = await app.request(broken);
      expect(response.status, broken).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'not_found' });
    }
    const missing = await app.request('http://test/docs/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found' });
  });
});
