import { parse } from 'sugar-high/core';
import { lang, languages } from 'sugar-high/lang';

/**
 * Syntax highlighting for code in answers, a lazy chunk of its own. sugar-high tokenises 29
 * languages in ~10 KB gzip (highlight.js through lowlight costs ~20 KB for 8), and gives tokens, not
 * HTML: they become React text, so nothing an answer contains is ever parsed as markup.
 */
export type TokenType =
  | 'identifier'
  | 'keyword'
  | 'string'
  | 'class'
  | 'property'
  | 'entity'
  | 'jsxliterals'
  | 'sign'
  | 'comment'
  | 'break'
  | 'space';

/** Lines of tokens for `code` in `language`, or undefined when the language is not one we know. */
export function tokenize(
  code: string,
  language: string,
): { type: TokenType; value: string }[][] | undefined {
  const id = lang(language.toLowerCase());
  if (!id || id === 'plaintext') return undefined;
  return parse(code, languages.find((l) => l.id === id)?.config).lines.map(
    (line) => line.tokens as { type: TokenType; value: string }[],
  );
}
