// Builds an eval set's Markdown with VitePress (the pinned one of e2e/sites/vitepress), so
// `npm run eval -- --site` can score the same questions on the built HTML (`serve --site`) beside
// the Markdown (`serve --docs`). The build goes to node_modules/.cache; nothing is checked in.
// (eval.ts imports this from a bundle elsewhere, so the repository's root is an argument.)
//   node bench/eval/build-site.mjs sample|project
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The Markdown folders the eval sets ask about. */
export const SOURCES = {
  sample: 'test/fixtures/sample-docs',
  project: 'docs',
};

/** Where the VitePress build of `name` goes (its HTML in `dist/`), for the repository at `root`. */
export const builtDirOf = (root, name) =>
  join(root, 'node_modules/.cache/docs-assistant-eval-sites', name, 'dist');

export function buildSite(root, name) {
  const vitepress = join(root, 'e2e/sites/vitepress');
  const work = join(root, 'node_modules/.cache/docs-assistant-eval-sites', name);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync(join(root, SOURCES[name]), join(work, 'src'), { recursive: true });
  mkdirSync(join(work, 'src/.vitepress'));
  // As an owner of these pages would configure it: the French pages as their own locale (so
  // <html lang> says fr), links to files outside the docs left alone, no Vue in the prose.
  writeFileSync(
    join(work, 'src/.vitepress/config.mjs'),
    `export default ${JSON.stringify(
      {
        title: name === 'project' ? 'docs-assistant' : 'docs-assistant sample',
        lang: 'en',
        outDir: '../dist',
        ignoreDeadLinks: true,
        locales: { root: { label: 'English', lang: 'en' }, fr: { label: 'Français', lang: 'fr' } },
        markdown: { attrs: { disable: true } },
        vue: { template: { compilerOptions: { whitespace: 'preserve' } } },
      },
      null,
      2,
    )};\n`,
  );
  if (!existsSync(join(vitepress, 'node_modules')))
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: vitepress, stdio: 'inherit' });
  execFileSync(
    process.execPath,
    [join(vitepress, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'src'],
    { cwd: work, stdio: 'inherit' },
  );
  return builtDirOf(root, name);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.slice(2);
  if (!names.length || names.some((name) => !(name in SOURCES))) {
    console.error(`Usage: node bench/eval/build-site.mjs ${Object.keys(SOURCES).join('|')} …`);
    process.exit(2);
  }
  const root = resolve(import.meta.dirname, '../..');
  for (const name of names) console.log(`built ${buildSite(root, name)}`);
}
