// Assembles each published package (packages/*/) from the one build in the root `dist/`: the files
// reachable from its `exports` and `bin`, plus the folders its code serves at run time. Run by
// `npm run build:packages` (and by each package's prepack), after `npm run build`.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { entryPoints, isAsset, moduleGraph, readJson, ROOT } from './graph.mjs';

/** Read by path at run time, not imported: the server serves the sample docs and the built pages. */
const SERVED = { 'docs-assistant-server': ['demo/docs', 'dist/demo', 'dist/embed'] };
/** Files every package carries beside its package.json. */
const DOCS = ['README.md', 'LICENSE', 'CHANGELOG.md'];

export function publishedPackages() {
  const dir = join(ROOT, 'packages');
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'package.json')))
    .map((e) => ({ dir: join(dir, e.name), pkg: readJson(join(dir, e.name, 'package.json')) }));
}

/**
 * Copies one built file. Maps of tsc output ship with their sources embedded;
 * the script-tag bundles ship without their 1.5 MB of maps (a React user installs them unused).
 */
function copy(rel, into) {
  const to = join(into, rel);
  mkdirSync(dirname(to), { recursive: true });
  if (rel.startsWith('dist/embed/') || rel.startsWith('dist/demo/')) {
    if (rel.endsWith('.map')) return;
    const text = readFileSync(join(ROOT, rel), 'utf8');
    writeFileSync(to, rel.endsWith('.js') ? text.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n') : text);
    return;
  }
  if (!existsSync(join(ROOT, rel))) throw new Error(`${rel} is missing: run \`npm run build\` first.`);
  cpSync(join(ROOT, rel), to);
  const map = join(ROOT, `${rel}.map`);
  if (!existsSync(map)) return;
  // The map points at src/, which is not shipped: embed the sources so it works where it lands.
  const json = readJson(map);
  json.sourcesContent = json.sources.map((source) => readFileSync(join(dirname(map), source), 'utf8'));
  writeFileSync(`${to}.map`, JSON.stringify(json));
}

export function buildPackage({ dir, pkg }) {
  for (const name of ['dist', 'bin', 'demo']) rmSync(join(dir, name), { recursive: true, force: true });
  const { sources } = moduleGraph(entryPoints(pkg));
  for (const source of sources) {
    if (!source.startsWith('src/')) copy(source, dir);
    else for (const ext of ['.js', '.d.ts']) copy(source.replace(/^src\//, 'dist/').replace(/\.tsx?$/, ext), dir);
  }
  for (const target of entryPoints(pkg).filter(isAsset)) copy(target, dir);
  for (const served of SERVED[pkg.name] ?? []) {
    for (const entry of readdirSync(join(ROOT, served), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) copy(relative(ROOT, join(entry.parentPath, entry.name)), dir);
    }
  }
  for (const doc of DOCS) cpSync(join(ROOT, doc), join(dir, doc));
  return sources.size;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const p of publishedPackages()) console.log(`packages/${p.pkg.name}: ${buildPackage(p)} module files`);
}
