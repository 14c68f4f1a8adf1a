import type { CliIo } from '../../src/cli/index.js';

/** Captured streams for runCli, with a way to wait for output and to press Ctrl-C. */
export function captureIo(env: Record<string, string | undefined> = {}) {
  const controller = new AbortController();
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  const notify = () => waiters.splice(0).forEach((wake) => wake());
  const io: CliIo = {
    stdout: { write: (text: string) => ((out += text), notify(), true) },
    stderr: { write: (text: string) => ((err += text), notify(), true) },
    env,
    signal: controller.signal,
  };
  return {
    io,
    get out() {
      return out;
    },
    get err() {
      return err;
    },
    interrupt: () => controller.abort(),
    /** Resolves with the first match of `pattern` in stdout (from character `after` on). */
    async waitFor(pattern: RegExp, after = 0): Promise<RegExpMatchArray> {
      for (;;) {
        const match = out.slice(after).match(pattern);
        if (match) return match;
        await new Promise<void>((wake) => waiters.push(wake));
      }
    },
  };
}
