/**
 * An abbreviation whose full stop ends no sentence: "derived (e.g. [`Response`]) instance", or a
 * name's initial ("managed by David R. MacIver": Hypothesis's page was described as "… by David R.").
 */
const ABBREVIATION =
  /(?:^|[^\p{L}])(?:[eE]\.[gG]|[iI]\.[eE]|[cC][fF]|[vV][sS]|(?<=\p{Lu}\p{Ll}+ )\p{Lu})\.$/u;

/**
 * Sentences of a paragraph (Markdown or plain text), never split inside an inline code span nor
 * after "e.g.": answers quote them (answer.ts), and `llms.txt` describes a page by its first.
 */
export function sentencesOf(markdown: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  let inCode = false;
  for (let i = 0; i < markdown.length; i++) {
    const char = markdown[i];
    if (char === '`') inCode = !inCode;
    else if (
      !inCode &&
      (char === '.' || char === '!' || char === '?') &&
      /\s/.test(markdown[i + 1] ?? '') &&
      /[A-Z`*[(]/.test(markdown.slice(i + 1).trimStart()[0] ?? '') &&
      !ABBREVIATION.test(markdown.slice(Math.max(start, i - 24), i + 1))
    ) {
      sentences.push(markdown.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  sentences.push(markdown.slice(start).trim());
  return sentences.filter(Boolean);
}

/**
 * Where the last sentence of `text` that ends in it ends (after its full stop), whatever the next
 * word's case: a sentence may end before a name written in lower case ("…and unstructuring data.
 * cattrs works best with…"), which `sentencesOf` passes over; not after a number. -1 when no sentence
 * ends in it.
 */
export function lastSentenceEnd(text: string): number {
  for (let i = text.length - 2; i >= 0; i--)
    if (
      /[.!?]/.test(text[i]!) &&
      /\s/.test(text[i + 1]!) &&
      // A number's full stop is a list's ("1. using PostgreSQL, … and 2. you have").
      !/\d/.test(text[i - 1] ?? '') &&
      !ABBREVIATION.test(text.slice(Math.max(0, i - 24), i + 1))
    )
      return i + 1;
  return -1;
}
