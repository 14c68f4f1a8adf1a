import type { RateLimitStore } from './stores/index.js';

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
