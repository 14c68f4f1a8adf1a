import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The only module that touches node:http: everything else is a Web-standard handler. */
export function listen(app: Pick<App, 'fetch'>, { port, host }: { port: number; host: string }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
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
    });
    server.once('error', reject);
  });
}
