#!/usr/bin/env node
// `npm test`: the type check and the linters run beside vitest's `unit` project (vite.config.ts)
// instead of before it. vitest runs one file at a time on a 2-core machine (its default: one worker
// fewer than the cores), and tsgo, ESLint and Prettier use the other core. vitest prints as it goes;
// the checks' output is kept and printed after it, then one line per check. Exit status 0 only when
// all four passed. Extra arguments go to vitest (`npm test -- test/x.test.ts`).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a command from the repository, its output kept (or shown as it comes). */
function run(name, command, args, { show = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: root,
      stdio: show ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: show ? process.env : { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code, signal) =>
      resolve({
        name,
        ok: code === 0,
        code: code ?? signal,
        output,
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

// ESLint and Prettier keep a cache under node_modules/.cache, so a run after the first re-checks only
// what changed (a clean clone, as in CI, checks everything).
const cache = join(root, 'node_modules', '.cache');
const checks = [
  // TypeScript 7's native compiler (tsgo): the same check as tsc 5 in about a tenth of the CPU,
  // a clean clone included. The build still emits with tsc 5, which checks src again.
  run('type check (tsgo)', bin('tsgo'), ['--noEmit', '-p', 'tsconfig.json']),
  run('ESLint', bin('eslint'), ['.', '--cache', '--cache-location', join(cache, 'eslint/')]),
  run('Prettier --check', bin('prettier'), ['--check', '.', '--cache']),
];
const suite = await run(
  'vitest',
  bin('vitest'),
  ['run', '--project', 'unit', ...process.argv.slice(2)],
  { show: true },
);
const results = [...(await Promise.all(checks)), suite];

for (const result of results.filter((r) => !r.ok && r !== suite)) {
  process.stdout.write(`\n── ${result.name} failed ──\n${result.output}`);
}
process.stdout.write('\n');
for (const { name, ok, code, seconds } of results) {
  process.stdout.write(`${ok ? 'passed' : `FAILED (${code})`}  ${name}  ${seconds.toFixed(0)} s\n`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
