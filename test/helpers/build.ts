import { spawn, type ChildProcess } from 'node:child_process';
import { build as esbuild } from 'esbuild';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');

const built = new Map<string, Promise<BuiltCli>>();

export interface BuiltCli {
  /** The CLI module (dist/cli/index.js of the private build). */
  cli: string;
  /** `bin/docs-assistant.js` beside that build, as a user runs it. */
  bin: string;
}

/**
 * Transpiles the server and CLI module by module, as `npm run build` lays them out (dist/ with
 * bin/ beside it), into `folder` under node_modules/.cache (so packages resolve), one folder per
 * caller: real processes, without racing other tests or a developer's build in dist/. esbuild
 * strips the types in about a second; `npm run typecheck` checks them, so tsc is not run twice.
 */
export function buildCli(folder: string): Promise<BuiltCli> {
  let build = built.get(folder);
  if (!build) {
    build = (async () => {
      const root = join(ROOT, 'node_modules', '.cache', folder);
      await rm(root, { recursive: true, force: true });
      const sources = await readdir(join(ROOT, 'src'), { recursive: true });
      await esbuild({
        entryPoints: sources
          .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
          .map((file) => join(ROOT, 'src', file)),
        outbase: join(ROOT, 'src'),
        outdir: join(root, 'dist'),
        platform: 'node',
        format: 'esm',
        jsx: 'automatic',
        logLevel: 'warning',
      });
      // Modules only; the page templates the server reads go beside them, as the build does.
      await cp(join(ROOT, 'src/server/site/templates'), join(root, 'dist/server/site/templates'), {
        recursive: true,
      });
      await cp(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
      return {
        cli: join(root, 'dist', 'cli', 'index.js'),
        bin: join(root, 'bin', 'docs-assistant.js'),
      };
    })();
    built.set(folder, build);
  }
  return build;
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
  const options = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    // The bundle reads its page templates (beside site/render.ts) and the demo docs (at the
    // package root above it) from the source tree, as the source does.
    define: {
      'import.meta.url': JSON.stringify(
        pathToFileURL(join(root, 'src/server/site/render.ts')).href,
      ),
    },
  } as const;
  await esbuild({ ...options, entryPoints: [entry], outfile });
  // The page parse threads' module, where the bundle looks for it: beside itself
  // (`import.meta.resolve('./parse-worker.js')` in site/parse-pool.ts).
  await esbuild({
    ...options,
    entryPoints: [join(root, 'src/server/site/parse-worker.ts')],
    outfile: join(dir, 'parse-worker.js'),
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
  const { cli } = await buildCli('docs-assistant-server-process');
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

export interface WorkersProcess {
  url: string;
  process: ChildProcess;
  /** Everything the primary and its workers printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once the output matches `pattern`; fails if the server exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Sends `signal` and resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `docs-assistant serve --workers 2 --port 0 …` as a real process, from the one-file bundle
 * node:cluster can fork (bundled into node_modules/.cache/`folder`); resolves once the primary
 * says both workers listen.
 */
export async function startWorkers(
  folder: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<WorkersProcess> {
  const child = spawn(
    process.execPath,
    [await bundleCli(ROOT, folder), 'serve', '--workers', '2', '--port', '0', ...args],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const waiters = new Set<() => void>();
  const read = (chunk: Buffer) => {
    out += chunk.toString();
    waiters.forEach((wake) => wake());
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (!match) return;
        waiters.delete(check);
        resolve(match);
      };
      waiters.add(check);
      check();
      void exited.then((code) => {
        waiters.delete(check);
        reject(new Error(`serve exited with ${code} before printing ${pattern}:\n${out}`));
      });
    });
  const [, url] = await waitFor(/running at (http:\/\/[^/\s]+)\/ with 2 worker processes/);
  return {
    url: url!,
    process: child,
    output: () => out,
    waitFor,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
