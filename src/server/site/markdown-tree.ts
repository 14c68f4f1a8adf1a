import { decodeNamedCharacterReference } from 'decode-named-character-reference';
import { Lexer, type Token, type Tokens } from 'marked';
import type {
  BlockContent,
  Code,
  DefinitionContent,
  ListItem,
  Nodes,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
  TableRow,
} from 'mdast';

/**
 * A page's Markdown as the syntax tree `sectionsOf` (docs.ts) reads, from marked's lexer instead of
 * remark: a tenth of the CPU at index time (docs/scale-history.md). The tree holds only what
 * docs.ts reads (node types, heading depths, code values and languages, URLs, image alts,
 * definitions, inline HTML, and the source offsets of top-level blocks, links and images); lines
 * and columns are not computed. What docs.ts makes of it is what it makes of remark-parse with
 * remark-gfm's tree, compared page by page on every real docs set the repository has
 * (test/markdown-sets.test.ts) and on the CommonMark spec's examples (test/markdown-tree.test.ts).
 * A page with a construct the two read differently, or whose offsets cannot be found again in its
 * source, gives undefined and is parsed with remark.
 */
export function markdownTree(source: string): Root | undefined {
  // Footnotes are GFM to remark, and link definitions to marked; marked reads `\r\n` as `\n`, which
  // would move every offset after it; a tab after spaces in a line's indent is read as columns by
  // remark and partly as spaces by marked.
  if (unsupported(source)) return undefined;
  let tokens: Token[];
  try {
    tokens = Lexer.lex(source, LEXER_OPTIONS);
  } catch {
    return undefined;
  }
  try {
    const children: RootContent[] = [];
    let offset = 0;
    for (const token of tokens) {
      // A tenth of this module's time with `startsWith`.
      if (!startsAt(source, token.raw, offset)) return undefined;
      const from = offset;
      offset += token.raw.length;
      const node = blockNode(token, new Cursor(source, from, offset));
      if (!node) continue;
      const [start, end] = blockSpan(source, from, offset, node);
      node.position = span(start, end);
      children.push(node);
    }
    if (offset !== source.length) return undefined;
    return { type: 'root', children };
  } catch (error) {
    if (error instanceof Unread) return undefined;
    throw error;
  }
}

const LEXER_OPTIONS = { gfm: true, breaks: false, pedantic: false } as const;

/** `/\r|\[\^|\0|(^|\n) +\t/.test(source)`, the indent looked for only when there is a tab. */
const unsupported = (source: string) =>
  source.includes('\r') ||
  source.includes('[^') ||
  source.includes('\0') ||
  (source.includes('\t') && /(^|\n) +\t/.test(source));

/** What marked read that this module cannot place or does not read as remark does. */
class Unread extends Error {}

const unread = (what: string): never => {
  throw new Unread(what);
};

/** A point with its offset only: docs.ts reads offsets, never lines and columns. */
const point = (offset: number) => ({ line: 1, column: 1, offset });
const span = (start: number, end: number) => ({ start: point(start), end: point(end) });

/**
 * Where marked's tokens lie in the source: a token's `raw` is found from the end of the last one
 * placed, within its top-level block. Inside a container (a quote's `>`, a list item's indent)
 * marked's raws are its text with those prefixes gone, so a raw over several lines is matched
 * with the prefixes skipped; a link or image that cannot be placed is `Unread`.
 */
