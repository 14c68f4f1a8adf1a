import { vi } from 'vitest';

/**
 * `vi.waitFor` and Testing Library's `waitFor`/`findBy*` give up after 1 s by default: a wall-clock
 * bound a loaded machine can miss while the awaited thing is still on its way. They stay hang
 * guards here, at the same limit as a test (vite.config.ts testTimeout).
 */
const HANG_GUARD_MS = 60_000;

const waitFor = vi.waitFor.bind(vi);
vi.waitFor = ((callback, options) =>
  waitFor(
    callback,
    typeof options === 'number' ? options : { timeout: HANG_GUARD_MS, interval: 20, ...options },
  )) as typeof vi.waitFor;

if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: HANG_GUARD_MS });
}
