import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** Folders the docs name that a run creates (git-ignored), not the checkout. */
const OUTPUTS = ['e2e/screenshots/'];

/** Repository paths a document names in code spans: `src/ui/parts.tsx`, `bench/stream` (a bench name). */
function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return [
    ...new Set(
      spans.filter((span) =>
        /^(src|test|e2e|bench|demo|packages|deploy|bin)\/[\w./-]+$/.test(span),
      ),
    ),
  ];
}

const exists = (path: string) =>
  OUTPUTS.some((dir) => path.startsWith(dir)) ||
  existsSync(join(ROOT, path)) ||
  existsSync(join(ROOT, `${path}.ts`));

describe('the docs', () => {
  for (const doc of DOCS) {
    it(`${doc} names only files and folders that exist (a moved file updates its docs)`, () => {
      const named = namedPaths(readFileSync(join(ROOT, doc), 'utf8'));
      expect(named.filter((path) => !exists(path))).toEqual([]);
    });
  }

  it('notices a path that is not there', () => {
    const named = namedPaths(
      'Edit `src/ui/parts.tsx`, then `src/ui/no-such-file.tsx`; run `npm test`.',
    );
    expect(named).toEqual(['src/ui/parts.tsx', 'src/ui/no-such-file.tsx']);
    expect(named.filter((path) => !exists(path))).toEqual(['src/ui/no-such-file.tsx']);
  });
});
