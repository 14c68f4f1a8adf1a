/**
 * A text's words, as the index reads them: its runs of letters, digits and underscores (Unicode
 * letters and digits, by code point). `split(WORD)` gives them with empty strings where separators
 * meet; `WordTable` reads the same words from a text without making a string of each one.
 */
export const WORD = /[^\p{L}\p{N}_]+/u;

/**
 * `text` as a string of its own. V8 makes a piece of a string 13 characters or longer (what `split`
 * and `slice` give) a view into the whole, which it keeps alive: a word kept from a passage as a
 * key kept the passage's text, and a term kept in the index its page's text, for the server's
 * life. Copied, a long word keeps only itself. Shorter pieces are copies already. Copied through
 * JSON, it is one flat string: `(' ' + text).slice(1)` gave a view again, into a copy one
 * character longer, about 32 bytes more per word (at 20,000 pages most of the 606,000 terms are
 * that long).
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** The hash a word is kept under: its UTF-16 code units, from `from` to `to`, base 31. */
export function hashOf(text: string, from = 0, to = text.length): number {
  let hash = 0;
  for (let at = from; at < to; at++) hash = (Math.imul(hash, 31) + text.charCodeAt(at)) | 0;
  return hash;
}

/** Per UTF-16 code unit: 0 not yet known, 1 in a word, 2 a separator, 3 a surrogate (see `inWord`). */
const UNIT = new Uint8Array(0x10000);
const WORD_CHARACTER = /^[\p{L}\p{N}_]$/u;
for (let unit = 0; unit < 0x80; unit++)
  UNIT[unit] = WORD_CHARACTER.test(String.fromCharCode(unit)) ? 1 : 2;
UNIT.fill(3, 0xd800, 0xe000);
/** Code points past the first 65,536 (two code units each): whether each is in a word. */
const astral = new Map<number, boolean>();

/**
 * How many code units of `text` from `at` are one character in a word (1, or 2 for a character
 * written as two surrogates), or minus how many are one separator character. A lone surrogate is a
 * separator, as it is to WORD.
 */
function inWord(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  let kind = UNIT[unit]!;
  if (kind === 0) kind = UNIT[unit] = WORD_CHARACTER.test(String.fromCharCode(unit)) ? 1 : 2;
  if (kind !== 3) return kind === 1 ? 1 : -1;
  const low = text.charCodeAt(at + 1);
  if (unit >= 0xdc00 || !(low >= 0xdc00 && low < 0xe000)) return -1;
  const point = ((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
  let word = astral.get(point);
  if (word === undefined) astral.set(point, (word = WORD_CHARACTER.test(text.slice(at, at + 2))));
  return word ? 2 : -2;
}

/**
 * Words numbered in the order first met: `read` finds a text's words by a hash of their letters
 * made as it passes them, and makes a string only of a word it has not seen (a copy: see
 * `ownString`). At 20,000 pages that is some 20 million words read in each of two scans, for about
 * 600,000 kept: `split` made a string of each, and a map looked each up by hashing it again, in
 * about twice the time. test/words.test.ts holds the two to the same words.
 */
export class WordTable {
  /** Each word once, its place its number. */
  readonly list: string[] = [];
  /** The numbers of the words `read` last read, in order: `numbers[0]` to `numbers[count - 1]`. */
  numbers = new Int32Array(256);
  #hashes = new Int32Array(256);
  /** Open addressing: per slot a word's number, or -1. Never more than half full. */
  #slots = new Int32Array(512).fill(-1);

  /** The number of the word of `text` from `from` to `to` (hashed `hash`), or -1 if it has none. */
  find(text: string, from: number, to: number, hash: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const n = slots[slot]!;
      if (n < 0) return -1;
      if (this.#hashes[n] !== hash) continue;
      const word = this.list[n]!;
      if (word.length !== to - from) continue;
      let at = 0;
      while (at < word.length && word.charCodeAt(at) === text.charCodeAt(from + at)) at++;
      if (at === word.length) return n;
    }
  }

  /** The number of `word`, given one if it has none. */
  number(word: string): number {
    return this.#numberAt(word, 0, word.length, hashOf(word));
  }

  /** Reads the words of `text` into `numbers`, numbering new ones; how many it read. */
  read(text: string): number {
    if (this.numbers.length < text.length) this.numbers = new Int32Array(text.length);
    const numbers = this.numbers;
    let count = 0;
    let start = -1;
    let hash = 0;
    for (let at = 0; at < text.length;) {
      const step = inWord(text, at);
      if (step > 0) {
        if (start < 0) {
          start = at;
          hash = 0;
        }
        hash = (Math.imul(hash, 31) + text.charCodeAt(at)) | 0;
        if (step === 2) hash = (Math.imul(hash, 31) + text.charCodeAt(at + 1)) | 0;
        at += step;
      } else {
        if (start >= 0) numbers[count++] = this.#numberAt(text, start, at, hash);
        start = -1;
        at -= step;
      }
    }
    if (start >= 0) numbers[count++] = this.#numberAt(text, start, text.length, hash);
    return count;
  }

  #numberAt(text: string, from: number, to: number, hash: number): number {
    const found = this.find(text, from, to, hash);
    if (found >= 0) return found;
    const n = this.list.length;
    this.list.push(ownString(from === 0 && to === text.length ? text : text.slice(from, to)));
    if (n === this.#hashes.length) {
      const grown = new Int32Array(2 * n);
      grown.set(this.#hashes);
      this.#hashes = grown;
    }
    this.#hashes[n] = hash;
    if (2 * this.list.length > this.#slots.length) {
      this.#slots = new Int32Array(2 * this.#slots.length).fill(-1);
      for (let m = 0; m < n; m++) this.#place(m);
    }
    this.#place(n);
    return n;
  }

  #place(n: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = this.#hashes[n]! & mask;
    while (slots[slot]! >= 0) slot = (slot + 1) & mask;
    slots[slot] = n;
  }
}
