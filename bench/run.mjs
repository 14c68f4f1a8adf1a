// Runs a benchmark written in TypeScript: `node bench/run.mjs size` compiles bench/size.ts with
// esbuild (already a dependency of Vite) and calls its main(). Benchmarks print figures; they never
// assert wall-clock bounds.
import { build } from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Arguments after `--` belong to the benchmark (`node bench/run.mjs eval -- --verbose`).
const args = process.argv.slice(2);
const names = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
if (names.length === 0) {
  console.error('Usage: node bench/run.mjs <size|stream|page|server|model|eval> [...]');
  process.exit(2);
}
const cache = join(root, 'node_modules', '.cache', 'docs-assistant-bench');
mkdirSync(cache, { recursive: true });
for (const name of names) {
  const outfile = join(cache, `${name}.mjs`);
  await build({
    entryPoints: [join(root, 'bench', `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    jsx: 'automatic',
    logLevel: 'warning',
    // The compiled copy lives in a cache folder; keep import.meta.dirname meaning bench/.
    define: { 'import.meta.dirname': JSON.stringify(join(root, 'bench')) },
  });
  // The server reads its page templates from beside its own module, here the bundle.
  cpSync(join(root, 'src/server/site/templates'), join(cache, 'templates'), { recursive: true });
  // And its page parse threads' module (site/parse-pool.ts): built now, not left by another
  // benchmark's build of older code, which the bundle would have run on its threads.
  await build({
    entryPoints: [join(root, 'src/server/site/parse-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: join(cache, 'parse-worker.js'),
    logLevel: 'warning',
  });
  const bench = await import(pathToFileURL(outfile).href);
  await bench.main();
}
