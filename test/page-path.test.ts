import { describe, expect, it } from 'vitest';
import { pagePathOf, parsePagePath } from '../src/server/site/page-path.js';

const BASES = ['/docs', '/react'];

describe('a page file and a reader’s URL of it meet on one page path', () => {
  it('drops index pages, extensions, trailing slashes, queries and the base path', () => {
    expect(pagePathOf('guides/index.md')).toBe('/guides');
    for (const url of [
      '/docs/guides/',
      '/docs/guides/index.html',
      '/react/guides?x=1#y',
      '/docs/guides',
    ])
      expect(parsePagePath(url, BASES), url).toBe('/guides');
    expect(parsePagePath('/docs/', BASES)).toBe(pagePathOf('index.md'));
  });

  it('keeps a page file named Index.md (Fastify’s Guides/Index.md) as its own page both ways', () => {
    const page = pagePathOf('Guides/Index.md');
    expect(page).toBe('/Guides/Index');
    for (const url of ['/docs/Guides/Index', '/docs/Guides/Index.html', '/react/Guides/Index/'])
      expect(parsePagePath(url, BASES), url).toBe(page);
  });
});
