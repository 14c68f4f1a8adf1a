import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, SERVED, VENDORED } from '../packages/build.mjs';
import { entryPoints, moduleGraph, readJson, ROOT } from '../packages/graph.mjs';

const root = readJson(join(ROOT, 'package.json'));
const rootVersions: Record<string, string> = {
  ...root.dependencies,
  ...(root.devDependencies as Record<string, string>),
};
const packages = publishedPackages();
const byName = (name: string) => packages.find((p) => p.pkg.name === name)!;

/** Declared although no import reaches them, and why. */
const TYPES_ONLY: Record<string, string[]> = {
  // The server ships no types (its exports name package.json alone), but its dist holds tsc's
  // .d.ts files, and docs.d.ts and markdown-tree.d.ts name mdast's Root (the page parse's tree):
  // packages/build.mjs checks that every package those files import is declared. Already
  // installed with remark-parse and mdast-util-to-string, so it adds nothing to an install.
  'docs-assistant-server': ['@types/mdast'],
};

describe('published packages (packages/*)', () => {
  it('are the widget and the server', () => {
    expect(packages.map((p) => p.pkg.name).sort()).toEqual([
      'docs-assistant',
      'docs-assistant-server',
    ]);
  });

  for (const { dir, pkg } of packages) {
    const manifest = `packages/${dir.split('/').pop()}/package.json`;
    const declared = { ...pkg.dependencies, ...pkg.peerDependencies } as Record<string, string>;
    const { bare, types } = moduleGraph(entryPoints(pkg));
    // Bundled packages are not imported at run time; types matter where the package ships .d.ts.
    const vendored = VENDORED[pkg.name]?.packages ?? [];
    const shipsTypes = JSON.stringify(pkg.exports).includes('"types"');
    const needed = new Map([
      ...[...bare].filter(([name]) => !vendored.includes(name)),
      ...(shipsTypes ? types : []),
    ]);

    it(`${pkg.name}: declares every package its entry points import, in ${manifest}`, () => {
      const missing = [...needed]
        .filter(
          ([name]) => !(name in declared) && !(!bare.has(name) && `@types/${name}` in declared),
        )
        .map(([name, files]) => `${name} (imported by ${[...files].join(', ')})`);
      expect(
        missing,
        `add these to "dependencies" of ${manifest} (same version as the root package.json)`,
      ).toEqual([]);
    });

    it(`${pkg.name}: declares nothing its entry points do not import, so installs stay light`, () => {
      const unused = Object.keys(pkg.dependencies ?? {}).filter(
        (name) =>
          !needed.has(name) &&
          !needed.has(name.replace(/^@types\//, '')) &&
          !TYPES_ONLY[pkg.name]?.includes(name),
      );
      expect(unused).toEqual([]);
    });

    it(`${pkg.name}: pins each dependency to the version the root workspace is tested with`, () => {
      const drift = Object.entries(pkg.dependencies ?? {}).filter(
        ([name, range]) => rootVersions[name] !== range,
      );
      expect(
        drift.map(
          ([name, range]) =>
            `${name}: ${range} here, ${rootVersions[name] ?? 'absent'} in the root package.json`,
        ),
      ).toEqual([]);
    });

    it(`${pkg.name}: is ESM-only with types first, for Node 20.19+ (require(esm))`, () => {
      expect(pkg.type).toBe('module');
      expect(pkg.license).toBe(root.license);
      expect(pkg.engines.node).toBe('>=20.19');
      for (const [path, target] of Object.entries(pkg.exports as Record<string, unknown>)) {
        if (typeof target === 'object')
          expect(Object.keys(target as object)[0], path).toBe('types');
      }
    });
  }

  it('keeps the server, the CLI and Node built-ins out of the widget and its browser client', () => {
    const widget = byName('docs-assistant');
    const browser = moduleGraph(['dist/index.js', 'dist/client/index.js']);
    expect(
      [...browser.sources].filter((s) => !/^src\/(index\.ts$|(protocol|client|chat|ui)\/)/.test(s)),
    ).toEqual([]);
    expect([...browser.builtins]).toEqual([]);
    expect(Object.keys(widget.pkg.dependencies ?? {})).not.toContain('hono');
    expect(widget.pkg.bin).toBeUndefined();
  });

  it('lets a React app install the widget without zod or the AI SDK packages (their types pull zod in)', () => {
    const widget = byName('docs-assistant');
    const { bare, types } = moduleGraph(entryPoints(widget.pkg));
    const vendored = VENDORED['docs-assistant']!.packages;
    // What the widget's modules import at run time (bundled SDK aside) and in their declarations.
    const imported = [
      ...[...bare.keys()].filter((name) => !vendored.includes(name)),
      ...types.keys(),
    ];
    const heavy = /^(zod|zod-to-json-schema|json-schema|@types\/json-schema|@ai-sdk\/.*|ai)$/;
    expect(imported.filter((name) => heavy.test(name))).toEqual([]);
    expect(Object.keys(widget.pkg.dependencies ?? {}).filter((name) => heavy.test(name))).toEqual(
      [],
    );
  });

  it('gives the server package the docs-assistant command and the files it serves', () => {
    const server = byName('docs-assistant-server');
    expect(server.pkg.bin?.['docs-assistant']).toBe('./bin/docs-assistant.js');
    expect(server.pkg.files).toEqual(expect.arrayContaining(['bin', 'dist', 'demo']));
    expect(moduleGraph(entryPoints(server.pkg)).sources).toContain('src/cli/index.ts');
  });

  it('ships every page template the server reads at run time', () => {
    const server = byName('docs-assistant-server');
    const read = [...moduleGraph(entryPoints(server.pkg)).sources].flatMap((source) =>
      [...readFileSync(join(ROOT, source), 'utf8').matchAll(/\btemplate\('([^']+)'\)/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(read).toEqual(expect.arrayContaining(['docs.css', 'export-search.js']));
    for (const name of read)
      expect(existsSync(join(ROOT, 'src/server/site/templates', name))).toBe(true);
    expect(SERVED['docs-assistant-server']).toContain('dist/server/site/templates');
    expect(JSON.stringify(root.scripts)).toContain(
      'cp -R src/server/site/templates dist/server/site/',
    );
  });
});
