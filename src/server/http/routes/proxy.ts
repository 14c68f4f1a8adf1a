import { Hono } from 'hono';
import { ROUTES } from '../../../protocol/routes.js';
import type { createForwarder } from '../proxy.js';
import { limitByIp, type RateLimiter } from '../rate-limit.js';

export interface ProxyRouteDeps {
  forward: ReturnType<typeof createForwarder>;
  /** Every request, per IP per day: the proxy's own limit, before the upstream's. */
  ipLimiter: RateLimiter;
  trustProxy: boolean | number;
  now: () => number;
  maxBodyBytes: number;
}

/**
 * Proxy mode's assistant operation: the key, the domain and the body are the upstream's to check
 * (it holds the organisations); this side limits by IP and body size and adds the server's key.
 */
export function proxyRoutes(deps: ProxyRouteDeps) {
  const app = new Hono();
  const ipLimit = limitByIp(
    deps.ipLimiter,
    deps.trustProxy,
    'Too many requests from this IP address today.',
    deps.now,
  );
  app.post(ROUTES.assistantMessage, ipLimit, (c) =>
    deps.forward(c, c.req.param('domain'), c.var.ip, deps.maxBodyBytes),
  );
  // v2 goes to the upstream's v2, byte for byte and streamed as it comes.
  app.post(ROUTES.assistantMessageV2, ipLimit, (c) =>
    deps.forward(c, c.req.param('domain'), c.var.ip, deps.maxBodyBytes, 'v2'),
  );
  return app;
}
