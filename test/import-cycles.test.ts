import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
/** Every relative `import … from` / `export … from`, `import type` included. */
const RELATIVE_IMPORT = /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.[^'"]+)['"]/gm;

/** Module → the modules it imports, read from the sources. */
async function importGraph(root: string): Promise<Map<string, string[]>> {
  const files = (await readdir(root, { recursive: true }))
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => join(root, name));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of (await readFile(file, 'utf8')).matchAll(RELATIVE_IMPORT)) {
      const stem = resolve(dirname(file), match[1]!).replace(/\.js$/, '');
      const target = [`${stem}.ts`, `${stem}.tsx`].find((path) => existsSync(path));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Each cycle once, as `a.ts -> b.ts`, from the first module of it that the walk met. */
function cyclesOf(graph: Map<string, string[]>, root: string): string[] {
  const cycles = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string) => {
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0)
        cycles.add(
          path
            .slice(at)
            .map((file) => relative(root, file))
            .join(' -> '),
        );
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(node);
  };
  for (const node of graph.keys()) if (!done.has(node)) visit(node);
  return [...cycles];
}

describe('imports', () => {
  // The project's cycle check (no ESLint plugin does it here; import-x/no-cycle also skipped
  // `import type`, which let cli/export.ts and cli/index.ts import each other). Type-only imports
  // count: a cycle through types is still two modules that cannot be read apart.
  for (const folder of ['src', 'bench', 'demo', 'test']) {
    it(`form no cycle in ${folder}/, type-only imports included`, async () => {
      const root = join(ROOT, folder);
      expect(cyclesOf(await importGraph(root), root)).toEqual([]);
    });
  }

  it('would report a cycle of type-only imports', async () => {
    const root = await mkdtemp(join(tmpdir(), 'da-cycle-'));
    await writeFile(join(root, 'index.ts'), "import { run } from './export.js';\nrun();\n");
    await writeFile(
      join(root, 'export.ts'),
      "import type { CliIo } from './index.js';\nexport const run = (_io?: CliIo) => 0;\n",
    );
    expect(cyclesOf(await importGraph(root), root)).toEqual(['export.ts -> index.ts']);
  });
});
