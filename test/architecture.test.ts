import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/** STYLE.md: protocol ← client ← chat ← ui ← embed; server imports only protocol; cli imports client, protocol, server. */
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  client: ['protocol'],
  chat: ['protocol', 'client'],
  ui: ['protocol', 'client', 'chat'],
  embed: ['protocol', 'client', 'chat', 'ui'],
  server: ['protocol'],
  cli: ['protocol', 'client', 'server'],
};

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('architecture', () => {
  it('keeps every layer importing only the layers below it', async () => {
    const violations: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      const rel = relative(SRC, file);
      const layer = rel.split('/')[0]!;
      const allowed = ALLOWED[layer];
      if (!allowed) continue;
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/from\s+['"](\.\.?\/[^'"]+)['"]/g)) {
        const target = relative(SRC, join(file, '..', match[1]!)).split('/')[0]!;
        if (target !== layer && !allowed.includes(target))
          violations.push(`${rel} imports ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('lets only serve.ts touch node:http', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(join(SRC, 'server'))) {
      const text = await readFile(file, 'utf8');
      if (/from ['"](node:)?https?['"]|@hono\/node-server/.test(text) && !file.endsWith('serve.ts'))
        offenders.push(relative(SRC, file));
    }
    expect(offenders).toEqual([]);
  });
});

describe('browser code', () => {
  it('never imports Node-only modules or the whole client/protocol index (which pulls zod and node:fs)', async () => {
    const offenders: string[] = [];
    for (const layer of ['chat', 'ui', 'embed']) {
      for (const file of await sourceFiles(join(SRC, layer))) {
        const text = await readFile(file, 'utf8');
        if (/from ['"]node:|from ['"]\.\.\/(client|protocol)\/index\.js['"]/.test(text))
          offenders.push(relative(SRC, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
