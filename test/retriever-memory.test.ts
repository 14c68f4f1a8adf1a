import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { createSite, type DocPage, type DocSection } from '../src/server/site/docs.js';
import { liveHeap } from './helpers/heap.js';

/**
 * A page whose text is made each time it is read, as a page served from the page cache reads its
 * body from its file: only what the retriever keeps of it stays alive. Its 1 MB of text ends with a
 * camelCase word of its own, 13 letters or longer: V8 makes a piece cut from a string that long a
 * view that keeps the whole string alive, and the retriever keeps the words it has read (their
 * parts, their terms) for the server's life.
 */
function pageMadeOnRead(n: number): DocPage {
  const word = `configurationHandler${n}Longword`;
  const text = () => `${'Plugin route handler. '.repeat(48_000)}Set ${word} once.`;
  const path = `/page-${n}` as DocPage['path'];
  const section: DocSection = {
    id: `${path}#`,
    pagePath: path,
    pageTitle: `Page ${n}`,
    heading: '',
    anchor: '',
    get text() {
      return text();
    },
    code: [],
    // Short blocks: the section is one passage, its whole text.
    blocks: [{ kind: 'paragraph', markdown: 'Plugin', text: 'Plugin' }],
    language: 'en',
  };
  return {
    path,
    title: `Page ${n}`,
    language: 'en',
    file: `page-${n}.md`,
    get markdown() {
      return text();
    },
    sections: [section],
  };
}

describe('the retriever', () => {
  it("keeps none of the docs' text alive once built, through their long words", () => {
    const before = liveHeap();
    const retriever = createRetriever(
      createSite(Array.from({ length: 32 }, (_, n) => pageMadeOnRead(n))),
    );
    const held = liveHeap() - before;
    expect(
      retriever.search('configurationHandler7Longword', { limit: 1 }).hits[0]?.section.pagePath,
    ).toBe('/page-7');
    // The texts read were 32 MB (twice over); the words, terms and index are far less.
    expect(held).toBeLessThan(8 * 2 ** 20);
  });
});
