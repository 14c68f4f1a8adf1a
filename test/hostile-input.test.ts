import { describe, expect, it } from 'vitest';
import { createRetriever, MAX_QUERY_TERMS, MAX_TERM_CHARS } from '../src/server/retrieval.js';
import { askBody, demoApp, post, readStream, sampleDocs, textOf } from './helpers/server.js';

describe('questions of any size within the body limit', () => {
  // Before the cap, "i" x 60,000 took 8-25 s and left RSS at 3.5 GB; the longer ones answered 500.
  const words: [string, string][] = [
    ['"i" x 60,000', 'i'.repeat(60_000)],
    ['"a" x 500,000', 'a'.repeat(500_000)],
    ['a ~1 MiB word', 'x'.repeat(1_000_000)],
    ['a long unicode word', 'é字🙂'.repeat(100_000)],
    ['many distinct terms', Array.from({ length: 30_000 }, (_, i) => `term${i}`).join(' ')],
  ];
  for (const [name, text] of words) {
    it(`answers ${name} with a complete stream and bounded memory`, async () => {
      const app = await demoApp({ limits: { maxBodyBytes: 4 * 1024 * 1024 } });
      const rssBefore = process.memoryUsage().rss;
      const response = await post(app, askBody(text));
      expect(response.status).toBe(200);
      const parts = await readStream(response);
      expect(parts.at(-1)?.type).toBe('finish_message');
      expect(textOf(parts).length).toBeGreaterThan(0);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 * 1024);
    });
  }

  it('searches at most MAX_QUERY_TERMS terms of at most MAX_TERM_CHARS characters', async () => {
    const retriever = createRetriever(await sampleDocs());
    const terms = retriever.terms(`${'q'.repeat(5000)} ${Array.from({ length: 500 }, (_, i) => `install${i}`).join(' ')}`);
    expect(terms).toHaveLength(MAX_QUERY_TERMS);
    expect(Math.max(...terms.map((t) => t.length))).toBe(MAX_TERM_CHARS);
    // A real question still finds its page.
    expect(retriever.search('How do I install it?', { limit: 3 })[0]?.section.pagePath).toMatch(/install/);
  });
});
