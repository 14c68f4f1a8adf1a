import { parse as parseYaml } from 'yaml';
import { isRecord } from '../../protocol/_guards.js';

/** A page's front matter (`---` YAML `---` at its start) and the Markdown after it. */
export function splitFrontmatter(source: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { data: {}, body: source };
  const yaml = match[1] ?? '';
  const data: unknown = plainFrontmatter(yaml) ?? parseYaml(yaml);
  return {
    data: isRecord(data) ? data : {},
    body: source.slice(match[0].length),
  };
}

/**
 * `key: value` on every line, each value a plain string that starts with a letter or a whole number
 * of up to 15 digits: what YAML 1.2's core schema reads as a map of those strings and numbers.
 * Most pages' front matter (`title:`, `description:`, `sidebar_position:`); the `yaml` package
 * spends a fifth of a millisecond on two such lines, a tenth of a page's parse on a parse thread
 * (docs/scale-history.md). Anything else (quotes, lists, comments, blank lines, a `:` or `#` in a
 * value, `null` or `true`, a key written twice) is undefined and read by `yaml`, errors and all.
 */
export function plainFrontmatter(yaml: string): Record<string, unknown> | undefined {
  if (!yaml) return undefined;
  const data: Record<string, unknown> = {};
  for (const line of yaml.split('\n')) {
    const match = PLAIN_LINE.exec(line);
    if (!match) return undefined;
    const [, key, number, text] = match;
    if (NOT_STRINGS.has(key!) || Object.hasOwn(data, key!)) return undefined;
    if (number !== undefined) data[key!] = Number(number);
    else if (text!.endsWith(' ') || NOT_STRINGS.has(text!)) return undefined;
    else data[key!] = text;
  }
  return data;
}

/**
 * A key that YAML reads as itself, and a value that is a number or a plain scalar it reads as
 * written: no control characters, line or byte-order marks, no `:` (a nested map, or an error)
 * and no `#` (a comment).
 */
const PLAIN_LINE =
  /^([A-Za-z][\w-]*):[ ]+(?:(0|[1-9]\d{0,14})|([A-Za-z][^\0-\x1f\x7f-\x9f:#\u2028\u2029\ufeff\ufffe\uffff]*))$/;

/** Plain words YAML 1.2's core schema reads as null or a boolean. */
const NOT_STRINGS = new Set([
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
]);