class Cursor {
  constructor(
    readonly source: string,
    public at: number,
    readonly end: number,
  ) {}
  /**
   * Where `raw` starts and ends from here on; after each of its line breaks the source may hold a
   * container's prefix (indentation, `>`) that marked took off.
   */
  find(raw: string): [number, number] | undefined {
    const { source } = this;
    // Most raws are one line: found at their first place, without splitting them.
    if (!raw.includes('\n')) {
      const start = source.indexOf(raw, this.at);
      return start < 0 || start + raw.length > this.end ? undefined : [start, start + raw.length];
    }
    const lines = raw.split('\n');
    for (let from = this.at; ;) {
      const start = source.indexOf(lines[0]!, from);
      if (start < 0) return undefined;
      let at = start + lines[0]!.length;
      let matched = true;
      for (const line of lines.slice(1)) {
        if (source[at] !== '\n') {
          matched = false;
          break;
        }
        at++;
        while (!startsAt(source, line, at) && /[ \t>]/.test(source[at] ?? '')) at++;
        if (!startsAt(source, line, at)) {
          matched = false;
          break;
        }
        at += line.length;
      }
      if (at > this.end) return undefined;
      if (matched) return [start, at];
      // A single line that is there is found at its first place; only a broken one searches on.
      if (lines.length === 1) return undefined;
      from = start + 1;
    }
  }
}

/** `source.startsWith(piece, at)`, by a slice's equality: V8's `startsWith` compares character by character. */
const startsAt = (source: string, piece: string, at: number) =>
  source.slice(at, at + piece.length) === piece;

/**
 * Where remark puts a top-level block: from its first character that is not indentation (an
 * indented code block keeps its indent) to the end of its last line that is not blank.
 */
function blockSpan(source: string, from: number, to: number, node: RootContent): [number, number] {
  let start = from;
  while (start < to && (source[start] === '\n' || source[start] === ' ' || source[start] === '\t'))
    start++;
  if (node.type === 'code' && isIndented(node)) {
    // Indented code starts at its line's start.
    start = source.lastIndexOf('\n', start - 1) + 1;
    if (start < from) start = from;
  }
  // The end: its last line with content, trailing spaces kept.
  let end = to;
  // A fence never closed runs to the end of its container, blank lines and all.
  if (node.type === 'code' && unclosed.has(node)) return [start, end];
  for (;;) {
    while (end > start && source[end - 1] === '\n') end--;
    const lineStart = Math.max(start, source.lastIndexOf('\n', end - 1) + 1);
    if (lineStart === start || /\S/.test(source.slice(lineStart, end))) break;
    end = lineStart;
  }
  // marked leaves a list's trailing spaces to the blank line after it.
  while (source[end] === ' ' || source[end] === '\t') end++;
  // remark's indented code takes in the blank lines after it that are indented as code.
  if (node.type === 'code' && isIndented(node))
    for (let line; (line = /^\n(?: {4}|\t)[ \t]*(?=\n|$)/.exec(source.slice(end)));)
      end += line[0].length;
  return [start, end];
}

const indented = new WeakSet<Code>();
const unclosed = new WeakSet<Code>();
const isIndented = (node: Code) => indented.has(node);

