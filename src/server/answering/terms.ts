// How the words of the docs and of questions become the index's terms: stop words, stemming,
// units, locale codes, an identifier's humps and a compound's parts (read from the docs
// themselves), and the bounds on what a question may bring. retrieval.ts builds and searches the
// index with these; the docs' side (flat-index.ts) reads words with the same pieces.
import { stemmer } from 'stemmer';
import type { DocPage, DocsSite } from '../site/docs.js';
import type { WordTokenize } from './flat-index.js';
import { ownString, WORD, WordTable } from './words.js';

// Question words carry no meaning for retrieval; without this list "how do I …" matches every page.
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can could do does did for from has have how i if in into is it its me my of on or ' +
    'our should so that the their them then there these this those to was we what when where which who why will with would ' +
    'you your use using used want get need tell about also any all some one just like make makes way ways possible many much ' +
    "am been being it's i'm don't doesn't can't isn't not no yes ok okay please thanks same again more other else " +
    'docs documentation'
  ).split(' '),
);

/**
 * Porter's stemmer, applied to the index and to questions alike, so "validate", "validation" and
 * "validating" meet; British "-ise" spellings are read as "-ize" first ("customise" finds
 * "customize"). Prefix search then does the rest.
 */
export function stem(word: string): string {
  if (word.length <= 3 || word.length > MAX_FUZZY_TERM_CHARS || !/^[a-z]+$/.test(word)) return word;
  return stemmer(word.replace(/(?<=.{3})is(e|es|ed|ing|ation|ations)$/, 'iz$1'));
}

/** The terms a version is also read as ("version 5", "Vue 3", "v5": v5, v3, v5). */
export const VERSION_TERM = /^v\d+$/;

/** Units of size, however written: "MiB", "MB" and "megabytes" are one term (mb), as are KB and GB. */
const SIZE_UNIT = /^(?:([kmgt])i?b|(kilo|mega|giga|tera)bytes?)$/;
const UNIT_PREFIX: Record<string, string> = { kilo: 'k', mega: 'm', giga: 'g', tera: 't' };

/**
 * Language names as the docs write locales: "German" meets `de`, "French" `fr`. Both the docs and
 * the questions get the code beside the name, so a question in words finds a page in codes.
 */
const LOCALE_CODES = new Map<string, string>(
  Object.entries({
    arabic: 'ar',
    chinese: 'zh',
    czech: 'cs',
    danish: 'da',
    dutch: 'nl',
    english: 'en',
    finnish: 'fi',
    french: 'fr',
    german: 'de',
    greek: 'el',
    hebrew: 'he',
    hindi: 'hi',
    hungarian: 'hu',
    indonesian: 'id',
    italian: 'it',
    japanese: 'ja',
    korean: 'ko',
    norwegian: 'nb',
    polish: 'pl',
    portuguese: 'pt',
    romanian: 'ro',
    russian: 'ru',
    spanish: 'es',
    swedish: 'sv',
    thai: 'th',
    turkish: 'tr',
    ukrainian: 'uk',
    vietnamese: 'vi',
  }),
);

/**
 * Currency names as the docs write amounts, by ISO 4217 code: "euros" meets `EUR` (Babel's
 * `format_currency(1099.98, 'EUR', locale='fr_FR')`). Only names that are no other English word
 * ("pound", "real", "won" are left out).
 */
const CURRENCY_CODES = new Map<string, string>(
  Object.entries({
    dollar: 'usd',
    dollars: 'usd',
    euro: 'eur',
    euros: 'eur',
    yen: 'jpy',
    yuan: 'cny',
    renminbi: 'cny',
    rupee: 'inr',
    rupees: 'inr',
    rouble: 'rub',
    roubles: 'rub',
    ruble: 'rub',
    rubles: 'rub',
  }),
);

/**
 * Terms already processed: docs repeat their words, and stemming was a tenth of a question's CPU
 * (its sections' terms, read for coverage) and of building the index. Cleared when full: 50,000
 * words are far more than a question reads, and with the two caches of words below, 200,000 each
 * were about 25 MiB more at the peak of a first start of 20,000 pages.
 */
