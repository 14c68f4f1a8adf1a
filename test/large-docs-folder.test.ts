import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '..');

describe('a docs folder with more pages than the process may open files at once', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('loads every page instead of failing with "too many open files"', async () => {
    const dir = await tempDir('da-large-folder-');
    dirs.push(dir);
    const docs = join(dir, 'docs');
    for (let folder = 0; folder < 6; folder++) {
      await mkdir(join(docs, `part-${folder}`), { recursive: true });
      for (let i = 0; i < 50; i++)
        await writeFile(
          join(docs, `part-${folder}`, `page-${i}.md`),
          `# Page ${folder}-${i}\n\nHow to configure part ${folder}, case ${i}.\n`,
        );
    }
    // The loader as the server runs it, in a process allowed fewer open files than the folder has pages.
    const script = join(ROOT, 'node_modules', '.cache', 'docs-assistant-test', 'load-docs.mjs');
    await build({
      stdin: {
        contents: `import { loadDocsSite } from ${JSON.stringify(join(ROOT, 'src/server/site/docs.ts'))};
const site = await loadDocsSite(process.argv[2]);
console.log(site.pages.length, site.byPath.has('/part-5/page-49'));`,
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile: script,
      logLevel: 'silent',
    });
    const { stdout } = await promisify(execFile)('sh', [
      '-c',
      `ulimit -n 200 && exec "${process.execPath}" "${script}" "${docs}"`,
    ]);
    expect(stdout.trim()).toBe('300 true');
  });
});
