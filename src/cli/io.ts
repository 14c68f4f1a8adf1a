// What every command shares: its streams, its exit codes and how it reads options. Commands import
// this module and never each other or index.ts, so the CLI has no import cycle.

import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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

/**
 * Edits (insert, delete, replace, swap two neighbours) between two words: `--prot` is one swap from
 * `--port`, so a typo finds its option while an unrelated word finds none.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]![j]!;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      rows[i]![j] = best;
    }
  return at(a.length, b.length);
}

/** The known name nearest to a mistyped one, when it is near enough to be what was meant. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  // One edit in a short name, a third of a longer one's letters: '--nope' must not suggest '--host'.
  const allowed = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/**
 * Node's parseArgs errors in the CLI's words: "Unknown option --prot. Did you mean --port?"
 * instead of its advice about positionals that start with '-'. Undefined for other errors.
 */
export function parseArgsMessage(error: unknown, known: readonly string[]): string | undefined {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const typed = /Unknown option '([^']+)'/.exec(message)?.[1] ?? '';
    const name = typed.replace(/^--?/, '').split('=')[0] ?? '';
    const suggestion = typed.startsWith('--') ? closestName(name, known) : undefined;
    return `Unknown option ${typed}.${suggestion ? ` Did you mean --${suggestion}?` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /Option '(-\w, )?(--[\w-]+)/.exec(message)?.[2];
    if (flag && message.includes('argument missing')) return `${flag} needs a value.`;
    if (flag && message.includes('does not take an argument')) return `${flag} takes no value.`;
  }
  return code?.startsWith('ERR_PARSE_ARGS') ? message : undefined;
}

/** What a user-supplied path must be before a command relies on it. */
export interface PathRule {
  /** The flag that named it, e.g. `--docs`. */
  flag: string;
  /** How messages name it: "Docs folder", "Values file". */
  what: string;
  kind: 'folder' | 'file';
  /** What the flag expects, as the end of a sentence: "a folder of Markdown (.md/.mdx) pages". */
  expects: string;
}

/**
 * A path that must exist already, resolved; a usage error saying what the flag expects instead of
 * the raw ENOENT of whatever reads it later.
 */
export function existingPath(path: string, rule: PathRule): string {
  const absolute = resolve(path);
  const found = statSync(absolute, { throwIfNoEntry: false });
  const hint = `${rule.flag} expects ${rule.expects}.`;
  if (!found) throw new UsageError(`${rule.what} not found: ${absolute}\n${hint}`);
  if (found.isDirectory() !== (rule.kind === 'folder'))
    throw new UsageError(
      `${absolute} is a ${found.isDirectory() ? 'folder' : 'file'}, not a ${rule.kind}.\n${hint}`,
    );
  return absolute;
}

/** A file the command will write: its folder must exist (checked before any work starts). */
export function outputPath(path: string, flag: string): string {
  const absolute = resolve(path);
  const folder = dirname(absolute);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(
      `The folder for ${flag} does not exist: ${folder}\nCreate it first, or give ${flag} a path in an existing folder.`,
    );
  return absolute;
}
