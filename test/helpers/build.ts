import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { build } from 'esbuild';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..', '..');

let built: Promise<string> | undefined;
/**
 * Compiles the server and CLI to a private folder (inside node_modules, so packages resolve) and
 * resolves to its CLI module: real processes, without racing other tests that rebuild dist/.
 */
export function buildCli(): Promise<string> {
  return (built ??= (async () => {
    const parent = join(ROOT, 'node_modules', '.cache', 'docs-assistant-test');
    // Earlier runs' builds go; only the test file using this helper builds here.
    await rm(parent, { recursive: true, force: true });
    const out = join(parent, `build-${process.pid}`, 'dist');
    await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(ROOT, 'tsconfig.build.json'),
        '--outDir',
        out,
        '--declaration',
        'false',
        '--sourceMap',
        'false',
      ],
      { cwd: ROOT },
    );
    // tsc compiles modules only; the page templates the server reads go beside them, as the build does.
    await cp(join(ROOT, 'src/server/site/templates'), join(out, 'server/site/templates'), {
      recursive: true,
    });
    return join(out, 'cli', 'index.js');
  })());
}

/**
 * The CLI as one file, so `serve --workers N` (node:cluster) can fork it as a real process;
 * packages stay external in node_modules. `folder` names its cache folder under
 * node_modules/.cache, one per caller, so a test and a benchmark never overwrite each other's.
 * `root` is the repository: benchmarks are bundled elsewhere, so this module cannot find it itself.
 */
export async function bundleCli(root: string, folder: string): Promise<string> {
  const dir = join(root, 'node_modules', '.cache', folder);
  await mkdir(dir, { recursive: true });
  const entry = join(dir, 'cli-entry.ts');
  await writeFile(
    entry,
    `import { processIo, runCli } from ${JSON.stringify(join(root, 'src/cli/index.ts'))};\nprocess.exitCode = await runCli(process.argv.slice(2), processIo());\n`,
  );
  const outfile = join(dir, 'cli.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'silent',
    // The bundle reads its page templates (beside site/render.ts) and the demo docs (at the
    // package root above it) from the source tree, as the source does.
    define: {
      'import.meta.url': JSON.stringify(
        pathToFileURL(join(root, 'src/server/site/render.ts')).href,
      ),
    },
  });
  return outfile;
}

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  output(): string;
}

/** `docs-assistant serve --port 0 …` as a real process; resolves once it listens. */
export async function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<ServerProcess> {
  const cli = await buildCli();
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { processIo, runCli } from ${JSON.stringify(cli)}; process.exitCode = await runCli(process.argv.slice(1), processIo());`,
      'serve',
      '--port',
      '0',
      ...args,
    ],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /running at (http:\/\/[\d.:]+)\//.exec(out);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`The server exited (${code}) before listening:\n${out}`)),
    );
  });
  return { url, process: child, output: () => out };
}
