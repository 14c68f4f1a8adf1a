// What every command shares: its streams, its exit codes and how it reads options. Commands import
// this module and never each other or index.ts, so the CLI has no import cycle.

/** A command's streams and surroundings, passed in so tests need no subprocess. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C; long-running commands stop cleanly when it fires. */
  signal?: AbortSignal;
  /** HTTP transport for commands that call a service (tests pass an in-process app). @default fetch */
  fetch?: typeof fetch;
}

/** Exit codes of every command (documented in each command's `--help`). */
export const EXIT = {
  ok: 0,
  /** The work failed: a failed job, a service error, a port in use. */
  failed: 1,
  /** The command was called wrongly; nothing was done. */
  usage: 2,
  /** Stopped with Ctrl-C (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in how a command was called: `runCli` prints it with a pointer to `--help`, exit 2. */
export class UsageError extends Error {}

/** Parsed flags, as `node:util` `parseArgs` gives them. */
export type OptionValues = Record<string, string | boolean | undefined>;

/** A string flag, trimmed; undefined when absent or blank. */
export function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** A whole-number flag (`--port 0` included), or `fallback` when absent. */
export function integerOption(
  value: string | boolean | undefined,
  name: string,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new UsageError(`--${name} must be a whole number, got "${String(value)}".`);
  return n;
}

/** `--port`: 0 (any free port) to 65535. */
export function portOption(value: string | boolean | undefined, fallback: number): number {
  const port = integerOption(value, 'port', fallback);
  if (port > 65535) throw new UsageError('--port must be between 0 and 65535.');
  return port;
}

/** An http(s) URL flag, without trailing slashes. */
export function urlOption(value: string, flag: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return url.href.replace(/\/+$/, '');
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got "${value}".`);
  }
}

/** The real process's streams; Ctrl-C / SIGTERM abort the signal instead of killing mid-write. */
export function processIo(): CliIo {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
  };
}
