// Assembles each published package (packages/*/) from the one build in the root `dist/`: the files
// reachable from its `exports` and `bin`, plus the folders its code serves at run time. Run by
// `npm run build:packages` (and by each package's prepack), after `npm run build`.
import { buildSync } from 'esbuild';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { entryPoints, isAsset, moduleGraph, packageName, readJson, ROOT } from './graph.mjs';

/**
 * Read by path at run time, not imported: the server serves the sample docs and the built pages,
 * and reads its page templates (src/server/site/templates, copied into dist/ by the build).
 */
export const SERVED = {
  'docs-assistant-server': [
    'demo/docs',
    'dist/demo',
    'dist/embed',
    'dist/insights',
    'dist/server/site/templates',
  ],
};
/**
 * Bundled into the package, tree-shaken, instead of imported: under Next.js 16 (Turbopack), importing
 * the AI SDK's hook pulled all of @ai-sdk/ui-utils into the page, and with it zod and
 * zod-to-json-schema (11.4 KB gzip of initial JS the widget never runs). Bundled here, every bundler
 * gets only what the widget uses. @ai-sdk/ui-utils stays a dependency for the .d.ts files' types.
 */
export const VENDORED = {
  // swr stays shared: the widget's SWRConfig must reach the hook's own useSWR.
  'docs-assistant': {
    file: 'dist/vendor/ai-sdk.js',
    packages: ['@ai-sdk/react', '@ai-sdk/ui-utils'],
    external: ['react', 'swr'],
  },
};
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
    writeFileSync(
      to,
      rel.endsWith('.js') ? text.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n') : text,
    );
    return;
  }
  if (!existsSync(join(ROOT, rel)))
    throw new Error(`${rel} is missing: run \`npm run build\` first.`);
  cpSync(join(ROOT, rel), to);
  const map = join(ROOT, `${rel}.map`);
  if (!existsSync(map)) return;
  // The map points at src/, which is not shipped: embed the sources so it works where it lands.
  const json = readJson(map);
  json.sourcesContent = json.sources.map((source) =>
    readFileSync(join(dirname(map), source), 'utf8'),
  );
  writeFileSync(`${to}.map`, JSON.stringify(json));
}

export function buildPackage({ dir, pkg }) {
  for (const name of ['dist', 'bin', 'demo'])
    rmSync(join(dir, name), { recursive: true, force: true });
  const { sources } = moduleGraph(entryPoints(pkg));
  for (const source of sources) {
    if (!source.startsWith('src/')) copy(source, dir);
    else
      for (const ext of ['.js', '.d.ts'])
        copy(source.replace(/^src\//, 'dist/').replace(/\.tsx?$/, ext), dir);
  }
  for (const target of entryPoints(pkg).filter(isAsset)) copy(target, dir);
  for (const served of SERVED[pkg.name] ?? []) {
    for (const entry of readdirSync(join(ROOT, served), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) copy(relative(ROOT, join(entry.parentPath, entry.name)), dir);
    }
  }
  if (VENDORED[pkg.name]) vendor(dir, pkg, VENDORED[pkg.name]);
  checkDeclarations(dir, pkg);
  for (const doc of DOCS) cpSync(join(ROOT, doc), join(dir, doc));
  return sources.size;
}

/** What the shipped .d.ts files import (written, or inferred by tsc as `import("…")`) must be declared. */
function checkDeclarations(dir, pkg) {
  const declared = { ...pkg.dependencies, ...pkg.peerDependencies };
  const missing = new Set();
  for (const file of readdirSync(join(dir, 'dist'), { recursive: true })) {
    if (!String(file).endsWith('.d.ts')) continue;
    for (const [, specifier] of readFileSync(join(dir, 'dist', String(file)), 'utf8').matchAll(
      /(?:\bfrom\s*|\bimport\(\s*)['"]([^'".][^'"]*)['"]/g,
    )) {
      if (
        !isBuiltin(specifier) &&
        !(packageName(specifier) in declared) &&
        !(`@types/${packageName(specifier)}` in declared)
      )
        missing.add(`${specifier} (dist/${file})`);
    }
  }
  if (missing.size)
    throw new Error(
      `packages/${pkg.name}: declarations import undeclared packages: ${[...missing].join(', ')}`,
    );
}

const IMPORT_FROM = /^(import\s*\{)([^}]*)(\}\s*from\s*)'([^']+)'/gm;

