import { isArrayOf, isRecord, isString } from '../../protocol/_guards.js';
import type { CodeSample, DocBlock, DocPage, PackedPage, PackedSection, PageHead } from './docs.js';

/**
 * How a page file of the page cache (page-cache.ts) keeps a page: its head (what answering reads
 * without the page's Markdown) on the page's line, and its body (the Markdown and each section's
 * blocks) as JSON after the lines. Apart from the cache so a parse thread (parse-worker.ts) packs
 * the pages it parses without loading what the cache needs besides (the HTML reader, for repairs).
 */

/** A page's Markdown and each section's blocks: what answers quote and pages serve. */
export interface Body {
  markdown: string;
  sections: { blocks: DocBlock[]; text?: string; code?: CodeSample[] }[];
}

/** A piece of a page's Markdown as `[from, to]` where it is one, else as written. */
type Slice = string | [number, number];

/**
 * A block as its page file holds it: its `markdown` as where it is in the page's Markdown (it is
 * a slice of it unless a reference link was written inline), its `text` absent when it is the
 * block's Markdown. Read back, the slices share the page's string instead of copying it.
 */
type PackedBlock = Omit<DocBlock, 'markdown' | 'text'> & { markdown: Slice; text?: Slice };

/** Where `piece` is in `markdown`, searched from `from`, else `piece` itself. */
function sliceOf(markdown: string, piece: string, from: number): Slice {
  const at = markdown.indexOf(piece, from);
  return at === -1 ? piece : [at, at + piece.length];
}

const read = (markdown: string, slice: Slice) =>
  typeof slice === 'string' ? slice : markdown.slice(slice[0], slice[1]);

/** A page's head: its own fields, and each section's where it differs from the page's. */
export function headOf(page: DocPage): PageHead {
  const { path, title, description, version, language, file, frontmatter } = page;
  return {
    path,
    title,
    ...(description !== undefined ? { description } : {}),
    ...(version !== undefined ? { version } : {}),
    language,
    file,
    ...(frontmatter !== undefined ? { frontmatter } : {}),
    sections: page.sections.map(
      ({ id, pagePath, pageTitle, language, version, heading, parent, anchor }) => ({
        heading,
        ...(parent !== undefined ? { parent } : {}),
        anchor,
        ...(id === `${page.path}#${anchor}` ? {} : { id }),
        ...(pagePath === page.path ? {} : { pagePath }),
        ...(pageTitle === page.title ? {} : { pageTitle }),
        ...(language === page.language ? {} : { language }),
        ...(version === page.version ? {} : { version: version ?? null }),
      }),
    ),
  };
}

/** A body as its page file keeps it: `[markdown, blocks of each section]`. */
export function bodyText(body: Body): string {
  const { markdown } = body;
  let cursor = 0;
  // Fields made one by one, not spread: `{ ...block }` was a fifth of packing a page. The order
  // is the JSON's (kind, lang, links, markdown, text), as the page files have always had it.
  const packBlock = ({ kind, lang, links, markdown: source, text }: DocBlock): PackedBlock => {
    // Filled in below, in that order.
    const packed = { kind } as PackedBlock;
    if (lang !== undefined) packed.lang = lang;
    if (links !== undefined) packed.links = links;
    const where = sliceOf(markdown, source, cursor);
    packed.markdown = where;
    if (typeof where !== 'string') cursor = where[0];
    if (text !== source)
      packed.text =
        typeof where === 'string' ? text : sliceOf(markdown.slice(0, where[1]), text, where[0]);
    return packed;
  };
  return JSON.stringify([markdown, body.sections.map((section) => section.blocks.map(packBlock))]);
}

/** A parsed page's body: its Markdown and each section's blocks. */
export const bodyOf = (page: DocPage): Body => ({
  markdown: page.markdown,
  sections: page.sections.map((section) => ({ blocks: section.blocks })),
});

/** A parsed page as its page file will keep it, made where it was parsed (a parse thread). */
export function packPage(page: DocPage): PackedPage {
  return { packed: { head: headOf(page), body: bodyText(bodyOf(page)) } };
}

/** A body from its page file's JSON, with `sections` sections; undefined when it is not one. */
export function unpackedBody(value: unknown, sections: number): Body | undefined {
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !isString(value[0]) ||
    !isArrayOf(value[1], (blocks): blocks is PackedBlock[] => isArrayOf(blocks, isBlock)) ||
    value[1].length !== sections
  )
    return undefined;
  const markdown = value[0];
  const blockOf = (packed: PackedBlock): DocBlock => {
    const source = read(markdown, packed.markdown);
    const block: DocBlock = {
      kind: packed.kind,
      markdown: source,
      text: packed.text === undefined ? source : read(markdown, packed.text),
    };
    if (packed.lang !== undefined) block.lang = packed.lang;
    if (packed.links !== undefined) block.links = packed.links;
    return block;
  };
  return { markdown, sections: value[1].map((blocks) => ({ blocks: blocks.map(blockOf) })) };
}

const isOptionalString = (value: unknown) => value === undefined || isString(value);
const isSlice = (value: unknown): value is Slice =>
  isString(value) ||
  (Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'number' &&
    typeof value[1] === 'number');

function isBlock(value: unknown): value is PackedBlock {
  return (
    isRecord(value) &&
    ['paragraph', 'list', 'table', 'code', 'quote'].includes(value.kind as string) &&
    isSlice(value.markdown) &&
    (value.text === undefined || isSlice(value.text)) &&
    isOptionalString(value.lang) &&
    (value.links === undefined ||
      isArrayOf(
        value.links,
        (link): link is unknown =>
          isRecord(link) &&
          typeof link.start === 'number' &&
          typeof link.end === 'number' &&
          isString(link.url),
      ))
  );
}

function isPackedSection(value: unknown): value is PackedSection {
  return (
    isRecord(value) &&
    isString(value.heading) &&
    isString(value.anchor) &&
    [value.parent, value.id, value.pagePath, value.pageTitle, value.language].every(
      isOptionalString,
    ) &&
    (value.version === undefined || value.version === null || isString(value.version))
  );
}

/** A page's head as a page line keeps it, checked field by field. */
export function isHead(value: unknown): value is PageHead {
  return (
    isRecord(value) &&
    [value.path, value.title, value.language, value.file].every(isString) &&
    isOptionalString(value.description) &&
    isOptionalString(value.version) &&
    (value.frontmatter === undefined || isRecord(value.frontmatter)) &&
    isArrayOf(value.sections, isPackedSection)
  );
}
