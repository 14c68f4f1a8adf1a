import type { Context, Env, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { clientIp, errorResponse } from './middleware.js';
import type { RateLimitStore } from '../stores/index.js';

export interface RateLimitResult {
  ok: boolean;
  remaining: number;
  /** Seconds until the current window ends (only meaningful when `ok` is false). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, now: number): Promise<RateLimitResult>;
}

/**
 * Fixed-window counter. SPEC §8 states limits as "per hour" and "per day", which a fixed window
 * matches exactly; a key's window starts with its first request. `prefix` keeps the limiters that
 * share one store apart.
 */
export function createRateLimiter(
  store: RateLimitStore,
  prefix: string,
  limit: number,
  windowMs: number,
): RateLimiter {
  return {
    async hit(key, now) {
      const { count, resetAt } = await store.increment(`${prefix}:${key}`, windowMs, now);
      const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
      return { ok: count <= limit, remaining: Math.max(0, limit - count), retryAfterSeconds };
    },
  };
}

/** SPEC §8: 429 `rate_limited` with `Retry-After` and `retryAfterSeconds`. */
export function tooManyRequests(message: string, retryAfterSeconds: number): Response {
  return errorResponse('rate_limited', message, { retryAfterSeconds });
}

/**
 * Counts each request that reaches it against `key(c)`, and answers 429 once the key's window is
 * used up. Where it sits in a route decides which requests are charged.
 */
export function rateLimit<E extends Env>(
  limiter: RateLimiter,
  key: (c: Context<E>) => string,
  message: string,
  now: () => number,
): MiddlewareHandler<E> {
  return async (c, next) => {
    const result = await limiter.hit(key(c), now());
    if (!result.ok) return tooManyRequests(message, result.retryAfterSeconds);
    await next();
  };
}

/**
 * Finds the caller's IP (`clientIp`, behind `trustProxy` proxies), tells later handlers
 * (`c.var.ip`) and counts the request against it: first in a route, it charges every request,
 * valid or not, so junk uses up only its sender's own quota.
 */
export function limitByIp(
  limiter: RateLimiter,
  trustProxy: boolean | number,
  message: string,
  now: () => number,
) {
  return createMiddleware<{ Variables: { ip: string } }>(async (c, next) => {
    const ip = clientIp(c, trustProxy);
    c.set('ip', ip);
    const result = await limiter.hit(ip, now());
    if (!result.ok) return tooManyRequests(message, result.retryAfterSeconds);
    await next();
  });
}

/** The assistant operation's limiters (SPEC §8), which every route a reader's key opens shares. */
export interface AssistantLimiters {
  /** Every request, per IP per day. */
  ip: RateLimiter;
  /** One IP's share of one organisation's hourly quota. */
  ipOrg: RateLimiter;
  /** Authenticated, valid requests per organisation per hour. */
  org: RateLimiter;
}

/** What the organisation limits read: the IP (`limitByIp`) and the domain's site (its org). */
type SiteEnv = { Variables: { ip: string; site: { org: string } } };

/**
 * The assistant operation's three checks, for the message, feedback, search, page and MCP routes
 * alike: `ip` counts every request, first; `ipOrg` and `org` go after the key, domain and body
 * checks, so only requests that pass them count against the organisation.
 */
export function assistantLimits(
  limiters: AssistantLimiters,
  trustProxy: boolean | number,
  now: () => number,
) {
  return {
    ip: limitByIp(limiters.ip, trustProxy, 'Too many requests from this IP address today.', now),
    ipOrg: rateLimit(
      limiters.ipOrg,
      (c: Context<SiteEnv>) => `${c.var.site.org}|${c.var.ip}`,
      'Too many requests from this IP address for this organisation this hour.',
      now,
    ),
    org: rateLimit(
      limiters.org,
      (c: Context<SiteEnv>) => c.var.site.org,
      'Too many requests for this organisation this hour.',
      now,
    ),
  };
}