/** The names the package's sources import from the vendored packages at run time. */
function vendoredImports(pkg, packages) {
  const names = new Map(packages.map((name) => [name, new Set()]));
  for (const source of moduleGraph(entryPoints(pkg)).sources) {
    for (const [, , list, , specifier] of readFileSync(join(ROOT, source), 'utf8').matchAll(
      IMPORT_FROM,
    )) {
      for (const name of list.split(',').map((n) => n.trim()))
        if (name && !name.startsWith('type ')) names.get(specifier)?.add(name.split(/\s+as\s+/)[0]);
    }
  }
  return names;
}

/**
 * Bundles what the package uses of `packages` into `outfile`; anything the bundle still imports
 * must be listed in `external` and declared by the package. Returns the packages bundled.
 */
export function vendorBundle(pkg, { packages, external }, outfile) {
  const entry = [...vendoredImports(pkg, packages)]
    .map(([from, used]) => `export { ${[...used].sort().join(', ')} } from '${from}';`)
    .join('\n');
  const result = buildSync({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: [...external, ...external.map((name) => `${name}/*`)],
    outfile,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const output = Object.values(result.metafile.outputs)[0];
  const declared = { ...pkg.dependencies, ...pkg.peerDependencies };
  const undeclared = output.imports
    .filter((i) => !(packageName(i.path) in declared))
    .map((i) => i.path);
  if (undeclared.length)
    throw new Error(
      `${outfile} imports ${undeclared.join(', ')}: declare them in packages/${pkg.name}/package.json`,
    );
  // What ended up in the file (tree-shaking read zod, for one, but kept none of it).
  const kept = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0);
  return [
    ...new Set(
      kept.map(([path]) => path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1]).filter(Boolean),
    ),
  ].sort();
}

/** Builds the vendored file, writes the bundled packages' licences beside it, and points the imports at it. */
function vendor(dir, pkg, config) {
  const outfile = join(dir, config.file);
  const notices = vendorBundle(pkg, config, outfile).map((name) => {
    const at = join(ROOT, 'node_modules', name);
    const licence = readdirSync(at).find((f) => /^licen[sc]e/i.test(f));
    const meta = readJson(join(at, 'package.json'));
    return `${name}@${meta.version} (${meta.license})\n\n${licence ? readFileSync(join(at, licence), 'utf8').trim() : ''}\n`;
  });
  writeFileSync(
    outfile.replace(/\.js$/, '.LICENSES.txt'),
    `${config.file} bundles these packages:\n\n${notices.join('\n---\n\n')}`,
  );
  for (const js of readdirSync(join(dir, 'dist'), { recursive: true })) {
    const path = join(dir, 'dist', String(js));
    if (!path.endsWith('.js') || path === outfile) continue;
    const text = readFileSync(path, 'utf8');
    const target = relative(dirname(path), outfile);
    const rewritten = text.replace(IMPORT_FROM, (all, head, list, mid, specifier) =>
      config.packages.includes(specifier)
        ? `${head}${list}${mid}'${target.startsWith('.') ? target : `./${target}`}'`
        : all,
    );
    if (rewritten !== text) writeFileSync(path, rewritten);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, name, outfile] = process.argv.slice(2);
  // `vendor <package> <outfile>`: only the vendored bundle, for tests (esbuild cannot run in jsdom).
  if (command === 'vendor') {
    const p = publishedPackages().find((x) => x.pkg.name === name);
    console.log(JSON.stringify(vendorBundle(p.pkg, VENDORED[name], outfile)));
  } else {
    for (const p of publishedPackages())
      console.log(`packages/${p.pkg.name}: ${buildPackage(p)} module files`);
  }
}
