import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { captureIo } from './helpers/cli.js';
import { tempDir } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};

/** The commands of a Markdown text's ```bash blocks: continuations joined, `&&` split, comments cut. */
function fencedCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
      .filter(Boolean)
      .flatMap((line) => line.split(' && ').map((command) => command.trim())),
  );
}

/** Shell words, with '…' and "…" quoting (all the README uses). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** `A=1 B=2 cmd args` → the environment and the words of the command. */
function parse(command: string) {
  const all = words(command);
  const env: Record<string, string> = {};
  while (all[0] && /^[A-Z_]+=/.test(all[0])) {
    const [name, ...value] = all.shift()!.split('=');
    env[name!] = value.join('=');
  }
  return { env, argv: all };
}

/** Runs `docs-assistant …` in-process; a `serve` must come up, answer /healthz, and stop on Ctrl-C. */
async function runDocsAssistant(args: string[], env: Record<string, string>) {
  const run = captureIo(env);
  if (args[0] !== 'serve') return { exit: await runCli(args, run.io), run };
  const port = args.indexOf('--port');
  const served = port >= 0 ? args.toSpliced(port, 2) : args;
  const exit = runCli([...served, '--port', '0', '--data', await tempDir()], run.io);
  const started = await Promise.race([run.waitFor(/running at (http:\/\/[\d.:]+)\//), exit]);
  if (typeof started === 'number') return { exit: started, run };
  expect((await fetch(`${started[1]}/healthz`)).status).toBe(200);
  run.interrupt();
  return { exit: await exit, run };
}

/** Runs a shell command; standard error apart, so curl's progress meter never lands in `out`. */
function sh(command: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const commands = fencedCommands(README);

describe("the README's commands work as written in a clone", () => {
  it('has commands to check, each of a kind this test knows', () => {
    expect(commands.length).toBeGreaterThan(4);
    const unknown = commands.filter(
      (c) => !/^(npm|curl|([A-Z_]+=\S+ )*npx docs-assistant)\b/.test(c),
    );
    expect(unknown).toEqual([]);
  });

  it('names only npm commands and scripts that exist', () => {
    const builtins = new Set(['install', 'ci', 'test', 'start']);
    for (const command of commands.filter((c) => c.startsWith('npm '))) {
      const [, verb, script] = words(command);
      if (verb === 'run') expect(pkg.scripts, command).toHaveProperty([script!]);
      else {
        expect(builtins, command).toContain(verb);
        if (verb === 'start' || verb === 'test')
          expect(pkg.scripts, command).toHaveProperty([verb]);
      }
    }
  });

  it('runs npx docs-assistant from the clone: the package bin exists and each command exits 0', async () => {
    expect(existsSync(join(ROOT, pkg.bin['docs-assistant']!))).toBe(true);
    const npx = commands.filter((c) => c.includes('npx docs-assistant'));
    expect(npx.length).toBeGreaterThan(0);
    for (const command of npx) {
      const { env, argv } = parse(command);
      expect(argv.slice(0, 2), command).toEqual(['npx', 'docs-assistant']);
      const { exit, run } = await runDocsAssistant(argv.slice(2), env);
      expect({ command, exit, err: run.err }).toEqual({ command, exit: 0, err: '' });
    }
  });

  it('answers its curl against the server npm start runs, with sources and text', async () => {
    const curl = commands.filter((c) => c.startsWith('curl '));
    expect(curl.length).toBeGreaterThan(0);
    const run = captureIo();
    const exit = runCli(['serve', '--port', '0', '--data', await tempDir()], run.io);
    const [, url] = await run.waitFor(/running at (http:\/\/[\d.:]+)\//);
    try {
      for (const command of curl) {
        expect(command, 'the README points curl at npm start’s address').toContain(
          'http://127.0.0.1:4321/',
        );
        const { code, out, err } = await sh(command.replace('http://127.0.0.1:4321', url!));
        expect(code, `${out}\n${err}`).toBe(0);
        expect(out).toMatch(/^h:/m);
        expect(out).toMatch(/^0:"/m);
        expect(out).toMatch(/^d:\{"finishReason":"stop"/m);
      }
    } finally {
      run.interrupt();
      await exit;
    }
  });

  it('finds commands in bash blocks only, joined across line continuations', () => {
    const text = [
      'Run `npm nope` in prose.',
      '```bash',
      'npm install && npm start  # two',
      'A=1 \\',
      '  npx docs-assistant serve --docs ./docs',
      '```',
      '```html',
      '<script src="x.js"></script>',
      '```',
    ].join('\n');
    expect(fencedCommands(text)).toEqual([
      'npm install',
      'npm start',
      'A=1 npx docs-assistant serve --docs ./docs',
    ]);
  });
});
