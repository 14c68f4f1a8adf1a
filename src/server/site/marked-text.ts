import { Tokenizer, type Tokens } from 'marked';

/**
 * marked's tokenizer with its plain-text rule read by a loop instead of its regex: GFM's inline
 * `text` rule is a lazy match that tries ten alternatives at every character (a stop character,
 * `http`, `ftp://`, `www.`, an e-mail address ahead, a hard break, `mailto:`), and was a tenth of
 * a page's parse on a parse thread (docs/scale.md). `textLength` is that regex's match, character
 * for character (test/parse-fast-paths.test.ts compares them on every inline text of the real docs
 * sets and on random text made of the characters the rule looks at). A text with an `&` in it is
 * left to marked itself, so every token is the one marked makes.
 */
export class TextTokenizer extends Tokenizer {
  override inlineText(src: string): Tokens.Text | undefined {
    const length = textLength(src);
    if (length !== undefined) {
      const raw = src.slice(0, length);
      // marked reads numeric character references (`&#38;`) into `text`; without one it is `raw`.
      if (!raw.includes('&'))
        return { type: 'text', raw, text: raw, escaped: this.lexer.state.inRawBlock };
    }
    return super.inlineText(src);
  }
}

/**
 * How much of `src` marked's GFM inline `text` rule matches (`Lexer.rules.inline.gfm.text`), or
 * undefined when it does not:
 *
 *     ^(?:[^a-zA-Z0-9](?=(?:mailto|xmpp):)|(`+|~+|[^`~])(?:(?=[`~])|(?= {2,}\n)|(?=E+@)|[\s\S]*?
 *       (?:(?=[\\<!\[`*~_]|\b_|[hH][tT][tT][pP][sS]?|[fF][tT][pP]:\/\/|(?<![^\s*_~(])www\.|$)
 *       |[^ ](?= {2,}\n)|[^a-zA-Z0-9](?=(?:mailto|xmpp):)|[^E](?=E+@))))
 *
 * where E is an e-mail address's character, `[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]`.
 */
export function textLength(src: string): number | undefined {
  const end = src.length;
  if (end === 0) return undefined;
  const first = src.charCodeAt(0);
  if (!(kindOf(first) & ALPHANUMERIC) && mailtoAt(src, 1)) return 1;
  let at = 1;
  if (first === BACKTICK || first === TILDE) while (src.charCodeAt(at) === first) at++;
  const next = src.charCodeAt(at);
  if (next === BACKTICK || next === TILDE || hardBreakAt(src, at)) return at;
  // Where the next `@` is: an address can only end there, and without one none is ahead.
  let mail = src.indexOf('@', at);
  if (mail !== -1 && addressAt(src, at, mail)) return at;
  for (; at < end; at++) {
    const code = src.charCodeAt(at);
    const kind = kindOf(code);
    if (kind & STOP) return at;
    if (kind & URL_START && urlAt(src, at, code)) return at;
    const after = src.charCodeAt(at + 1);
    if (after === SPACE) {
      if (code !== SPACE && hardBreakAt(src, at + 1)) return at + 1;
    } else if ((after === 109 || after === 120) && !(kind & ALPHANUMERIC) && mailtoAt(src, at + 1))
      return at + 1;
    if (mail !== -1 && !(kind & ADDRESS)) {
      if (mail <= at) mail = src.indexOf('@', at + 1);
      if (mail !== -1 && addressAt(src, at + 1, mail)) return at + 1;
    }
  }
  return end;
}

const BACKTICK = 96;
const TILDE = 126;
const SPACE = 32;

/** What the rule looks for in an ASCII character, as bits. */
const STOP = 1; // `[\\<!\[`*~_]`: text stops before it (`\b_` is one of them: `_`)
const ADDRESS = 2; // `[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]`, an e-mail address's character
const ALPHANUMERIC = 4; // `[a-zA-Z0-9]`
const URL_START = 8; // `h`, `H`, `f`, `F`, `w`: `http`, `ftp://`, `www.` may start there
const KINDS = Uint8Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  return (
    ('\\<![`*~_'.includes(char) ? STOP : 0) |
    (/[a-zA-Z0-9.!#$%&'*+/=?_`{|}~-]/.test(char) ? ADDRESS : 0) |
    (/[a-zA-Z0-9]/.test(char) ? ALPHANUMERIC : 0) |
    ('hHfFw'.includes(char) ? URL_START : 0)
  );
});
const kindOf = (code: number) => (code < 128 ? KINDS[code]! : 0);

/** `(?=E+@)` at `at`, with `mail` the first `@` at or after it. */
function addressAt(src: string, at: number, mail: number): boolean {
  if (mail <= at) return false;
  for (let i = at; i < mail; i++) if (!(kindOf(src.charCodeAt(i)) & ADDRESS)) return false;
  return true;
}

/** `(?= {2,}\n)` at `at`. */
function hardBreakAt(src: string, at: number): boolean {
  if (src.charCodeAt(at) !== SPACE || src.charCodeAt(at + 1) !== SPACE) return false;
  let i = at + 2;
  while (src.charCodeAt(i) === SPACE) i++;
  return src.charCodeAt(i) === 10;
}

/** `(?=(?:mailto|xmpp):)` at `at`. */
const mailtoAt = (src: string, at: number) =>
  src.slice(at, at + 7) === 'mailto:' || src.slice(at, at + 5) === 'xmpp:';

/**
 * `[hH][tT][tT][pP][sS]?` (the `[sS]?` may match nothing), `[fF][tT][pP]:\/\/` or
 * `(?<![^\s*_~(])www\.` at `at`, whose character is `code`.
 */
function urlAt(src: string, at: number, code: number): boolean {
  if (code === 119)
    return src.slice(at, at + 4) === 'www.' && WWW_AFTER.test(src.charAt(at - 1) || ' ');
  if (code === 104 || code === 72) return HTTP.test(src.slice(at, at + 4));
  return FTP.test(src.slice(at, at + 6));
}
const HTTP = /^[hH][tT][tT][pP]$/;
const FTP = /^[fF][tT][pP]:\/\/$/;
/** What may come before `www.` (or nothing: the start of the text). */
const WWW_AFTER = /^[\s*_~(]$/;
