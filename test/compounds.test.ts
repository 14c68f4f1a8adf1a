import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compoundsText, TextWords } from '../src/server/answering/terms.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { liveHeap } from './helpers/heap.js';
import { FASTIFY_DOCS_DIR } from './helpers/server.js';

/**
 * The words the docs write both as one and as two ("querystring" and "query string") shape every
 * page's terms. They are found from each text's words read once, as numbers (retrieval.ts
 * `TextWords`): that must give what the plain definition gives, below, word for word, parts and
 * order included (the index cache keeps them, and a warm start compares them).
 */
function plainCompounds(texts: string[]): [string, string[]][] {
  const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}_]+/u);
  const vocabulary = new Set(texts.flatMap(words));
  const compounds = new Map<string, string[]>();
  for (const text of texts) {
    let head = '';
    for (const tail of words(text).filter(Boolean)) {
      if (/^[a-z]{3,}$/.test(head) && /^[a-z]{3,}$/.test(tail) && vocabulary.has(head + tail))
        compounds.set(head + tail, [head, tail]);
      head = tail;
    }
  }
  return [...compounds];
}

const SETS = {
  'project docs': resolve(import.meta.dirname, '..', 'docs'),
  fastify: FASTIFY_DOCS_DIR,
  npm: join(import.meta.dirname, 'fixtures', 'corpus', 'npm'),
};

describe('words the docs write as one and as two', () => {
  it.each(Object.entries(SETS))('are those of the plain definition (%s)', async (_name, dir) => {
    const texts = (await loadDocsSite(dir)).pages.map(compoundsText);
    const expected = plainCompounds(texts);
    expect(expected.length).toBeGreaterThan(5);

    const whole = new TextWords();
    for (const text of texts) whole.add(text);
    expect([...whole.compounds()]).toEqual(expected);
  });

  it('keep the last pair a word was written as, at the place it was first met', () => {
    const words = new TextWords();
    for (const text of [
      'The timeout, the database.',
      'Set a time out; the data base is up.',
      'Then the datab-ase, and TIME OUT again.',
    ])
      words.add(text);
    expect([...words.compounds()]).toEqual([
      ['timeout', ['time', 'out']],
      ['database', ['datab', 'ase']],
    ]);
  });

  it('are found for words of any length', () => {
    // A word of 120 letters and its two halves: its places to cut are hashed letter by letter.
    const head = 'hyper'.repeat(16);
    const tail = 'link'.repeat(10);
    const words = new TextWords();
    for (const text of [`The ${head}${tail} page.`, `A ${head} ${tail}.`]) words.add(text);
    expect([...words.compounds()]).toEqual([[`${head}${tail}`, [head, tail]]]);
  });

  it("keep none of the docs' text alive, long words included", () => {
    // 32 texts of 1 MB, each writing a long word of its own as one and as two: V8 makes a piece
    // cut from a string 13 characters or longer a view that keeps the whole string alive, and the
    // words found are kept for the server's life.
    const before = liveHeap();
    const tail = (n: number) =>
      `handler${String.fromCharCode(97 + (n % 26)).repeat(8)}${n < 26 ? 'x' : 'y'}`;
    // Read, and the reader dropped: only what it found is kept.
    const compounds = (() => {
      const words = new TextWords();
      for (let n = 0; n < 32; n++)
        words.add(
          `${'Plugin route handler. '.repeat(48_000)} The configuration${tail(n)}: a configuration ${tail(n)}.`,
        );
      return words.compounds();
    })();
    expect(compounds.get(`configuration${tail(0)}`)).toEqual(['configuration', tail(0)]);
    expect(compounds.size).toBe(32);
    // The text was 32 MB; the words found are a few kilobytes.
    expect(liveHeap() - before).toBeLessThan(4 * 2 ** 20);
  });
});
