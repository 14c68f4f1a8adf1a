import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, SAMPLE_DOCS_DIR } from '../src/server/config.js';
import { createApp } from '../src/server/http/app.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { askBody, post, readStream, sourcesOf } from './helpers/server.js';

// docs/ is both the project's documentation and the site `npm start` serves: it must read as a
// site (titles, an index linking every page, links that open) and answer questions about itself.
const site = await loadDocsSite(SAMPLE_DOCS_DIR);
const app = createApp({
  orgs: [{ id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey] }],
  sites: [{ domain: DEMO.domain, org: DEMO.org, docs: site }],
});

/** The `href`s of a served page's own text (the sidebar and header are the template's). */
function articleLinks(html: string): string[] {
  const article = html.slice(html.indexOf('<main'), html.lastIndexOf('</main>'));
  return [...article.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

describe("the project's own docs, served by npm start", () => {
  it('are what serve answers from by default, one titled page per topic', () => {
    expect(SAMPLE_DOCS_DIR).toBe(join(import.meta.dirname, '..', 'docs'));
    expect(site.pages.length).toBeGreaterThan(10);
    for (const page of site.pages) {
      const source = readFileSync(join(SAMPLE_DOCS_DIR, page.file), 'utf8');
      expect(source, page.file).toMatch(/^# \S/m);
    }
  });

  it('link every page from the index, and every link between pages opens a page', async () => {
    const index = await app.request('/docs');
    expect(index.status).toBe(200);
    const indexHtml = await index.text();
    const sidebar = indexHtml.slice(indexHtml.indexOf('<nav'), indexHtml.indexOf('</nav>'));
    expect(sidebar.match(/href="([^"]+)"/)?.[1], 'the index opens the sidebar').toBe('/docs');
    const fromIndex = new Set(articleLinks(indexHtml));
    for (const page of site.pages.filter((p) => p.path !== '/'))
      expect(fromIndex, `index links ${page.path}`).toContain(`/docs${page.path}`);

    const broken: string[] = [];
    for (const page of site.pages) {
      const html = await (await app.request(`/docs${page.path === '/' ? '' : page.path}`)).text();
      for (const href of articleLinks(html).filter((h) => h.startsWith('/'))) {
        const status = (await app.request(href.split('#')[0]!)).status;
        if (status !== 200) broken.push(`${page.file} → ${href} (${status})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('offer starter questions about docs-assistant that the assistant answers from the docs', async () => {
    const starters = site.byPath.get('/')?.frontmatter?.starters as string[];
    expect(starters).toHaveLength(3);
    for (const question of starters) {
      const response = await post(app, askBody(question));
      expect(response.status, question).toBe(200);
      const sources = sourcesOf(await readStream(response));
      expect(sources.length, question).toBeGreaterThan(0);
    }
  });
});
