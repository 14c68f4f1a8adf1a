import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseStreamLine } from '../src/protocol/index.js';
import { createApp, type AppOptions } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { listen, type RunningServer } from '../src/server/http/serve.js';
import { askBody, demoApp, MESSAGE_URL } from './helpers/server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A real HTTP server standing in for a misbehaving upstream service. */
async function upstreamServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((done) => server.close(() => done()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const proxyApp = (
  baseUrl: string,
  timeouts: NonNullable<AppOptions['upstream']>['timeouts'] = {},
) =>
  createApp({
    upstream: {
      baseUrl,
      key: 'svc_dsc_upstream',
      // Long enough never to fire on a healthy upstream however loaded the machine; the tests of a
      // silent upstream shorten the one they test (its firing late only slows them).
      timeouts: { connectMs: 60_000, headersMs: 60_000, idleMs: 60_000, ...timeouts },
    },
  });

const ask = (app: ReturnType<typeof createApp>, ip = '198.51.100.7') =>
  app.request(
    MESSAGE_URL,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(askBody('install')),
    },
    { incoming: { socket: { remoteAddress: ip } } },
  );

function streamLines(raw: string) {
  const lines = raw.split('\n').filter(Boolean);
  expect(lines.filter((line) => !parseStreamLine(line).ok)).toEqual([]);
  return lines;
}

describe('proxy mode against a misbehaving upstream', () => {
  it('gives up on an upstream that accepts the connection and never answers, with a 502', async () => {
    const upstream = await upstreamServer(() => {});
    const response = await ask(proxyApp(upstream.url, { headersMs: 300 }));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      error: 'upstream_error',
      message: expect.stringContaining('did not answer'),
    });
  });

  it('reports a redirect as a clear 502 and never follows it with the key', async () => {
    const elsewhere = await upstreamServer((_req, res) => res.end('{}'));
    const upstream = await upstreamServer((_req, res) => {
      res.writeHead(307, { Location: `${elsewhere.url}/steal` });
      res.end();
    });
    const response = await ask(proxyApp(upstream.url));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      error: 'upstream_error',
      message: expect.stringContaining('redirected'),
    });
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('turns an upstream HTML error page into {error,message}, and passes on its own error bodies', async () => {
    const html = await upstreamServer((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/html' });
      res.end('<html><body>Internal Server Error</body></html>');
    });
    const failed = await ask(proxyApp(html.url));
    expect(failed.status).toBe(502);
    expect(failed.headers.get('content-type')).toContain('application/json');
    expect(await failed.json()).toMatchObject({
      error: 'upstream_error',
      message: expect.stringContaining('500'),
    });

    const limited = await upstreamServer((_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '30' });
      res.end('{"error":"rate_limited","message":"Slow down.","retryAfterSeconds":30}');
    });
    const relayed = await ask(proxyApp(limited.url));
    expect(relayed.status).toBe(429);
    expect(await relayed.json()).toEqual({
      error: 'rate_limited',
      message: 'Slow down.',
      retryAfterSeconds: 30,
    });
  });

  it("ends the reader's stream with an error part when the upstream connection is cut mid-answer", async () => {
    const upstream = await upstreamServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Vercel-AI-Data-Stream': 'v1',
        'X-Thread-Id': '01JD8X3K2M0000000000000000',
      });
      res.write('f:{"messageId":"m1"}\n0:"Hello "\n0:"wor');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const response = await ask(proxyApp(upstream.url));
    expect(response.status).toBe(200);
    const lines = streamLines(await response.text());
    expect(lines.slice(0, 2)).toEqual(['f:{"messageId":"m1"}', '0:"Hello "']);
    expect(lines.at(-1)).toMatch(/^3:".*cut the answer short/);
  });

  it('ends the stream with an error part when the upstream goes quiet for longer than the idle timeout', async () => {
    const upstream = await upstreamServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Vercel-AI-Data-Stream': 'v1',
      });
      res.write('0:"Hello"\n');
    });
    const lines = streamLines(await (await ask(proxyApp(upstream.url, { idleMs: 300 }))).text());
    expect(lines).toEqual(['0:"Hello"', expect.stringMatching(/^3:".*stopped answering/)]);
  });

  it("tells the upstream the reader's IP in X-Forwarded-For, and adds the key only there", async () => {
    const upstream = await upstreamServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Vercel-AI-Data-Stream': 'v1',
      });
      res.end('d:{"finishReason":"stop"}\n');
    });
    await (await ask(proxyApp(upstream.url), '203.0.113.9')).text();
    expect(upstream.seen[0]!.headers['x-forwarded-for']).toBe('203.0.113.9');
    expect(upstream.seen[0]!.headers.authorization).toBe('Bearer svc_dsc_upstream');
  });
});

/** Raw bytes to a real server, and what comes back before it closes. */
function rawExchange(server: RunningServer, bytes: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => done(answer));
    socket.on('error', fail);
  });
}

const jsonBodyOf = (answer: string) =>
  JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string; message: string };

describe('the Node server itself', () => {
  const start = async (limits = {}) => {
    const server = await listen(await demoApp(), { port: 0, host: '127.0.0.1', limits });
    cleanups.push(() => server.close());
    return server;
  };

  it('answers oversized headers with 431 and a JSON body', async () => {
    const answer = await rawExchange(
      await start(),
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(jsonBodyOf(answer)).toMatchObject({
      error: 'headers_too_large',
      message: expect.any(String),
    });
  });

  it('answers broken chunked encoding with 400 and a JSON body', async () => {
    const answer = await rawExchange(
      await start(),
      `POST /discovery/v1/assistant/demo/message HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEMO.assistantKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonBodyOf(answer)).toMatchObject({
      error: 'invalid_request',
      message: expect.any(String),
    });
  });

  it('refuses connections beyond maxConnections instead of holding them all', async () => {
    const server = await start({ maxConnections: 1 });
    const { port } = new URL(server.url);
    const first = connect(Number(port), '127.0.0.1');
    await new Promise((done) => first.once('connect', done));
    cleanups.push(() => void first.destroy());
    // The second connection is accepted by the kernel and closed by Node at once, unanswered.
    expect(await rawExchange(server, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')).toBe('');
    first.destroy();
    // Node frees the slot once it has seen the close, whenever a loaded machine gets to it.
    await vi.waitFor(async () =>
      expect(
        await rawExchange(server, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ).toMatch(/^HTTP\/1\.1 200 /),
    );
  });

  it('does not wait forever for a client that never finishes its headers: 408 with a JSON body', async () => {
    const answer = await rawExchange(
      await start({ headersTimeoutMs: 300 }),
      'GET /healthz HTTP/1.1\r\nHost: x\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(jsonBodyOf(answer)).toMatchObject({ error: 'request_timeout' });
  });
});

describe('the Host header', () => {
  it('is never reflected into pages, answer links or bundle links once a public URL is set', async () => {
    const app = await demoApp({
      publicUrl: 'https://docs.example.com',
      assetsDir: '/nonexistent',
      demoKey: DEMO.assistantKey,
    });
    const headers = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' };
    const page = await (await app.request('http://evil.example/docs', { headers })).text();
    expect(page).not.toContain('evil.example');
    const answer = await (
      await app.request('http://evil.example/discovery/v1/assistant/demo/message', {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          Authorization: `Bearer ${DEMO.assistantKey}`,
        },
        body: JSON.stringify(askBody('How do I install it?')),
      })
    ).text();
    expect(answer).toContain('https://docs.example.com/docs/');
    expect(answer).not.toContain('evil.example');
  });
});