const processed = new Map<string, string | null>();
const PROCESSED_KEPT = 50_000;

export function processTerm(term: string): string | null {
  let found = processed.get(term);
  if (found === undefined) {
    if (processed.size >= PROCESSED_KEPT) processed.clear();
    // Copied when cut from a longer text: kept here, a piece would keep that whole text alive.
    found = processTermOnce(term);
    if (found !== null) found = ownString(found);
    processed.set(ownString(term), found);
  }
  return found;
}

/**
 * An acronym's plural ("IDs", "APIs"): its letters without the "s". Stemming leaves words of three
 * letters alone, so "IDs" never met `span_id`'s "id", and "add trace and span IDs" said the docs
 * never mention "IDs". The case tells it from a word ("gas", "dns").
 */
const ACRONYM_PLURAL = /^(\p{Lu}{2,})s$/u;

/**
 * A Latin letter's accents, once apart from it (NFD): "résumé" meets "resume", as Whoosh's docs
 * write it beside "resumé", and a question typed without them meets a word written with them.
 * Only after a Latin letter: a kana's voicing mark or a Cyrillic letter's breve changes the letter.
 */
const LATIN_ACCENTS = /(?<=[a-z])\p{M}+/gu;

function processTermOnce(term: string): string | null {
  let lower = (ACRONYM_PLURAL.exec(term)?.[1] ?? term).toLowerCase();
  if (/[^\x00-\x7f]/.test(lower)) lower = lower.normalize('NFD').replace(LATIN_ACCENTS, '');
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  const unit = SIZE_UNIT.exec(lower);
  return unit ? `${unit[1] ?? UNIT_PREFIX[unit[2]!]}b` : stem(lower);
}

/**
 * Bounds on what reaches the index, whatever the question's size: MiniSearch's fuzzy matcher
 * allocates a matrix per term (quadratic in its length), so one 60,000-letter word took seconds and
 * gigabytes, and a longer one threw. No real word is longer than this; a cut term still matches
 * as a prefix.
 */
export const MAX_TERM_CHARS = 40;
/** Distinct terms searched per question (the first ones: the question comes before its context). */
export const MAX_QUERY_TERMS = 32;
/** Terms longer than this are matched exactly or as a prefix, not fuzzily (nor stemmed). */
export const MAX_FUZZY_TERM_CHARS = 20;
/**
 * Words past the cut that a long question's reasoning names; the search reads at most
 * LEFT_OUT_READ words past the cut to find them, so a pasted log costs no more than a question.
 */
const LEFT_OUT_NAMED = 3;
const LEFT_OUT_READ = 200;

export interface LeftOut {
  words: string[];
  more: boolean;
}

export interface Tokenize extends WordTokenize {
  (text: string): string[];
  /** Adds the terms of `text` (its tokens, processed) to `into`. */
  termsInto(text: string, into: Set<string>): void;
}

/**
 * The words of a query that are searched: the first MAX_QUERY_TERMS distinct ones that are not stop
 * words, each cut to MAX_TERM_CHARS, read in one linear pass. Returned as written (the index
 * tokenizes and stems them itself) and as all the index terms they become (an identifier's humps
 * and a compound's parts included); with the first words past the cut, which a long question's
 * reasoning names rather than dropping them unsaid.
 */
