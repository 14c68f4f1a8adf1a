// The module graph of a published package, read from the sources: every module reachable from the
// package's `exports` and `bin` (type-only imports included, since they reach the .d.ts files), and
// every bare import among them. The build copies the compiled form of exactly those modules; a test
// checks that each bare import is declared by that package.
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/**
 * Statements, not text: `import|export … from '…'` and `import '…'` at the start of a line,
 * `import('…')`, `require('…')` and `require.resolve('…')`; so a message that quotes an import is no import.
 */
const SPECIFIER =
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]|\.resolve\(\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]/gm;

/** `import type … from '…'` and `export type … from '…'`: needed by declarations only. */
const TYPE_ONLY = /^\s*(?:import|export)\s+type\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm;
/** `import { x, type Y } from '…'`: a type from a package also used at run time. */
const INLINE_TYPE = /^\s*(?:import|export)\s*\{[^}]*\btype\s[^}]*\}\s*from\s*['"]([^'"]+)['"]/gm;

const specifiers = (text, pattern) =>
  [...text.matchAll(pattern)].map((m) => m.slice(1).find((group) => group !== undefined));

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Targets of a package's `exports` map (every condition) and `bin`, relative to the package. */
export function entryPoints(pkg) {
  const targets = [];
  const walk = (value) => {
    if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(pkg.exports);
  walk(pkg.bin);
  return [...new Set(targets)].filter((t) => t !== 'package.json');
}

/**
 * The built files that are copied whole rather than followed: the stylesheet and the script-tag
 * bundles (self-contained; their dependencies are inside them).
 */
export const isAsset = (target) =>
  !/\.(js|d\.ts)$/.test(target) || target.startsWith('dist/embed/');

/** `dist/ui/x.js` or `dist/ui/x.d.ts` → `src/ui/x.ts(x)`; any other path is a source itself. */
function sourceOf(target) {
  if (!target.startsWith('dist/')) return target;
  const stem = `src/${target.slice(5).replace(/\.(d\.ts|js)$/, '')}`;
  const found = ['.ts', '.tsx']
    .map((ext) => stem + ext)
    .find((file) => existsSync(join(ROOT, file)));
  if (!found) throw new Error(`${target}: no source ${stem}.ts(x)`);
  return found;
}

/**
 * Follows imports from the non-asset targets (a package's `entryPoints`, or some of them). `bare`
 * holds the packages imported at run time, `types` those whose types are imported (`import type`,
 * `type X` in a list): what the .d.ts files will import.
 */
export function moduleGraph(targets) {
  const sources = new Set();
  const bare = new Map();
  const types = new Map();
  const builtins = new Set();
  const note = (map, specifier, file) => {
    const name = packageName(specifier);
    if (!map.has(name)) map.set(name, new Set());
    map.get(name).add(file);
  };
  const queue = [];
  const add = (source) => {
    if (sources.has(source)) return;
    sources.add(source);
    queue.push(source);
  };
  for (const target of targets) if (!isAsset(target)) add(sourceOf(target));
  while (queue.length > 0) {
    const file = queue.pop();
    const text = readFileSync(join(ROOT, file), 'utf8');
    // Relative imports are all followed, type-only ones too: the shipped .d.ts files need them.
    for (const specifier of specifiers(text, SPECIFIER)) {
      if (!specifier.startsWith('.')) continue;
      const target = relative(ROOT, resolve(ROOT, dirname(file), specifier));
      add(sourceOf(target.startsWith('dist/') ? target : target.replace(/^src\//, 'dist/')));
    }
    for (const specifier of [...specifiers(text, TYPE_ONLY), ...specifiers(text, INLINE_TYPE)]) {
      if (!specifier.startsWith('.') && !isBuiltin(specifier)) note(types, specifier, file);
    }
    for (const specifier of specifiers(text.replace(TYPE_ONLY, ''), SPECIFIER)) {
      if (specifier.startsWith('.')) continue;
      if (isBuiltin(specifier)) builtins.add(`${file} imports ${specifier}`);
      else note(bare, specifier, file);
    }
  }
  return { sources, bare, types, builtins };
}
