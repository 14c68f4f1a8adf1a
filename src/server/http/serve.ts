import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../../protocol/index.js';
import type { App } from './app.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export interface ConnectionLimits {
  /** Open connections at most; more are refused. @default 1000 */
  maxConnections?: number;
  /** Time a client has to send its request headers. @default 10000 */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request (headers and body; the answer is not counted). @default 30000 */
  requestTimeoutMs?: number;
}

/** Node's own answers to a request it could not parse, in our `{error,message}` shape. */
function clientErrorAnswer(error: NodeJS.ErrnoException): { code: ErrorCode; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: 'The request headers are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request took too long to arrive.' };
    default:
      return { code: 'invalid_request', message: 'The request is not valid HTTP.' };
  }
}

/**
 * Whether another process listens on the port: asked before a server reads its docs, so a taken
 * port is said at once, not after every page is parsed and indexed.
 */
export function portTaken(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen({ port, host }, () => probe.close(() => resolve(false)));
  });
}

/** The only module that touches node:http: everything else is a Web-standard handler. */
export function listen(
  app: Pick<App, 'fetch'>,
  { port, host, limits = {} }: { port: number; host: string; limits?: ConnectionLimits },
): Promise<RunningServer> {
  const headersTimeout = limits.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(limits.requestTimeoutMs ?? 30_000, headersTimeout);
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: async (request: Request, env: HttpBindings | Http2Bindings) => {
          const response = await app.fetch(request, env);
          // An answer given before the body was read to its end (a 413 on Content-Length, a
          // refused key) leaves body bytes on the socket that Node would take for the next
          // request: say the connection closes, so a keep-alive client opens a new one.
          if (!env.incoming.complete && env.incoming.httpVersionMajor === 1)
            env.outgoing.setHeader('Connection', 'close');
          return response;
        },
        port,
        hostname: host,
        // Node checks these timeouts every connectionsCheckingInterval (30 s by default); check
        // often enough that a short limit means what it says.
        serverOptions: {
          headersTimeout,
          requestTimeout,
          connectionsCheckingInterval: Math.min(1000, headersTimeout),
        },
      },
      (info: AddressInfo) => {
        server.off('error', reject);
        const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${shownHost}:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              // Open keep-alive and streaming connections would hold close() forever.
              if ('closeAllConnections' in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      },
    );
    // Beyond it Node closes new connections at once, instead of holding every slow client open.
    (server as { maxConnections: number }).maxConnections = limits.maxConnections ?? 1000;
    // Without a listener Node answers a bad request with a bare status line; give it our body.
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      const answer = clientErrorAnswer(error);
      const body = JSON.stringify({
        error: answer.code,
        message: answer.message,
      } satisfies ErrorBody);
      socket.end(
        `HTTP/1.1 ${ERROR_CODES[answer.code]} ${answer.code}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    server.once('error', reject);
  });
}