function blockNode(token: Token, cursor: Cursor): RootContent | undefined {
  switch (token.type) {
    case 'space':
      return undefined;
    case 'hr':
      return { type: 'thematicBreak' };
    case 'heading': {
      const { depth, tokens } = token as Tokens.Heading;
      return {
        type: 'heading',
        depth: depth as 1 | 2 | 3 | 4 | 5 | 6,
        children: inlineNodes(trimmed(tokens), cursor),
      };
    }
    case 'paragraph':
      return {
        type: 'paragraph',
        children: inlineNodes(trimmed((token as Tokens.Paragraph).tokens), cursor),
      };
    case 'text': {
      const { tokens, text } = token as Tokens.Text;
      return {
        type: 'paragraph',
        children: tokens
          ? inlineNodes(trimmed(tokens), cursor)
          : [{ type: 'text', value: decode(text.replace(/^[ \t]+|[ \t\n]+$/g, '')) }],
      };
    }
    case 'code': {
      const code = token as Tokens.Code;
      const info = code.lang ? decode(code.lang) : '';
      const lang = /^\S+/.exec(info)?.[0];
      const meta = info.slice(lang?.length ?? 0).trim();
      const fence = code.codeBlockStyle === 'indented' ? undefined : fenceLines(code.raw);
      const node: Code = {
        type: 'code',
        lang: lang ?? null,
        meta: meta || null,
        value: fence ? fencedValue(fence) : code.text.replace(/\n+$/, ''),
      };
      if (!fence) indented.add(node);
      else if (!fence.closed) unclosed.add(node);
      return node;
    }
    case 'blockquote':
      return {
        type: 'blockquote',
        children: blockNodes((token as Tokens.Blockquote).tokens, cursor) as (
          BlockContent | DefinitionContent
        )[],
      };
    case 'list': {
      const list = token as Tokens.List;
      return {
        type: 'list',
        ordered: list.ordered,
        spread: list.loose,
        children: list.items.map((item): ListItem => ({
          type: 'listItem',
          spread: item.loose,
          checked: item.task ? (item.checked ?? false) : null,
          children: blockNodes(item.tokens, cursor) as (BlockContent | DefinitionContent)[],
        })),
      };
    }
    case 'table': {
      const table = token as Tokens.Table;
      // remark keeps a row's cells beyond the header's, and marked drops them.
      const lines = table.raw.replace(/\n+$/, '').split('\n');
      if (lines.some((line, at) => at !== 1 && cellCount(line) !== table.header.length))
        return unread('table row');
      const row = (cells: Tokens.TableCell[]): TableRow => ({
        type: 'tableRow',
        children: cells.map((cell): TableCell => ({
          type: 'tableCell',
          children: inlineNodes(cell.tokens, cursor),
        })),
      });
      return {
        type: 'table',
        align: table.align,
        children: [row(table.header), ...table.rows.map(row)],
      };
    }
    case 'html':
      return { type: 'html', value: (token as Tokens.HTML).raw.replace(/\n+$/, '') };
    case 'def': {
      const def = token as Tokens.Def;
      return {
        type: 'definition',
        identifier: identifierOf(def.tag),
        label: def.tag,
        url: decode(def.href),
        title: def.title ? decode(def.title) : null,
      };
    }
    case 'checkbox':
      return undefined;
    default:
      return unread(token.type);
  }
}

