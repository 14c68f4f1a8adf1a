import { describe, expect, it } from 'vitest';
import { hashOf, WORD, WordTable } from '../src/server/answering/words.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { FASTIFY_DOCS_DIR } from './helpers/server.js';

/**
 * The index build reads a text's words with a table of the words it has met (words.ts
 * `WordTable`), and the questions and coverage with `split(WORD)`: the two must be the same words,
 * or a page's terms would not be its questions' terms.
 */
function readBy(table: WordTable, text: string): string[] {
  const count = table.read(text);
  return Array.from(table.numbers.subarray(0, count), (n) => table.list[n]!);
}
const splitBy = (text: string) => text.split(WORD).filter(Boolean);

describe("a text's words read by a table of the words met", () => {
  it('are the words split(WORD) gives, in any script, whatever separates them', () => {
    const table = new WordTable();
    for (const text of [
      '',
      '   ',
      'word',
      ' leading and trailing ',
      'reply.statusCode = 404; // snake_case, CONSTANT_CASE, __proto__',
      'HTTP/2 and version 5, 1.5MiB, v1.2.3-beta',
      'Größe straße ÆØÅ naïve café déjà-vu',
      'Привет мир, 你好世界，こんにちは、안녕하세요',
      'عربى עברית हिन्दी ไทย',
      // Combining marks are not letters: they separate, as WORD has them.
      'e\u0301cole ñ n\u0303',
      // Digits of other scripts and fractions are numbers; symbols and emoji separate.
      '٣٤٥ ४२ ½ ² ⅷ 🙂 🚀rocket ©®™ ∑x',
      // Letters past the first 65,536 code points are two UTF-16 units: one letter.
      '𝒳 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐐷 𠀋 mixed𝒳word',
      // A surrogate alone is not a character in a word.
      'lone\uD800surrogate \uDC00tail end\uD83D',
      'tab\tnew\nline\r\nnul\u0000zero\u200bwidth\u00a0nbsp',
    ]) {
      expect(readBy(table, text), JSON.stringify(text)).toEqual(splitBy(text));
    }
  });

  it('are the words split(WORD) gives on random text of every kind of character', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const pieces = [
      'a',
      'Z',
      '_',
      '9',
      ' ',
      '.',
      'é',
      '\u0301',
      '你',
      '٣',
      '𝒳',
      '🙂',
      '\uD800',
      '\uDC00',
      '-',
    ];
    const table = new WordTable();
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: next() % 40 }, () => pieces[next() % pieces.length]).join(
        '',
      );
      expect(readBy(table, text), JSON.stringify(text)).toEqual(splitBy(text));
    }
  });

  it('number each word once, in the order first met, on real docs', async () => {
    const texts = (await loadDocsSite(FASTIFY_DOCS_DIR)).pages.map((page) => page.markdown);
    const table = new WordTable();
    const numbers = new Map<string, number>();
    for (const text of texts) {
      const words = splitBy(text);
      for (const word of words) if (!numbers.has(word)) numbers.set(word, numbers.size);
      expect(readBy(table, text)).toEqual(words);
    }
    expect(table.list).toEqual([...numbers.keys()]);
    expect(table.list.length).toBeGreaterThan(5000);
    // A word given whole gets its number; one never read has none.
    expect(table.number('decorateRequest')).toBe(numbers.get('decorateRequest'));
    expect(table.find('a never-read word', 0, 17, hashOf('a never-read word'))).toBe(-1);
    expect(table.number('never-read')).toBe(numbers.size);
  });

  it('find a word inside a longer text by the hash of its letters', () => {
    const table = new WordTable();
    table.read('query string querystring');
    const text = 'querystring';
    expect(table.list[table.find(text, 0, 5, hashOf(text, 0, 5))]).toBe('query');
    expect(table.list[table.find(text, 5, 11, hashOf(text, 5, 11))]).toBe('string');
    expect(table.find(text, 0, 4, hashOf(text, 0, 4))).toBe(-1);
  });
});