export function queryWords(
  query: string,
  tokenize: Tokenize,
): { words: string[]; terms: string[]; leftOut: LeftOut; parts: Map<string, string> } {
  const words: string[] = [];
  const terms = new Set<string>();
  const parts = new Map<string, string>();
  const alone = new Set<string>();
  const leftOut: LeftOut = { words: [], more: false };
  const leftOutTerms = new Set<string>();
  let readPastCut = 0;
  // "HTTP/2", "version 5" and "many-to-many" are read whole, so the tokenizer can join them (http2,
  // v5, manytomany); a name and a small number ("Fastify 5", "Vue 3") is also that version (v5,
  // v3). A contraction is read as the word it stands for, not split at its apostrophe: "isn't",
  // "doesn't" and "can't" are negated auxiliaries (stop words all), "user's" and "it's" their
  // first word. Split, their pieces ("isn", "doesn") were searched as words the docs never use,
  // counted against coverage and named in the reasoning: "Why isn't the launcher shown?" was
  // refused beside a section titled "The launcher does not appear".
  const found = query.matchAll(
    /[a-z]+\/\d(?![\p{L}\p{N}])|version\s+\d+(?![\p{L}\p{N}])|\b(?:one|many)[- ]to[- ](?:one|many)(?![\p{L}\p{N}])|(?<name>[\p{L}\p{N}_]+)(?<tail>['’](?:t|s|re|ve|ll|d|m)(?![\p{L}\p{N}]))?(?:\s+(?<number>\d{1,2})(?![\p{L}\p{N}.]))?/giu,
  );
  const read = function* () {
    for (const { 0: whole, groups } of found) {
      if (groups?.tail && /^.t$/i.test(groups.tail) && /n$/i.test(groups.name!)) continue;
      const word = groups?.tail ? groups.name! : whole;
      if (groups?.number && /^\p{Lu}/u.test(word)) yield* [groups.name!, `v${groups.number}`];
      else if (groups?.number) yield* [groups.name!, groups.number];
      else yield word;
    }
  };
  for (const word of read()) {
    const past = terms.size >= MAX_QUERY_TERMS;
    if (past && ++readPastCut > LEFT_OUT_READ) {
      leftOut.more = true;
      break;
    }
    const cut = word.slice(0, MAX_TERM_CHARS);
    const own = tokenize(cut).flatMap((token) => processTerm(token) ?? []);
    if (own.length === 0 || own.every((term) => terms.has(term) || leftOutTerms.has(term)))
      continue;
    // Past the cut a word is not searched, but the reader is told it was left out.
    if (past && leftOut.words.length >= LEFT_OUT_NAMED) {
      leftOut.more = true;
      break;
    }
    if (past) {
      leftOut.words.push(cut);
      for (const term of own) leftOutTerms.add(term);
      continue;
    }
    words.push(cut);
    // One word that is also other terms (JavaScript → java, script; querystring → query, string):
    // those are its parts, unless another word of the question is one of them on its own.
    const whole = own.length > 1 && !WORD.test(cut) ? processTerm(cut) : null;
    for (const term of own)
      if (whole && term !== whole) {
        if (!alone.has(term) && !parts.has(term)) parts.set(term, whole);
      } else {
        alone.add(term);
        parts.delete(term);
      }
    for (const term of own) if (terms.size < MAX_QUERY_TERMS) terms.add(term);
  }
  return { words, terms: [...terms], leftOut, parts };
}

/** A word's letters and its number, when it is both ("sha256" → sha, 256); none otherwise. */
function lettersAndNumber(word: string): string[] {
  const [, letters, number] = /^([A-Za-z]{2,})(\d{2,})$/.exec(word) ?? [];
  return letters ? [letters, number!] : [];
}

/**
 * Words as the index keeps them, for both the docs and the questions: an identifier is also split
 * at its humps, so "status codes" meets `reply.statusCode` and "error handlers" meets
 * `setErrorHandler`; a word the docs also write as two ("querystring" and "query string",
 * "timeout" and "time out") is also those two, learned from the docs themselves; "HTTP/2" is also
 * http2 and "version 5" also v5.
 */
export function createTokenizer(compounds: Map<string, string[]>): Tokenize {
  // A word's parts are the same wherever it is written: found once (three tests and two lowercased
  // copies a word were a tenth of reading sections for coverage), cleared when full.
  const partsKept = new Map<string, string[]>();
  const partsOf = (word: string) => {
    let found = partsKept.get(word);
    if (!found) {
      if (partsKept.size >= PROCESSED_KEPT) partsKept.clear();
      const lower = word.toLowerCase();
      found = [
        ...(/[a-z][A-Z]/.test(word)
          ? word.split(/(?<=[a-z])(?=[A-Z])/)
          : (compounds.get(lower) ?? [])),
        // snake_case and CONSTANT_CASE are their words too, and a word's letters and number
        // apart: arrow's `FORMAT_RFC2822` was "never mentioned" to a question about RFC 2822, and
        // Node.js's `createHash('sha256')` was not found for "a SHA-256 hash".
        ...(/[^_]_+[^_]/.test(word)
          ? word.split(/_+/).flatMap((part) => (part ? [part, ...lettersAndNumber(part)] : []))
          : lettersAndNumber(word)),
        // A language's name is also its locale code (German → de), a currency's its code (euros → eur).
        ...(LOCALE_CODES.has(lower) ? [LOCALE_CODES.get(lower)!] : []),
        ...(CURRENCY_CODES.has(lower) ? [CURRENCY_CODES.get(lower)!] : []),
      ];
      // Copied: a word cut from a text, kept as it is, would keep that whole text alive.
      found = found.map(ownString);
      partsKept.set(ownString(word), found);
    }
    return found;
  };
  const joinedOf = (text: string) => [
    // Looked for only where a slash comes before a digit: tried at every word of every text, the
    // pattern was 2% of a large site's index build.
    ...(/\/\d/.test(text)
      ? [...text.matchAll(/\b([A-Za-z]+)\/(\d)\b/g)].map((m) => `${m[1]}${m[2]}`)
      : []),
    ...[...text.matchAll(/\bversion\s+(\d+)\b/gi)].map((m) => `v${m[1]}`),
    // A relationship's kind is all stop words ("many-to-many", "One To Many"): one term, so
    // factory_boy's "Simple Many-to-many relationship" meets a question about many-to-many.
    ...[...text.matchAll(/\b(one|many)[- ]to[- ](one|many)\b/gi)].map((m) =>
      `${m[1]}to${m[2]}`.toLowerCase(),
    ),
    // A size written with its number ("1MiB") also has its unit apart.
    ...[...text.matchAll(/\b\d+(?:\.\d+)?([KMGT]i?B)\b/gi)].map((m) => m[1]!),
  ];
  // A word's terms (itself and its parts, processed), found once: reading the sections of a
  // question's best pages for coverage made two lookups and three arrays a word.
  const termsKept = new Map<string, string[]>();
  const termsOfWord = (word: string) => {
    let found = termsKept.get(word);
    if (!found) {
      if (termsKept.size >= PROCESSED_KEPT) termsKept.clear();
      found = [word, ...partsOf(word)].flatMap((token) => processTerm(token) ?? []);
      termsKept.set(ownString(word), found);
    }
    return found;
  };
  // The text's words, with empty strings where separators meet.
  const splitWords = (text: string) => text.split(WORD);
  // Made from the pieces the index build reads apart (flat-index.ts `WordTokenize`, its words by
  // words.ts `WordTable`, which reads the words `split(WORD)` gives), so the two cannot differ.
  const tokenize = (text: string) => {
    const words = splitWords(text).filter(Boolean);
    return [...words, ...words.flatMap(partsOf), ...joinedOf(text)];
  };
  return Object.assign(tokenize, {
    parts: partsOf,
    joined: joinedOf,
    termsInto(text: string, into: Set<string>) {
      for (const word of splitWords(text))
        if (word) for (const term of termsOfWord(word)) into.add(term);
      for (const token of joinedOf(text)) {
        const term = processTerm(token);
        if (term) into.add(term);
      }
    },
  });
}

/** Words the docs write both as one and as two: "querystring" → query, string. */
export function compoundsOf(site: DocsSite): Map<string, string[]> {
  const words = new TextWords();
  for (const page of site.pages) words.add(compoundsText(page));
  return words.compounds();
}

/** What of a page its words written as one or two are found in (`compoundsOf`). */
export const compoundsText = (page: DocPage) => `${page.title}\n${page.markdown}`;

/**
 * The words of texts (`compoundsText`), lowercased and read once, each text kept as the numbers of
 * its words (4 bytes a word: at 5,000 generated pages 20 MB, where the words themselves held about
 * 370 MB), from which the words it writes as two in a row are found without splitting it again.
 */
export class TextWords {
  /** Each word once, in the order first read: its number is its place. */
  readonly #words = new WordTable();
  readonly #texts: Int32Array[] = [];

  add(text: string): void {
    const count = this.#words.read(text.toLowerCase());
    this.#texts.push(this.#words.numbers.slice(0, count));
  }

  /**
   * The words of the texts that they also write as two words of three letters or more in a row,
   * each with the last such pair, in the order first met. Each word is tried at each place it could
   * be cut, once, so reading the texts again is comparing numbers.
   */
  compounds(): Map<string, string[]> {
    const words = this.#words;
    const list = words.list;
    // A word's places to cut are looked up by the hashes of its two pieces (words.ts `hashOf`),
    // made letter by letter, instead of cutting it into two new strings looked up in a map of every
    // word (at 20,000 pages, 400,000 words tried at about 5 places each).
    const letters = Uint8Array.from(list, (word) => (/^[a-z]{3,}$/.test(word) ? 1 : 0));
    const find = (word: string, from: number, to: number, hash: number) => {
      const n = words.find(word, from, to, hash);
      return n >= 0 && letters[n] ? n : -1;
    };
    // The pairs that make a word (the numbers of its two words, each pair once: a pair makes one
    // word), and the words that start a pair, marked by number (most words do not, and are passed
    // over without a lookup).
    const firsts: number[] = [];
    const seconds: number[] = [];
    const joined: number[] = [];
    const heads = new Uint8Array(list.length);
    let tailHashes = new Int32Array(64);
    for (const [n, word] of list.entries()) {
      if (word.length < 6 || !letters[n]) continue;
      // Each tail's hash, from the last letter back: a letter's weight is 31 to the power of the
      // letters after it.
      if (tailHashes.length < word.length) tailHashes = new Int32Array(2 * word.length);
      let tail = 0;
      let power = 1;
      for (let at = word.length - 1; at >= 3; at--) {
        tail = (tail + Math.imul(word.charCodeAt(at), power)) | 0;
        power = Math.imul(power, 31);
        tailHashes[at] = tail;
      }
      let head = 0;
      for (let at = 0; at <= word.length - 3; at++) {
        if (at >= 3) {
          const first = find(word, 0, at, head);
          const second = first < 0 ? -1 : find(word, at, word.length, tailHashes[at]!);
          if (second >= 0) {
            firsts.push(first);
            seconds.push(second);
            joined.push(n);
            heads[first] = 1;
          }
        }
        head = (Math.imul(head, 31) + word.charCodeAt(at)) | 0;
      }
    }
    // The pairs by a hash of their two numbers (a map keyed by one number made of both, too large
    // for a small integer, made a heap number each lookup: most of the time at 20,000 pages).
    let pairSize = 16;
    while (pairSize < 2 * firsts.length) pairSize *= 2;
    const pairSlots = new Int32Array(pairSize).fill(-1);
    const slotOf = (first: number, second: number) =>
      (Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b)) & (pairSize - 1);
    for (const [n, first] of firsts.entries()) {
      let slot = slotOf(first, seconds[n]!);
      while (pairSlots[slot]! >= 0) slot = (slot + 1) & (pairSize - 1);
      pairSlots[slot] = n;
    }
    // Per word made of a pair, the last pair it was read as, and the words in the order first read.
    const lastPair = new Int32Array(list.length).fill(-1);
    const order: number[] = [];
    for (const numbers of this.#texts)
      for (let at = 1; at < numbers.length; at++) {
        const first = numbers[at - 1]!;
        if (!heads[first]) continue;
        const second = numbers[at]!;
        for (let slot = slotOf(first, second); pairSlots[slot]! >= 0;) {
          const n = pairSlots[slot]!;
          if (firsts[n] === first && seconds[n] === second) {
            if (lastPair[joined[n]!]! < 0) order.push(joined[n]!);
            lastPair[joined[n]!] = n;
            break;
          }
          slot = (slot + 1) & (pairSize - 1);
        }
      }
    const compounds = new Map<string, string[]>();
    for (const word of order) {
      const n = lastPair[word]!;
      compounds.set(list[word]!, [list[firsts[n]!]!, list[seconds[n]!]!]);
    }
    return compounds;
  }
}
