export interface RateLimitResult {
  ok: boolean;
  remaining: number;
  /** Seconds until the current window ends (only meaningful when `ok` is false). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, now: number): RateLimitResult;
}

/**
 * Fixed-window counter. SPEC §8 states limits as "per hour" and "per day", which a fixed window
 * matches exactly; a key's window starts with its first request.
 */
export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = 0;
  return {
    hit(key, now) {
      // Forget finished windows now and then, so a flood of distinct IPs cannot grow the map forever.
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
        lastSweep = now;
      }
      let window = windows.get(key);
      if (!window || now - window.start >= windowMs) {
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      if (window.count >= limit) return { ok: false, remaining: 0, retryAfterSeconds };
      window.count++;
      return { ok: true, remaining: limit - window.count, retryAfterSeconds };
    },
  };
}
