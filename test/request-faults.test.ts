import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { listen } from '../src/server/http/serve.js';
import { askBody, demoApp, MESSAGE_URL, post } from './helpers/server.js';

const errorOf = async (response: Response) => ({
  status: response.status,
  error: ((await response.json()) as { error: string }).error,
});

/** `{"a":{"a":…}}` nested `depth` deep: a few bytes a level, far under the body limit. */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('a request body the server cannot take apart', () => {
  it('answers 400 invalid_json, not 500, to JSON nested deeper than any request needs', async () => {
    const app = await demoApp();
    for (const body of [
      nested(100_000),
      JSON.stringify(askBody('hi', { annotations: undefined })).replace(
        '"fp":"anonymous"',
        `"fp":"anonymous","extra":${nested(50_000)}`,
      ),
    ]) {
      const response = await post(app, body);
      expect(await errorOf(response)).toEqual({ status: 400, error: 'invalid_json' });
    }
  });

  it('still answers a body with ordinary nesting (a tool result inside a message part)', async () => {
    const app = await demoApp();
    const body = askBody('How do I install it?', {
      context: [{ type: 'code', value: JSON.stringify({ a: { b: { c: [1, 2, { d: 3 }] } } }) }],
    });
    expect((await post(app, body)).status).toBe(200);
  });
});

describe('a method the route does not take', () => {
  it('answers 405 with Allow: POST to a GET on the message route, in the error shape', async () => {
    const app = await demoApp();
    const response = await app.request(MESSAGE_URL, {
      headers: { Authorization: `Bearer ${DEMO.assistantKey}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('answers 404, not 405, where no route matches: a pattern segment must match, and a taken method is no excuse', async () => {
    const app = await demoApp();
    for (const path of ['/secret.txt', '/llms-full-x.txt', '/v1/static-export/jobs/se_x/nothing'])
      expect((await app.request(`http://test${path}`)).status, path).toBe(404);
    expect((await app.request('http://test/llms-full-2.txt', { method: 'POST' })).status).toBe(405);
  });

  it('answers 405 on the static export routes that only take POST', async () => {
    const app = await demoApp();
    for (const path of ['/v1/static-export/jobs', '/v1/static-export/jobs/se_x/bundle']) {
      const response = await app.request(`http://test${path}`, { method: 'PUT' });
      expect(response.status, path).toBe(405);
      expect(response.headers.get('allow'), path).toContain('POST');
    }
  });
});

/** One request through `agent`, resolved with the status and the Connection header. */
function send(agent: Agent, url: string, body: string) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${DEMO.assistantKey}`,
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode!, connection: response.headers.connection }),
        );
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

describe('a connection after an oversized body', () => {
  it("serves the client's next request on the same keep-alive agent after a 413", async () => {
    const server = await listen(await demoApp(), { port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = server.url + new URL(MESSAGE_URL).pathname;
      const big = await send(agent, url, JSON.stringify(askBody('x'.repeat(2 * 1024 * 1024))));
      expect(big.status).toBe(413);
      // The server read only part of that body: it must not offer the connection for reuse.
      expect(big.connection).toBe('close');
      const next = await send(agent, url, JSON.stringify(askBody('How do I install it?')));
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
