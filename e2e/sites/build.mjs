// Builds the framework fixtures from their lockfiles (npm only).
//   node e2e/sites/build.mjs nextjs   the Next.js app against this checkout's packed package (CI, every run)
//   node e2e/sites/build.mjs static   VitePress, Docusaurus, Starlight and a TypeDoc API reference (checked in; rerun after editing them)
//   node e2e/sites/build.mjs python   Sphinx and MkDocs from PyPI, each in its own venv (checked in; rerun after editing them)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const run = (cwd, command, args) => {
  console.log(`\n[${cwd.slice(root.length + 1)}] ${command} ${args.join(' ')}`);
  execFileSync(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1' },
  });
};
const install = (dir) => {
  if (!existsSync(join(dir, 'node_modules'))) run(dir, 'npm', ['ci', '--no-audit', '--no-fund']);
};

function nextjs() {
  const dir = join(here, 'nextjs');
  install(dir);
  // What a user installs: the published React package, packed (needs `npm run build` first), not a link to the source.
  for (const old of readdirSync(dir).filter((f) => f.endsWith('.tgz'))) rmSync(join(dir, old));
  run(join(root, 'packages/docs-assistant'), 'npm', ['pack', '--pack-destination', dir]);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  run(dir, 'npm', ['install', '--no-save', '--no-audit', '--no-fund', `./${tarball}`]);
  run(dir, 'npx', ['next', 'build']);
}

function staticSites() {
  for (const name of ['vitepress', 'docusaurus', 'starlight', 'typedoc']) {
    const dir = join(here, name);
    install(dir);
    // Starlight 0.42 needs Astro 7 and Node >= 22.12: its devDependency `node` puts Node 22 first on
    // the PATH of `npm run`, for this build only.
    run(dir, 'npm', ['run', 'build']);
  }
}

// Each Python generator in a virtual environment of its own, from its pinned requirements.txt (PyPI only).
function pythonSites() {
  for (const [name, build] of [
    ['sphinx', ['-m', 'sphinx', '-q', '-b', 'html', 'source', 'build']],
    ['mkdocs', ['-m', 'mkdocs', 'build', '-q', '--strict', '-d', 'site']],
  ]) {
    const dir = join(here, name);
    const venv = join(dir, '.venv');
    if (!existsSync(venv)) run(dir, 'python3', ['-m', 'venv', '.venv']);
    const python = join(venv, 'bin', 'python');
    run(dir, python, ['-m', 'pip', 'install', '-q', '-r', 'requirements.txt']);
    rmSync(join(dir, name === 'sphinx' ? 'build' : 'site'), { recursive: true, force: true });
    run(dir, python, build);
  }
}

const target = process.argv[2];
if (target === 'nextjs') nextjs();
else if (target === 'static') staticSites();
else if (target === 'python') pythonSites();
else {
  console.error('Usage: node e2e/sites/build.mjs nextjs|static|python');
  process.exit(2);
}
