import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { createSite, parsePage } from '../src/server/site/docs.js';

/**
 * A site large enough that its docs words are common: 300 pages of 8 option sections, each of
 * which says "configure" and "widget" (2,400 passages), and a few sections with words of their own.
 */
function largeSite() {
  const pages = Array.from({ length: 300 }, (_, n) => {
    const sections = Array.from(
      { length: 8 },
      (_, s) =>
        `## Option ${n}-${s}\n\nConfigure the widget with option ${n}-${s}: it sets part ${s} of module ${n}.\n`,
    );
    if (n === 120)
      sections.push(
        '## Frobnicate\n\nConfigure frobnication with the frobnicate flag: the widget then frobnicates every frame.\n',
      );
    if (n === 240)
      sections.push('## Zanzibar\n\nThe zanzibar mode keeps the last frame on screen.\n');
    return parsePage(`module-${n}.md`, `# Module ${n}\n\n${sections.join('\n')}`);
  });
  return createSite(pages);
}

describe('search on a large site', () => {
  const retriever = createRetriever(largeSite());

  it('finds the section that holds a rare word with the common ones first', () => {
    const result = retriever.search('How do I configure frobnicate on the widget?', { limit: 5 });
    expect(result.hits[0]?.section.heading).toBe('Frobnicate');
    expect(result.unknown).toEqual([]);
  });

  it('finds the section of a rare word written with a letter missing, beside common words', () => {
    const result = retriever.search('How do I configure zanzbar mode on the widget?', { limit: 5 });
    expect(result.hits[0]?.section.heading).toBe('Zanzibar');
  });

  it('never calls a common word unknown when no section with the rare word holds it', () => {
    const result = retriever.search('How do I configure zanzibar mode?', { limit: 5 });
    expect(result.hits[0]?.section.heading).toBe('Zanzibar');
    expect(result.words).toContain('configure');
    expect(result.unknown).toEqual([]);
  });

  it('still answers a question of common words alone, and names a word the docs never use', () => {
    const common = retriever.search('How do I configure the widget?', { limit: 5 });
    expect(common.hits).toHaveLength(5);
    expect(common.coverage).toBeGreaterThan(0.9);
    const unknown = retriever.search('How do I configure the quuxbar?', { limit: 5 });
    expect(unknown.unknown).toEqual(['quuxbar']);
  });
});
