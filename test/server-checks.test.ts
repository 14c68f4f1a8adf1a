import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { adminCall, exportApp } from './helpers/export.js';
import { askBody, demoApp, MESSAGE_URL, post, type TestApp } from './helpers/server.js';

/** The error a response carries, with its status: what a client branches on. */
const errorOf = async (response: Response) => ({
  status: response.status,
  error: ((await response.json()) as { error: string }).error,
});

/** A body sent as a stream, so no Content-Length tells its size in advance. */
const streamed = (chunks: (string | Error)[]) => {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else if (next instanceof Error) controller.error(next);
      else controller.enqueue(encoder.encode(next));
    },
  });
};

const sendStream = (app: TestApp, body: ReadableStream<Uint8Array>, url = MESSAGE_URL) =>
  app.request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${DEMO.assistantKey}` },
    body,
    duplex: 'half',
  } as RequestInit);

const MIB = 1024 * 1024;

describe('the assistant operation checks a request in a fixed order', () => {
  it('counts every request against its IP first, even one with no key', async () => {
    const app = await demoApp({ limits: { ipPerDay: 2 } });
    expect(await errorOf(await post(app, askBody('install'), { key: null }))).toEqual({
      status: 401,
      error: 'unauthorized',
    });
    expect(await errorOf(await post(app, '{', { key: null }))).toEqual({
      status: 401,
      error: 'unauthorized',
    });
    const limited = await post(app, askBody('install'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('checks the key, then the domain, then the body', async () => {
    const app = await demoApp();
    const unknownDomain = `http://test/discovery/v1/assistant/nope/message`;
    // No key for an unknown domain: the key is looked at first.
    expect(await errorOf(await post(app, '{', { key: null, url: unknownDomain }))).toEqual({
      status: 401,
      error: 'unauthorized',
    });
    // A broken body for an unknown domain or another organisation's domain: the domain first.
    expect(await errorOf(await post(app, '{', { url: unknownDomain }))).toEqual({
      status: 404,
      error: 'domain_not_found',
    });
    expect(await errorOf(await post(app, '{', { key: 'svc_dsc_other' }))).toEqual({
      status: 403,
      error: 'forbidden',
    });
  });

  it('checks the media type before the size, and the size before the JSON', async () => {
    const app = await demoApp();
    const huge = 'x'.repeat(2 * MIB);
    expect(
      await errorOf(await post(app, huge, { headers: { 'Content-Type': 'text/plain' } })),
    ).toEqual({ status: 415, error: 'unsupported_media_type' });
    expect(await errorOf(await post(app, `{${huge}`))).toEqual({
      status: 413,
      error: 'payload_too_large',
    });
  });

  it('stops reading a body with no Content-Length as soon as it is over the limit', async () => {
    const app = await demoApp();
    const chunk = 'x'.repeat(256 * 1024);
    const chunks = Array.from({ length: 8 }, () => chunk);
    const response = await sendStream(app, streamed(chunks));
    expect(await errorOf(response)).toEqual({ status: 413, error: 'payload_too_large' });
    // 4 chunks make 1 MiB; the fifth is over, and the rest are never read.
    expect(chunks.length).toBeGreaterThanOrEqual(2);
  });

  it('answers 400, not 500, when the body breaks off while it is read', async () => {
    const app = await demoApp();
    const response = await sendStream(app, streamed(['{"fp":"a",', new Error('connection reset')]));
    expect(await errorOf(response)).toEqual({ status: 400, error: 'invalid_request' });
  });

  it('reads JSON media types with parameters and suffixes, UTF-8 with or without a BOM, and only UTF-8', async () => {
    const app = await demoApp();
    const question = JSON.stringify(askBody('install'));
    for (const [type, body] of [
      ['application/json; charset=utf-8', question],
      ['application/vnd.api+json', question],
      ['application/json', `\ufeff${question}`],
    ] as const) {
      const response = await post(app, body, { headers: { 'Content-Type': type } });
      expect(response.status, type).toBe(200);
      await response.text();
    }
    const latin1 = await app.request(MESSAGE_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${DEMO.assistantKey}` },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(await errorOf(latin1)).toEqual({ status: 400, error: 'invalid_json' });
  });

  it("checks the IP's share of the organisation before the organisation's own limit", async () => {
    const app = await demoApp({ limits: { orgPerHour: 1, ipPerOrgHour: 1 } });
    expect((await post(app, askBody('install'))).status).toBe(200);
    const limited = await post(app, askBody('install'));
    expect(await limited.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringContaining('from this IP address for this organisation'),
    });
  });
});

describe('proxy mode checks only what is its own', () => {
  it('limits by IP and body size, and leaves the key and the body to the upstream', async () => {
    const seen: string[] = [];
    const proxy = createApp({
      limits: { ipPerDay: 2 },
      upstream: {
        baseUrl: 'http://upstream.test',
        fetch: (async (_url: string, init: RequestInit) => {
          seen.push(new TextDecoder().decode(init.body as Uint8Array));
          return Response.json({ error: 'unauthorized', message: 'No key.' }, { status: 401 });
        }) as typeof fetch,
      },
    });
    // Not JSON, no key: forwarded as it is, and the upstream's answer comes back.
    expect(
      await errorOf(
        await post(proxy, 'fp=a', {
          key: null,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
      ),
    ).toEqual({ status: 401, error: 'unauthorized' });
    expect(seen).toEqual(['fp=a']);
    expect(await errorOf(await post(proxy, 'x'.repeat(2 * MIB)))).toEqual({
      status: 413,
      error: 'payload_too_large',
    });
    expect(seen).toHaveLength(1);
    expect((await post(proxy, askBody('install'))).status).toBe(429);
  });
});

describe('static export checks a request in a fixed order', () => {
  it('checks the key and the plan before the body', async () => {
    const app = await exportApp();
    for (const [key, expected] of [
      [null, { status: 401, error: 'unauthorized' }],
      [DEMO.assistantKey, { status: 403, error: 'wrong_key_type' }],
      ['svc_free_admin', { status: 403, error: 'plan_required' }],
    ] as const) {
      expect(
        await errorOf(await adminCall(app, 'POST', '/v1/static-export/jobs', '{', key)),
      ).toEqual(expected);
    }
    expect(await errorOf(await adminCall(app, 'POST', '/v1/static-export/jobs', '{'))).toEqual({
      status: 400,
      error: 'invalid_json',
    });
  });

  it('checks the key on job reads and bundle links, and no key on the presigned download', async () => {
    const app = await exportApp();
    const job = 'se_01JD8X3K2M0000000000000000';
    for (const [method, path] of [
      ['GET', `/v1/static-export/jobs/${job}`],
      ['POST', `/v1/static-export/jobs/${job}/bundle`],
    ] as const) {
      expect(await errorOf(await adminCall(app, method, path, undefined, null)), path).toEqual({
        status: 401,
        error: 'unauthorized',
      });
      expect(
        await errorOf(await adminCall(app, method, path, undefined, 'svc_free_admin')),
      ).toEqual({ status: 403, error: 'plan_required' });
    }
    const download = await adminCall(
      app,
      'GET',
      `/v1/static-export/bundles/${job}.tar.gz?expires=1&signature=00`,
      undefined,
      null,
    );
    expect(await errorOf(download)).toEqual({ status: 403, error: 'link_invalid' });
  });

  it('checks the domain before the paths, and the paths before the export limits', async () => {
    const app = await exportApp({ exports: { maxActivePerOrg: 0 } });
    expect(
      await errorOf(
        await adminCall(app, 'POST', '/v1/static-export/jobs', {
          domain: 'nope',
          paths: ['/nope'],
        }),
      ),
    ).toEqual({ status: 404, error: 'domain_not_found' });
    expect(
      await errorOf(
        await adminCall(app, 'POST', '/v1/static-export/jobs', {
          domain: 'demo',
          paths: ['/nope'],
        }),
      ),
    ).toEqual({ status: 400, error: 'invalid_request' });
    const limited = await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'demo' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
  });
});
