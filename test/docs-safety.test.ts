import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { createSite, parsePage } from '../src/server/site/docs.js';
import { exportSite } from '../src/server/export/site-export.js';
import { demoApp, tempDir } from './helpers/server.js';

const HOSTILE = `---
title: Links
---
# Links

[plain](javascript:alert(1)) [tabbed](java\tscript:alert(2)) [upper](JAVASCRIPT:alert(3))
[vb](vbscript:msgbox(4)) [html](data:text/html,<script>alert(5)</script>) <javascript:alert(6)>

[ref][r]

[r]: javascript:alert(7)

![img](javascript:alert(8)) ![pixel](data:image/png;base64,iVBORw0KGgo=) [fine](https://example.com/x) [page](/)
`;

function hrefsOf(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) =>
    m[1]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
  );
}

const scriptLike = (url: string) =>
  /^\s*(javascript|vbscript|data:text)/i.test(url.replace(/[\u0000-\u0020]/g, ''));

describe('links in docs Markdown', () => {
  const docs = createSite([
    parsePage('index.md', '---\ntitle: Home\n---\n# Home\n'),
    parsePage('links.md', HOSTILE),
  ]);

  it('never carry javascript:, vbscript: or data: documents on served pages; the link text stays', async () => {
    const app = await demoApp({ sites: [{ domain: DEMO.domain, org: DEMO.org, docs }] });
    const html = await (await app.request('http://test/docs/links')).text();
    expect(hrefsOf(html).filter(scriptLike)).toEqual([]);
    expect(html).toContain('>plain</a>');
    expect(hrefsOf(html)).toContain('https://example.com/x');
    expect(hrefsOf(html)).toContain('data:image/png;base64,iVBORw0KGgo=');
  });

  it('never carry them in an exported bundle either', async () => {
    const out = await tempDir();
    await exportSite(docs, { outDir: out });
    const html = await readFile(join(out, 'links.html'), 'utf8');
    expect(hrefsOf(html).filter(scriptLike)).toEqual([]);
    expect(html).toContain('>vb</a>');
  });
});

describe('exports of big sites', () => {
  const site = (pages: number) =>
    createSite(
      Array.from({ length: pages }, (_, i) =>
        parsePage(
          `topic-${i % 4}/page-${i}.md`,
          `---\ntitle: Page ${i} about a topic\n---\n# Page ${i}\n\nSome text about page ${i}.\n`,
        ),
      ),
    );
  const exportedBytes = async (pages: number) => {
    const out = await tempDir();
    await exportSite(site(pages), { outDir: out });
    let total = 0;
    for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.html'))
        total += (await stat(join(entry.parentPath, entry.name))).size;
    }
    return total;
  };

  it('take space linear in the number of pages (the sidebar does not list every page on every page)', async () => {
    const small = await exportedBytes(250);
    const large = await exportedBytes(1000);
    // Quadratic output would be ~16x; linear is ~4x.
    expect(large / small).toBeLessThan(5);
  });
});
