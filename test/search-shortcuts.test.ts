import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createRetriever,
  type Retriever,
  type SearchOptions,
  type SearchResult,
} from '../src/server/answering/retrieval.js';
import { createSite, loadDocsSite, parsePage, type DocsSite } from '../src/server/site/docs.js';
import type { PagePath } from '../src/server/site/page-path.js';

/**
 * The search takes shortcuts that must not change what it finds: it sorts only the sections of
 * the pages it reads (the hits' and coverage's), searches a common word's postings for its
 * candidates instead of reading them through, and looks a short section's terms up in the index
 * instead of reading its text for coverage. Here every result (hits, scores, matched words and
 * their order, coverage, unknown words) is compared with the same search reading everything, on
 * real docs and on a site large enough for common words.
 */

/** 300 pages of option sections that all say "configure" and "widget" (2,400 passages), and a few more. */
function largeSite(): DocsSite {
  const pages = Array.from({ length: 300 }, (_, n) => {
    const sections = Array.from(
      { length: 8 },
      (_, s) =>
        `## Option ${n}-${s}\n\nConfigure the widget with option ${n}-${s}: it sets part ${s} of module ${(n * 7 + s) % 41}.\n` +
        (s % 3 === 0 ? `\nThe ${['frame', 'screen', 'cache'][n % 3]} of the widget.\n` : ''),
    );
    if (n % 60 === 0)
      sections.push(
        `## Frobnicate ${n}\n\nConfigure frobnication with the frobnicate flag: the widget then frobnicates every frame.\n`,
      );
    if (n === 240)
      sections.push('## Zanzibar\n\nThe zanzibar mode keeps the last frame on screen.\n');
    // Far down a question about the widget: a section showing both spellings of a word, which a
    // question that writes both puts first only if the search reads it.
    if (n === 280)
      sections.push(
        `## Constants\n\n${'Parts of the module are listed in its part table. '.repeat(20)}The WIDGET constant is not the widget.\n`,
      );
    // A heading that ends with "version" above text that starts with its number: "version 5"
    // read across them is a term (v5) of the section's text as coverage reads it, not of the
    // index's fields, which are read apart.
    if (n === 17) sections.push('## Upgrading to version\n\n5 brings a new frame cache.\n');
    // A long section (a catalogue), read item by item for coverage.
    if (n === 33)
      sections.push(
        `## Catalogue\n\n${Array.from({ length: 120 }, (_, i) => `- Widget part ${i}: configure its frame with module ${i % 41}.`).join('\n')}\n`,
      );
    return parsePage(`module-${n}.md`, `# Module ${n}\n\n${sections.join('\n')}`);
  });
  return createSite(pages);
}

/** Questions about a site: fixed ones, and ones made from its own titles and headings. */
function questionsOf(site: DocsSite): string[] {
  const fixed = [
    'How do I configure the widget?',
    'How do I configure frobnicate on the widget?',
    'How do I configure zanzbar mode on the widget frame?',
    'What is new in version 5 of the frame cache?',
    'Which Node.js version does Widget 3 need?',
    'configure configure widget widget cache',
    'How do I set up the server and its options and hooks and plugins?',
    'How do I install a package?',
    'How do I configure the WIDGET of the widget?',
    'quuxbarnotaword',
  ];
  const sections = site.pages.flatMap((page) => page.sections);
  const step = Math.max(1, Math.floor(sections.length / 20));
  const own = sections
    .filter((_, n) => n % step === 0)
    .flatMap((section) => [
      `How do I ${section.heading}?`,
      `${section.pageTitle} ${section.heading} ${section.text.split(/\s+/).slice(0, 6).join(' ')}`,
    ]);
  return [...fixed, ...own];
}

/** What a reader is told of a search: every field, hits by section id. */
const told = (result: SearchResult) => ({
  ...result,
  hits: result.hits.map((hit) => ({
    id: hit.section.id,
    score: hit.score,
    terms: hit.terms,
    title: hit.title,
  })),
});

function expectSameSearches(site: DocsSite) {
  const fast = createRetriever(site);
  const exhaustive = createRetriever(site, { exhaustive: true });
  const questions = questionsOf(site);
  const paths = site.pages.map((page) => page.path);
  const searches: [string, SearchOptions][] = questions.flatMap((question, n) => [
    [question, { limit: 5 }],
    [question, { limit: [1, 8, 50][n % 3]!, currentPath: paths[(n * 13) % paths.length] }],
    ['and what about its options?', { limit: 5, earlier: question }],
  ]);
  let hits = 0;
  for (const [question, options] of searches) {
    const search = (retriever: Retriever) => told(retriever.search(question, options));
    const expected = search(exhaustive);
    expect(search(fast), `${question} ${JSON.stringify(options)}`).toEqual(expected);
    hits += expected.hits.length;
  }
  // The comparison is of searches that found something.
  expect(hits).toBeGreaterThan(searches.length);
}

describe('the search’s shortcuts', () => {
  it('find what reading everything finds on a site whose docs words are common', () => {
    expectSameSearches(largeSite());
  });

  it('find what reading everything finds on this project’s docs', async () => {
    expectSameSearches(await loadDocsSite(resolve(import.meta.dirname, '..', 'docs')));
  });

  it('find what reading everything finds on Fastify’s and npm’s docs', async () => {
    for (const corpus of ['fastify', 'npm'])
      expectSameSearches(
        await loadDocsSite(resolve(import.meta.dirname, 'fixtures/corpus', corpus)),
      );
  });

  it('find what reading everything finds on a site with languages and versions', async () => {
    expectSameSearches(await loadDocsSite(resolve(import.meta.dirname, 'fixtures/sample-docs')));
  });

  it('count a version written across a heading and its text as coverage always has', () => {
    const site = largeSite();
    const retriever = createRetriever(site);
    const result = retriever.search('What is new in version 5 of the frame cache?', {
      limit: 5,
      currentPath: '/module-17' as PagePath,
    });
    expect(result.hits[0]?.section.heading).toBe('Upgrading to version');
    expect(result.coverage).toBe(1);
  });
});