/** The lines of a fence's raw, and whether its last one closes it. */
function fenceLines(raw: string): Fence {
  const lines = raw.replace(/\n$/, '').split('\n');
  const [, indent, fence] = /^( {0,3})(`{3,}|~{3,})/.exec(lines[0]!) ?? unread('fence');
  const closed =
    lines.length > 1 &&
    new RegExp(`^ {0,3}${fence![0] === '`' ? '`' : '~'}{${fence!.length},}[ \t]*$`).test(
      lines.at(-1)!,
    );
  return { lines, indent: indent!.length, closed };
}

interface Fence {
  lines: string[];
  indent: number;
  closed: boolean;
}

/** A fence's content as remark reads it: each line less the fence's own indent, up to the closing fence. */
function fencedValue({ lines, indent, closed }: Fence): string {
  const content = lines.slice(1, closed ? -1 : undefined);
  if (indent === 0) return content.join('\n');
  return content
    .map((line) => {
      let spaces = 0;
      while (spaces < indent && line[spaces] === ' ') spaces++;
      return line.slice(spaces);
    })
    .join('\n');
}

/** Cells of a table row as GFM splits it (an escaped `\|` is no boundary). */
function cellCount(line: string): number {
  const row = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(^|[^\\])\|$/, '$1');
  return (row.match(/(^|[^\\])\|/g) ?? []).length + 1;
}

// Loops, not `flatMap`: its arrays and calls were a twentieth of a page's parse on a thread.
function blockNodes(tokens: Token[], cursor: Cursor): RootContent[] {
  const nodes: RootContent[] = [];
  for (const token of tokens) {
    const node = blockNode(token, cursor);
    if (node) nodes.push(node);
  }
  return nodes;
}

/**
 * remark's paragraph and heading text starts and ends with a character that is not a space or a
 * line end (one written as a character reference stays).
 */
function trimmed(tokens: Token[] | undefined): Token[] {
  const list = [...(tokens ?? [])];
  // By the raw text: marked's `text` has some references already read.
  const first = list[0];
  if (first?.type === 'text') {
    const { raw, text } = first as Tokens.Text;
    const space = /^[ \t]*/.exec(raw)![0];
    if (text.startsWith(space)) list[0] = { ...first, text: text.slice(space.length) };
  }
  const last = list.at(-1);
  if (last?.type === 'text') {
    const { raw, text } = last as Tokens.Text;
    let end = raw.length;
    while (end > 0 && (raw[end - 1] === ' ' || raw[end - 1] === '\t' || raw[end - 1] === '\n'))
      end--;
    const space = raw.slice(end);
    if (space && text.endsWith(space))
      list[list.length - 1] = { ...last, text: text.slice(0, -space.length) };
  }
  return list;
}

function inlineNodes(
  tokens: Token[] | undefined,
  cursor: Cursor,
  nodes: PhrasingContent[] = [],
): PhrasingContent[] {
  for (const token of tokens ?? []) {
    // A list item's text holds its inline tokens.
    if (token.type === 'text' && (token as Tokens.Text).tokens?.length)
      inlineNodes((token as Tokens.Text).tokens, cursor, nodes);
    else {
      const node = inlineNode(token, cursor);
      if (node) nodes.push(node);
    }
  }
  return nodes;
}

function inlineNode(token: Token, cursor: Cursor): PhrasingContent | undefined {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      advance(cursor, token.raw);
      return { type: 'text', value: decode(text.text) };
    }
    case 'escape':
      advance(cursor, token.raw);
      return { type: 'text', value: (token as Tokens.Escape).text };
    case 'html':
      advance(cursor, token.raw);
      return { type: 'html', value: token.raw };
    case 'codespan':
      advance(cursor, token.raw);
      return { type: 'inlineCode', value: codeSpanValue(token as Tokens.Codespan) };
    case 'br':
      advance(cursor, token.raw);
      return { type: 'break' };
    case 'strong':
    case 'em':
    case 'del': {
      const found = cursor.find(token.raw);
      if (found) cursor.at = found[0];
      const children = inlineNodes((token as Tokens.Strong).tokens, cursor);
      if (found) cursor.at = found[1];
      return {
        type: token.type === 'strong' ? 'strong' : token.type === 'em' ? 'emphasis' : 'delete',
        children,
      };
    }
    case 'link':
      return linkNode(token as Tokens.Link, cursor);
    case 'image': {
      const image = token as Tokens.Image;
      const [start, end] = cursor.find(image.raw) ?? unread('image');
      cursor.at = end;
      const alt = altOf(image, new Cursor(cursor.source, start, end));
      const labelRaw = image.tokens.map((token) => token.raw).join('');
      if (!image.raw.startsWith(`![${labelRaw}]`)) return unread('image label');
      const ref = referenceOf(image.raw.slice(labelRaw.length + 3), labelRaw);
      return ref
        ? {
            type: 'imageReference',
            identifier: ref,
            label: ref,
            referenceType: 'full',
            alt,
            position: span(start, end),
          }
        : { type: 'image', url: decode(image.href), alt, position: span(start, end) };
    }
    case 'checkbox':
      return undefined;
    default:
      return unread(token.type);
  }
}

/**
 * A code span as remark keeps it: marked turns its line ends into spaces, remark keeps them (and a
 * line's trailing spaces), which the blocks' text then folds into one space.
 */
function codeSpanValue({ raw, text }: Tokens.Codespan): string {
  if (!raw.includes('\n')) return text;
  const ticks = /^`+/.exec(raw)![0].length;
  const content = raw.slice(ticks, -ticks);
  return /^[ \n]/.test(content) && /[ \n]$/.test(content) && /[^ \n]/.test(content)
    ? content.slice(1, -1)
    : content;
}

function advance(cursor: Cursor, raw: string) {
  const found = cursor.find(raw);
  if (found) cursor.at = found[1];
}

/**
 * The identifier of a reference link or image from what follows its `[label]` (`[ref]`, `[]` or
 * nothing), or undefined for an inline one (`(…)`).
 */
function referenceOf(rest: string, label: string): string | undefined {
  if (rest.startsWith('(')) return undefined;
  if (rest === '' || rest === '[]') return identifierOf(label);
  const ref = /^\[([^]*)\]$/.exec(rest) ?? unread('reference');
  return identifierOf(ref[1]!);
}

function linkNode(link: Tokens.Link, cursor: Cursor): PhrasingContent {
  const [start, end] = cursor.find(link.raw) ?? unread('link');
  const url = decode(link.href);
  const bare = !link.raw.startsWith('[');
  // remark links a bare e-mail address only when its domain ends in letters (`a@b.com`, not `npm@5.2.0`).
  if (bare && !link.raw.startsWith('<') && url.startsWith('mailto:') && !/\.[A-Za-z]+$/.test(url))
    return unread('e-mail address');
  // A bare URL's text is the URL itself; `<…>` keeps its text inside the brackets.
  const labelStart = bare ? (link.raw.startsWith('<') ? start + 1 : start) : start + 1;
  cursor.at = labelStart;
  const children = bare
    ? [{ type: 'text' as const, value: decode(link.text) }]
    : inlineNodes(link.tokens, cursor);
  const labelRaw = bare ? link.text : link.tokens.map((token) => token.raw).join('');
  if (!bare && !link.raw.startsWith(`[${labelRaw}]`)) return unread('link label');
  let labelEnd = bare
    ? labelStart + (link.raw.startsWith('<') ? link.raw.length - 2 : labelRaw.length)
    : new Cursor(cursor.source, start, end).find(`[${labelRaw}]`)![1] - 1;
  // A label that ends a line (`Quickstart\n  ](…)`): remark's text ends with that line's end,
  // before the next line's indent.
  const indent = /\n([ \t>]*)$/.exec(cursor.source.slice(labelStart, labelEnd));
  if (indent) labelEnd -= indent[1]!.length;
  cursor.at = end;
  const first = children[0];
  const last = children.at(-1);
  if (first && last) {
    first.position = { start: point(labelStart), end: first.position?.end ?? point(labelEnd) };
    last.position = { start: last.position?.start ?? point(labelStart), end: point(labelEnd) };
  }
  const position = span(start, end);
  if (!bare) {
    const identifier = referenceOf(link.raw.slice(labelRaw.length + 2), labelRaw);
    if (identifier !== undefined)
      return {
        type: 'linkReference',
        identifier,
        label: identifier,
        referenceType: 'full',
        children,
        position,
      };
  }
  return { type: 'link', url, title: null, children, position };
}

/** An image's alt: the text of its label (emphasis and links gone, escapes and references read). */
function altOf(image: Tokens.Image, cursor: Cursor): string {
  return textOf(inlineNodes(image.tokens, cursor));
}

function textOf(nodes: readonly Nodes[]): string {
  return nodes
    .map((node) =>
      node.type === 'image' || node.type === 'imageReference'
        ? (node.alt ?? '')
        : 'value' in node
          ? node.value
          : 'children' in node
            ? textOf(node.children)
            : '',
    )
    .join('');
}

/** A link label as remark names it (`normalizeIdentifier`, lower-cased). */
const identifierOf = (label: string) =>
  label
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase();

/** Character references as remark reads them (marked leaves them for its HTML output). */
function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([A-Za-z][A-Za-z\d]{0,31}));/g,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name) {
        const decoded = decodeNamedCharacterReference(name);
        return decoded === false ? whole : decoded;
      }
      const code = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? '\ufffd'
        : String.fromCodePoint(code);
    },
  );
}
