import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { slug as slugOf } from 'github-slugger';
import type { List, Nodes, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { isRecord } from '../../protocol/_guards.js';
import { splitFrontmatter } from './front-matter.js';
import { markdownTree } from './markdown-tree.js';
import { PAGE_EXTENSIONS, pagePathOf, type PagePath } from './page-path.js';
import { parsePool, type ParsePool } from './parse-pool.js';

export interface CodeSample {
  lang: string;
  value: string;
}

/**
 * One block of a section as the page wrote it: answers quote `markdown` (inline code, whole lists,
 * tables and fences intact); retrieval and sentence picking read `text`.
 */
export interface DocBlock {
  kind: 'paragraph' | 'list' | 'table' | 'code' | 'quote';
  markdown: string;
  text: string;
  /** Language of a code block. */
  lang?: string;
  /** The links and images in `markdown`, so an answer can point them at the reader's site. */
  links?: DocLink[];
}

/** A link or image inside a block's `markdown`, where the block wrote it. */
export interface DocLink {
  /** Where it starts and ends in the block's `markdown`. */
  start: number;
  end: number;
  /**
   * Where a link's text ends: from there to `end` is its destination (`](…)`, `][ref]`, `]`).
   * Absent for an image, which is rewritten whole.
   */
  labelEnd?: number;
  /** The destination as written; a reference link's comes from its definition. */
  url: string;
  /** An image's alt text. */
  alt?: string;
}

/**
 * Where a section is, as answers and passages name it: `title` (its page's, by default) › heading,
 * with the heading above it when the page repeats the heading's words; a page's top is its title.
 */
export function citedAs(section: DocSection, title: string = section.pageTitle): string {
  const { heading, parent } = section;
  if (!heading || heading === section.pageTitle || heading === title) return title;
  return [title, parent, heading].filter(Boolean).join(' › ');
}

/** One heading's worth of a page: the unit that retrieval ranks and answers quote. */
export interface DocSection {
  id: string;
  pagePath: PagePath;
  pageTitle: string;
  heading: string;
  /**
   * The heading this one sits under, when its own words repeat on the page (DRF's Pagination has a
   * "Setup" under each paginator): cited as page › parent › heading (`citedAs`).
   */
  parent?: string;
  /** Slug of the heading, as rehype-slug gives it on the rendered page ('' for the page intro). */
  anchor: string;
  text: string;
  code: CodeSample[];
  blocks: DocBlock[];
  version?: string;
  language: string;
}

export interface DocPage {
  /** Site path without extension: `guides/react.md` → `/guides/react`, `index.md` → `/`. */
  path: PagePath;
  title: string;
  description?: string;
  version?: string;
  language: string;
  /** Markdown body, frontmatter removed. */
  markdown: string;
  sections: DocSection[];
  /** Folder-relative source file, for error messages and public URLs. */
  file: string;
  /** The page's frontmatter (slug, id, permalink… give its public URL: page-urls.ts). */
  frontmatter?: Record<string, unknown>;
}

export interface DocsSite {
  /** The site's name in page titles and headers (`--site-name`); found in the docs when absent (`siteNameOf`). */
  name?: string;
  pages: DocPage[];
  byPath: Map<string, DocPage>;
  /** The folder the site was read from, when it came from one. */
  dir?: string;
  /** Other files of the folder (images, downloads), as site paths like `/images/a.png`. */
  files: string[];
  /**
   * Read from a built HTML site (`--site`): the folder is the whole site, so a link to a path it
   * holds no page or file at leads nowhere (doc-links.ts). A Markdown folder's links may name files
   * its site serves from elsewhere (Docusaurus's `static/`).
   */
  built?: true;
  /**
   * What the pages were read from (`stampOf`), when read through a cache: two sites with the same
   * stamp have the same pages, so an index built for one serves the other.
   */
  stamp?: string;
  /** Each page's file stamp by page path, when read through a cache. */
  pageStamps?: ReadonlyMap<string, string>;
  /**
   * Pages a built site moved (`--site`: its redirect pages), by their old page path: the page path
   * and anchor they lead to. Served as redirects, and links to them resolve to where they lead.
   */
  redirects?: ReadonlyMap<string, string>;
  /**
   * The sidebar group of each page the site's home page files under a heading of its own (`--site`:
   * werkzeug's "Getting Started", "Reference", "Deployment"), by page path. Pages without one are
   * grouped by their folder.
   */
  groups?: ReadonlyMap<string, string>;
}

/**
 * Whether the sidebar and `llms.txt` list a page: not when its front matter says Docusaurus's
 * `unlisted: true` (a built page marked `noindex` says so too, html.ts). It is still served at its
 * URL, for whoever has the link.
 */
export const isListed = (page: DocPage) => page.frontmatter?.unlisted !== true;

/**
 * Whether the assistant searches a page: not when its front matter keeps it out of the site's own
 * search (VitePress's `search: false`, Starlight's `pagefind: false`), nor when it is unlisted. Such
 * a page (a changelog, a history of measurements) is still served and linked; it is never quoted or
 * cited.
 */
export const isSearchable = (page: DocPage) =>
  isListed(page) && page.frontmatter?.search !== false && page.frontmatter?.pagefind !== false;

/**
 * The site as the assistant searches it: its searchable pages (`isSearchable`). When no page is,
 * the mark is the whole site's (Docusaurus's `noIndex` puts `noindex` on every page of a build kept
 * out of search engines), not a choice of pages, and every page is searched.
 */
export function searchedSite(site: DocsSite): DocsSite {
  const pages = site.pages.filter(isSearchable);
  if (pages.length === site.pages.length || pages.length === 0) return site;
  return { ...site, pages, byPath: new Map(pages.map((page) => [page.path, page])) };
}

export const DEFAULT_LANGUAGE = 'en';
/** Files a docs folder may publish besides its pages. */
export const ASSET_EXTENSIONS =
  /\.(png|jpe?g|gif|svg|webp|avif|ico|pdf|txt|json|ya?ml|zip|mp4|webm)$/i;

async function listFiles(dir: string): Promise<{ pages: string[]; assets: string[] }> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries
    .filter(
      (entry) =>
        entry.isFile() &&
        !entry.name.startsWith('.') &&
        !relative(dir, entry.parentPath)
          .split(sep)
          .some((part) => part.startsWith('.')),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  return {
    pages: files.filter(
      (file) => PAGE_EXTENSIONS.test(file) && !file.split(sep).at(-1)!.startsWith('_'),
    ),
    assets: files.filter((file) => ASSET_EXTENSIONS.test(file)),
  };
}

function optionalString(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** Nodes whose text stands apart from the text beside them. */
const BLOCK_NODES = new Set([
  'paragraph',
  'heading',
  'list',
  'listItem',
  'code',
  'blockquote',
  'table',
]);
/**
 * A node's words, a block's apart from the next one's: mdast-util-to-string runs them together, so
 * a list item's paragraphs and nested items were indexed as one word ("Othernested one"; Sphinx's
 * field "Name" over "keywordcase" as "Namekeywordcase").
 */
const textOf = (node: Nodes): string =>
  'children' in node && node.children.some((child) => BLOCK_NODES.has(child.type))
    ? node.children.map((child) => textOf(child)).join('\n')
    : toString(node, { includeImageAlt: false });

/** Soft line breaks inside a paragraph are not sentence ends. */
const flat = (node: Nodes) => {
  const text = textOf(node);
  // Most blocks are one line: the regex costs more than the check.
  return text.includes('\n') ? text.replace(/\s*\n\s*/g, ' ') : text;
};

/** A URL as a Markdown link destination: in angle brackets when it has spaces or brackets. */
export const markdownUrl = (url: string) =>
  /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;

/**
 * Words written into Markdown as words: a `<` that would open an HTML tag is escaped. A heading of
 * json-c's README reads "Linking to <tt>libjson-c</tt> <a name="linking">" (Doxygen printed its
 * tags as text); unescaped in an answer's link or `llms.txt`, a renderer that allows HTML opened a
 * real `<a>`.
 */
export const markdownWords = (text: string) => text.replace(/<(?=[A-Za-z/!?])/g, '\\<');

/** True when every item of a list (nested lists included) is only a link to an anchor of the page. */
function isContents(list: List): boolean {
  return list.children.every((item) =>
    item.children.every((child) =>
      child.type === 'list'
        ? isContents(child)
        : child.type === 'paragraph' &&
          child.children.length === 1 &&
          child.children[0]!.type === 'link' &&
          child.children[0]!.url.startsWith('#'),
    ),
  );
}

/** A copy of a node without its raw HTML descendants. */
function withoutHtml<T extends Nodes>(node: T): T {
  if (!('children' in node)) return node;
  return {
    ...node,
    children: (node.children as Nodes[]).filter((child) => child.type !== 'html').map(withoutHtml),
  };
}

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * remark's syntax tree of a page (remark-parse with remark-gfm): what `markdownTree` is checked
 * against, and what reads a page it gives up on.
 */
export const remarkTree = (markdown: string): Root => parser.parse(markdown);

/** How a page's Markdown becomes the tree its sections are read from. */
export interface PageParseOptions {
  /** Heading ids in document order, when the page was built with its own (html.ts). */
  anchors?: readonly string[];
  /**
   * The tree of the page's Markdown.
   * @default marked's lexer read as remark's tree (`markdownTree`), else `remarkTree`
   */
  tree?: (markdown: string) => Root;
}

/**
 * Calls `visit` on `node` and on every node under it, in document order: unist-util-visit's walk
 * without what it does at each node for its own sake (a named function made per node: a fifth of
 * a page's parse on the threads).
 */
function eachNode(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) eachNode(child, visit);
}

/** A paragraph that is only pictures (a link around one included): no words, so no block. */
const isPicture = (node: RootContent | undefined): boolean =>
  node?.type === 'paragraph' &&
  node.children.some((child) => child.type === 'image' || child.type === 'link') &&
  node.children.every(
    (child) =>
      child.type === 'image' ||
      (child.type === 'text' && !child.value.trim()) ||
      (child.type === 'link' && child.children.every((inner) => inner.type === 'image')),
  );

/**
 * A sentence a picture interrupts is one block with the picture: SymPy's tutorial (Sphinx draws its
 * formulas as pictures of their LaTeX) writes "The syntax to compute", the formula, and "is
 * `limit(f(x), x, x0)`." as three paragraphs. A picture has no words, so it was no block: quotes
 * began "is `limit(…)`.", ended "For example, to compute", or on "The figure below shows this:".
 * A paragraph not ended by ".", "!" or "?" takes the picture after it, and the paragraph after
 * that when it goes on in lower case.
 */
function sentencesAroundPicturesJoined(children: RootContent[]): RootContent[] {
  const out: RootContent[] = [];
  for (let at = 0; at < children.length; at++) {
    const node = children[at]!;
    const picture = children[at + 1];
    if (
      node.type !== 'paragraph' ||
      !isPicture(picture) ||
      /[.!?]["')\]*_`]*$/.test(toString(node).trim())
    ) {
      out.push(node);
      continue;
    }
    const rest = children[at + 2];
    const goesOn = rest?.type === 'paragraph' && /^[a-z]/.test(toString(rest).trim());
    const joined = goesOn ? [node, picture!, rest] : [node, picture!];
    const end = joined.at(-1)!.position?.end;
    out.push({
      type: 'paragraph',
      children: joined.flatMap((part, i) => [
        ...(i ? [{ type: 'text' as const, value: ' ' }] : []),
        ...(part as typeof node).children,
      ]),
      ...(node.position && end ? { position: { start: node.position.start, end } } : {}),
    });
    at += joined.length - 1;
  }
  return out;
}

/**
 * A block's Markdown as the page wrote it, and where its links and images sit in it. Reference-style
 * links (`[pino-pretty][pp]` with `[pp]: https://…` at the page's end) are written inline: a quoted
 * block travels without the page's definitions, and the reader saw the brackets as text.
 */
function blockSource(
  node: RootContent,
  source: string,
  definitions: Map<string, string>,
): { markdown: string; links: DocLink[] } {
  const [from, to] = [node.position?.start.offset, node.position?.end.offset];
  if (from === undefined || to === undefined) return { markdown: toString(node), links: [] };
  // Offsets in `source`; `inline` is what a reference link is written as instead.
  const found: (DocLink & { labelStart?: number; inline?: string })[] = [];
  eachNode(node, (child) => {
    const [start, end] = [child.position?.start.offset, child.position?.end.offset];
    if (start === undefined || end === undefined) return;
    if (child.type === 'image' || child.type === 'imageReference') {
      const url = child.type === 'image' ? child.url : definitions.get(child.identifier);
      if (url !== undefined) found.push({ start, end, url, alt: child.alt ?? '' });
    } else if (child.type === 'link' || child.type === 'linkReference') {
      const url = child.type === 'link' ? child.url : definitions.get(child.identifier);
      if (url === undefined) return;
      const labelStart = child.children[0]?.position?.start.offset ?? start + 1;
      const labelEnd = child.children.at(-1)?.position?.end.offset ?? labelStart;
      const label = source.slice(labelStart, labelEnd);
      found.push({
        start,
        end,
        labelStart,
        labelEnd,
        url,
        ...(child.type === 'linkReference' ? { inline: `[${label}](${markdownUrl(url)})` } : {}),
      });
    }
  });
  const inlined = found.filter((link) => link.inline !== undefined);
  let markdown = source.slice(from, to);
  for (const link of [...inlined].reverse())
    markdown =
      markdown.slice(0, link.start - from) + link.inline! + markdown.slice(link.end - from);
  // Where a source offset lands once the reference links before it are written inline; inside a
  // reference link's text it moves with the text.
  const moved = (offset: number): number => {
    let shift = 0;
    for (const link of inlined) {
      if (link.end <= offset) shift += link.inline!.length - (link.end - link.start);
      else if (link.start < offset) return moved(link.start) + 1 + (offset - link.labelStart!);
    }
    return offset - from + shift;
  };
  const links = found.map(({ start, end, labelEnd, url, alt, inline }): DocLink => {
    const at = moved(start);
    if (alt !== undefined) return { start: at, end: moved(end), url, alt };
    if (inline === undefined)
      return { start: at, end: moved(end), labelEnd: moved(labelEnd!), url };
    return { start: at, end: at + inline.length, labelEnd: at + inline.indexOf('](', 0), url };
  });
  // The block's own indentation: the spaces before it on its first line.
  const lineStart = source.lastIndexOf('\n', from - 1) + 1;
  const indent = /^ *$/.test(source.slice(lineStart, from)) ? from - lineStart : 0;
  return dedented(markdown, links, indent);
}

/**
 * A block that the page indents (a list under a paragraph, written "  - a\n  - b") starts at its
 * marker, but its later lines keep the indentation: quoted alone, "- a\n  - b" made b a sub-item
 * of a. Those lines lose up to `indent` leading spaces, and the links move with their text.
 */
function dedented(
  markdown: string,
  links: DocLink[],
  indent: number,
): { markdown: string; links: DocLink[] } {
  if (indent <= 0 || !markdown.includes('\n')) return { markdown, links };
  // Per line after the first: where it starts in `markdown`, and how many spaces it loses.
  const cuts: { at: number; removed: number }[] = [];
  let at = markdown.indexOf('\n') + 1;
  while (at > 0) {
    let removed = 0;
    while (removed < indent && markdown[at + removed] === ' ') removed++;
    cuts.push({ at, removed });
    at = markdown.indexOf('\n', at) + 1;
  }
  const moved = (offset: number) => {
    let shift = 0;
    for (const cut of cuts) {
      if (cut.at >= offset) break;
      shift += Math.min(cut.removed, offset - cut.at);
    }
    return offset - shift;
  };
  let out = markdown.slice(0, cuts[0]!.at);
  for (const [i, cut] of cuts.entries())
    out += markdown.slice(cut.at + cut.removed, cuts[i + 1]?.at ?? markdown.length);
  return {
    markdown: out,
    links: links.map((link) => ({
      ...link,
      start: moved(link.start),
      end: moved(link.end),
      ...(link.labelEnd !== undefined ? { labelEnd: moved(link.labelEnd) } : {}),
    })),
  };
}

/**
 * `slugOf` of each ASCII character: github-slugger lower-cases, drops punctuation and dashes spaces
 * one character at a time.
 */
const ASCII_SLUGS = Array.from({ length: 128 }, (_, code) => slugOf(String.fromCharCode(code)));

/**
 * github-slugger's `GithubSlugger` (the anchors rehype-slug gives headings): the same slugs, a
 * heading written again numbered (`-1`, `-2`), but an ASCII heading slugged from a table instead of
 * its Unicode regex, and the slugs seen kept in a Map (the two were a twentieth of a page's parse).
 */
export class HeadingSlugger {
  readonly #seen = new Map<string, number>();

  slug(value: string): string {
    let base = '';
    for (let at = 0; at < value.length; at++) {
      const one = ASCII_SLUGS[value.charCodeAt(at)];
      if (one === undefined) {
        base = slugOf(value);
        break;
      }
      base += one;
    }
    let result = base;
    while (this.#seen.has(result)) {
      const count = this.#seen.get(base)! + 1;
      this.#seen.set(base, count);
      result = `${base}-${count}`;
    }
    this.#seen.set(result, 0);
    return result;
  }
}

/**
 * Splits a page at every heading (reference pages put one option or method under each h4/h5, and
 * that is the unit a question is about); code stays code so answers can quote it as fenced blocks.
 */
function sectionsOf(
  tree: Root,
  source: string,
  page: Omit<DocPage, 'sections' | 'markdown' | 'file'>,
  anchors?: readonly string[],
): DocSection[] {
  const slugger = new HeadingSlugger();
  // A built page's headings carry their own ids (`anchors`, in document order), which may not be
  // slugs. A heading's words that the page repeats say which one only with the heading above it.
  const headingIndex = new Map<Nodes, number>();
  const headingCounts = new Map<string, number>();
  eachNode(tree, (node) => {
    if (node.type !== 'heading') return;
    headingIndex.set(node, headingIndex.size);
    const heading = flat(node);
    headingCounts.set(heading, (headingCounts.get(heading) ?? 0) + 1);
  });
  const sections: DocSection[] = [];
  /** The anchors of `sections`, looked up once per heading rather than read through each time. */
  const anchorsTaken = new Set<string>();
  let current: { heading: string; parent?: string; anchor: string; blocks: DocBlock[] } = {
    heading: '',
    anchor: '',
    blocks: [],
  };
  /** The headings above the current one, outermost first. */
  const outline: { depth: number; heading: string }[] = [];
  const flush = () => {
    const { blocks, parent } = current;
    if (blocks.length === 0) return;
    anchorsTaken.add(current.anchor);
    sections.push({
      id: `${page.path}#${current.anchor}`,
      pagePath: page.path,
      pageTitle: page.title,
      heading: current.heading || page.title,
      ...(parent ? { parent } : {}),
      anchor: current.anchor,
      text: blocks
        .filter((block) => block.kind !== 'code')
        .map((block) => block.text)
        .join('\n'),
      code: blocks.flatMap((block) =>
        block.kind === 'code' ? [{ lang: block.lang ?? '', value: block.text }] : [],
      ),
      blocks,
      ...(page.version ? { version: page.version } : {}),
      language: page.language,
    });
  };
  const definitions = new Map<string, string>();
  eachNode(tree, (node) => {
    if (node.type === 'definition' && !definitions.has(node.identifier))
      definitions.set(node.identifier, node.url);
  });
  /** A block of `node`, with where its links are when it has any. */
  const blockOf = (node: RootContent, block: Omit<DocBlock, 'markdown' | 'links'>): DocBlock => {
    const { markdown, links } = blockSource(node, source, definitions);
    return links.length ? { ...block, markdown, links } : { ...block, markdown };
  };
  // The first top-level heading is the page's title (its section is the page's top); a later one
  // (gyp's Testing.md has two) is a section with its own anchor, or two sections would share an id.
  let titleSeen = false;
  const visit = (node: RootContent) => {
    if (node.type === 'heading') {
      const heading = flat(node);
      const slug = slugger.slug(toString(node));
      // A built heading without an id of its own (DRF's hidden `<h1>`) is cited at its slug.
      const own = anchors ? anchors[headingIndex.get(node) ?? -1] || slug : slug;
      flush();
      // Text before the title already is the page's top: the title is then a section of its own.
      const isTitle = node.depth === 1 && !titleSeen && !anchorsTaken.has('');
      if (node.depth === 1) titleSeen = true;
      // Two sections never share an id, whatever ids a built page repeats: the second is numbered
      // as a slug would be (a shared id stopped the whole server: "duplicate ID").
      let anchor = isTitle ? '' : own;
      for (let n = 1; anchorsTaken.has(anchor); n++) anchor = `${own}-${n}`;
      while (outline.length && outline.at(-1)!.depth >= node.depth) outline.pop();
      const above = outline.at(-1)?.heading;
      const parent =
        !isTitle && above && above !== page.title && (headingCounts.get(heading) ?? 0) > 1
          ? above
          : undefined;
      outline.push({ depth: node.depth, heading: isTitle ? page.title : heading });
      current = { heading: isTitle ? page.title : heading, parent, anchor, blocks: [] };
      return;
    }
    // Raw HTML and MDX syntax carry no prose worth quoting.
    if (
      node.type === 'html' ||
      node.type === 'yaml' ||
      node.type === 'thematicBreak' ||
      node.type === 'definition'
    )
      return;
    if (node.type === 'code') {
      current.blocks.push(blockOf(node, { kind: 'code', text: node.value, lang: node.lang ?? '' }));
      return;
    }
    if (node.type === 'table') {
      const text = node.children
        .map((row) => row.children.map((cell) => toString(cell)).join(' | '))
        .join('\n');
      current.blocks.push(blockOf(node, { kind: 'table', text }));
      return;
    }
    // A list of links to the page's own headings is a table of contents: navigation, which the
    // rendered page keeps but answers, the index and a model's passages do without (Fastify's
    // Hooks page opens with a 26-item one, which answers about hooks quoted).
    if (node.type === 'list' && isContents(node)) return;
    if (node.type === 'list') {
      const text = node.children.map((item) => '- ' + flat(item)).join('\n');
      current.blocks.push(blockOf(node, { kind: 'list', text }));
      return;
    }
    // Inline HTML (`<a id="header"></a>` anchors after every heading of Fastify's reference) is
    // markup, not words: indexed, it made "id" match hundreds of sections.
    const text = flat(withoutHtml(node));
    if (!text.trim()) return;
    current.blocks.push(
      blockOf(node, { kind: node.type === 'blockquote' ? 'quote' : 'paragraph', text }),
    );
  };
  sentencesAroundPicturesJoined(tree.children).forEach(visit);
  flush();
  return sections;
}

/** MDX import/export lines are code for the site generator, not prose for readers. */
function stripMdxStatements(body: string): string {
  return body.replace(/^(import|export)\s[^\n]*\n/gm, '');
}

/**
 * `Reference/Validation-and-Serialization.md` → "Validation and Serialization", `getting_started.html`
 * → "Getting started"; an index page takes its folder's name.
 */
function titleFromFile(file: string): string {
  const parts = file
    .replace(PAGE_EXTENSIONS, '')
    .replace(/\.html?$/i, '')
    .split(/[\\/]/);
  const name =
    (/^index$/i.test(parts.at(-1) ?? '') && parts.length > 1 ? parts.at(-2) : parts.at(-1)) ?? file;
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : file;
}

/** Whether a heading or title has a letter or digit: a stray `# )` of a broken build names nothing. */
export const namesSomething = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);

/**
 * An API entry of a built reference (html.ts: Sphinx's `click.testing.CliRunner.invoke`), named by
 * its own anchor. A page's headings say what the page is about; its hundreds of members' names do
 * not (they made Click's API page the best page for any question with "option" or "default").
 */
export const isApiEntry = (section: DocSection): boolean =>
  section.anchor === section.heading && section.anchor.includes('.');

/**
 * Whether an API entry opens on its signature, a line of code alone under its heading (html.ts
 * writes `` `mogrify(operation[, parameters])` `` there): its next block is its summary.
 */
export const opensOnSignature = (section: DocSection): boolean => {
  const first = section.blocks[0];
  return (
    isApiEntry(section) && first?.kind === 'paragraph' && /^`[^`]+`$/.test(first.markdown.trim())
  );
};

/**
 * A member that opens on its prototype, a code block of one line that names it, as Doxygen and
 * Javadoc write them (`JSON_EXPORT json_bool json_object_object_get_ex(…)` under
 * "json_object_object_get_ex()"): its next paragraph is its summary, as an API entry's is.
 */
export function opensOnPrototype({ heading, blocks }: DocSection): boolean {
  const [first] = blocks;
  const name = /^[\w.:#]+/.exec(heading)?.[0];
  return (
    first?.kind === 'code' &&
    !first.text.trim().includes('\n') &&
    name !== undefined &&
    name.length > 1 &&
    new RegExp(`(?:^|[^\\w])${name.replace(/[.]/g, '\\.')}(?:[^\\w]|$)`).test(first.text)
  );
}

/** A list item that is one link and nothing else, sub-items aside. */
const LINK_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\([^)]*\)\s*$/;
/** A Markdown link, `[text](url)`. */
const MARKDOWN_LINK = /\[[^\]]*\]\([^)]*\)/g;
/**
 * A paragraph that only points elsewhere: links, after a label of a word or two at most
 * ("**Tutorial**: [Assertions about expected exceptions](…)", "See [Plugins](…).").
 */
const isPointer = (markdown: string): boolean => {
  if (!markdown.match(MARKDOWN_LINK)) return false;
  const rest = markdown.replace(MARKDOWN_LINK, ' ').match(/[\p{L}\p{N}]+/gu) ?? [];
  return rest.length <= 2;
};
/** The share of a section's text in lists of links alone at which it is navigation. */
const NAVIGATION_SHARE = 0.8;
/**
 * A section of prose this short over lists of at least this many links into the site, alone, is
 * navigation whatever its share: Babel's index puts "The user documentation explains some core
 * concept of the library…" above each table of contents, and "User Documentation" was the best
 * place for a question about prices for French users. Two links under "There are two ways to
 * start:" are an answer's list, not a table of contents.
 */
const CONTENTS_LINKS = 5;
const CONTENTS_INTRO_CHARS = 200;
/** A URL that leads out of the site: a scheme (`https:`, `mailto:`) or `//host`. */
export const EXTERNAL_URL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
/**
 * A heading that is a release and nothing more: "1.0.2 (2012-12-17)", "Version 7.0", "v2.3.0 –
 * 2020-01-05" (a date after a dash or in brackets), not "2.0 features".
 */
const VERSION_ONLY =
  /^(?:(?:version|release)\s+|v)?\d+(?:\.\d+)+(?:\s*(?:\(.*\)|\[.*\]|[-–—]\s*\d.*))?$/i;
/** Whether a section is one release's entry in release notes, by its heading (VERSION_ONLY). */
export const isReleaseEntry = (heading: string): boolean => VERSION_ONLY.test(heading.trim());

/** Words of a release notes page's path or title ("announce/release-2.3.3", "Change history for Celery 2.0"). */
const RELEASE_WORDS =
  /(?:^|[^a-z])(?:announce|releases?|release[-_ ]notes|changelog|change history|changes|history|what'?s[-_ ]?new)(?:[^a-z]|$)/i;
/** A changelog's own name, as its title or file: "Changelog", "Changes", `history`, "Release notes". */
const CHANGELOG_NAME =
  /^(?:change[-_ ]?log|changes|history|news|releases|release[-_ ]notes|what'?s[-_ ]new)$/i;
/**
 * A title that says it is release notes, whatever else it names: Whoosh's "Whoosh 1.x release
 * notes" (no release number to read) answered a question about vector search "sure".
 */
const RELEASE_TITLE = /\b(?:release[-_ ]notes|change[-_ ]?log|change history)\b/i;
/**
 * Release notes: one release's entry wherever it sits (requests keeps its history in "Community
 * Updates", and "Community Updates › 1.0.2 (2012-12-17)" was a related page for a question about
 * proxies), a changelog by its name (pytest's "Changelog", or a page in a `releases/` folder) or
 * its title (RELEASE_TITLE), or a page whose path or title names a version and says so (pytest's
 * 153 release announcements, "py.test 2.0.2: bug fixes…", Celery's "Change history for Celery
 * 2.0"). A reader who asked about something else has no use for one as the next question or the
 * place to look.
 */
export const isReleaseNotes = ({
  pagePath,
  pageTitle,
  heading,
}: Pick<DocSection, 'pagePath' | 'pageTitle' | 'heading'>): boolean =>
  isReleaseEntry(heading) ||
  CHANGELOG_NAME.test(pageTitle.trim()) ||
  RELEASE_TITLE.test(pageTitle) ||
  pagePath.split('/').some((part) => CHANGELOG_NAME.test(part)) ||
  ([pagePath, pageTitle].some((text) => /\d+\.\d+/.test(text)) &&
    [pagePath, pageTitle].some((text) => RELEASE_WORDS.test(text)));

/** A list whose every item is a link alone (sub-items aside): a table of contents. */
export const isLinkList = (block: DocBlock): boolean =>
  block.kind === 'list' &&
  block.markdown.split('\n').every((line) => !line.trim() || LINK_ITEM.test(line));

/**
 * Whether a section is navigation: its text is mostly lists whose every item is a link alone
 * (Sphinx's table of contents on its index page, under one sentence such as "This part of the
 * documentation guides you through…"). It names every page's title, so it matched questions about
 * any of them and answers none. A lead-in over two links ("There are two ways to start:") is not.
 * Paragraphs that only point elsewhere count as such lists: a reference's entry that holds only
 * "**Tutorial**: [Assertions about expected exceptions](…)" (pytest's `pytest.raises`, as Debian
 * built it) matched questions by its title and answered with a link.
 */
export function isNavigation(section: DocSection): boolean {
  let links = 0;
  let all = 0;
  let listed = 0;
  let prose = true;
  for (const block of section.blocks) {
    all += block.text.length;
    const linkList = isLinkList(block);
    if (linkList)
      listed += (block.links ?? []).filter((link) => !EXTERNAL_URL.test(link.url)).length;
    if (linkList || (block.kind === 'paragraph' && isPointer(block.markdown)))
      links += block.text.length;
    else if (block.kind !== 'paragraph') prose = false;
  }
  if (prose && listed >= CONTENTS_LINKS && all - links <= CONTENTS_INTRO_CHARS) return true;
  return all > 0 && links >= NAVIGATION_SHARE * all;
}

export function parsePage(
  file: string,
  source: string,
  defaultLanguage = DEFAULT_LANGUAGE,
  options: PageParseOptions = {},
): DocPage {
  const { data, body: rawBody } = splitFrontmatter(source);
  const markdown = /\.mdx$/i.test(file) ? stripMdxStatements(rawBody) : rawBody;
  const tree = options.tree
    ? options.tree(markdown)
    : (markdownTree(markdown) ?? remarkTree(markdown));
  const firstHeading = tree.children.find((node) => node.type === 'heading' && node.depth === 1);
  const path = pagePathOf(file);
  const heading = firstHeading ? toString(firstHeading) : '';
  const title =
    optionalString(data.title) ?? (namesSomething(heading) ? heading : titleFromFile(file));
  const version = optionalString(data.version);
  const description = optionalString(data.description);
  const meta = {
    path,
    title,
    ...(description ? { description } : {}),
    ...(version ? { version } : {}),
    language: optionalString(data.language) ?? defaultLanguage,
  };
  return {
    ...meta,
    markdown,
    file,
    frontmatter: data,
    sections: sectionsOf(tree, markdown, meta, options.anchors),
  };
}

/** Root-page titles that name a page, not the product ("Introduction · Introduction" helps nobody). */
const PAGE_NOT_PRODUCT =
  /^(index|readme|home|intro|introduction|overview|welcome|docs|documentation|getting started)$/i;
/** Folder names that say where docs live, not whose they are: `acme/docs` is Acme's. */
const FOLDER_NOT_PRODUCT =
  /^(docs?|documentation|content|pages|src|site|website|www|build|dist|out|public|html|_build|package)$/i;

/**
 * The `name` of the nearest package.json in `dir` or the two folders above it: a package's docs
 * (`node_modules/fastify/docs`, npm's unpacked `package/docs`) are that package's.
 */
function packageNameNear(dir: string | undefined): string | undefined {
  for (let at = dir, up = 0; at && up < 3; at = dirname(at), up++) {
    const file = join(at, 'package.json');
    if (!existsSync(file)) {
      if (dirname(at) === at) return undefined;
      continue;
    }
    try {
      const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return isRecord(json) && typeof json.name === 'string' ? json.name : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const namesBySite = new WeakMap<DocsSite, string>();

/**
 * The name a site's pages and header carry: `--site-name` (`site.name`), else what the docs say
 * about themselves — the root page's `siteName` frontmatter, the `<h1>` a README-style index opens
 * with (Fastify's `<h1 align="center">Fastify</h1>`), the root page's title when it names more
 * than a page — else the `name` of the package.json beside or above the folder, else the folder's
 * name.
 */
export function siteNameOf(site: DocsSite): string {
  if (site.name) return site.name;
  let name = namesBySite.get(site);
  if (name === undefined) {
    const root = site.byPath.get('/');
    const declared = root?.frontmatter?.siteName;
    const htmlHeading = root && /^\s*<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(root.markdown)?.[1];
    const candidates = [
      typeof declared === 'string' ? declared : undefined,
      htmlHeading?.replace(/<[^>]*>/g, ''),
      root && !PAGE_NOT_PRODUCT.test(root.title.trim()) ? root.title : undefined,
      packageNameNear(site.dir),
      ...(site.dir ?? '').split(/[\\/]/).reverse(),
    ];
    name =
      candidates
        .map((candidate) => candidate?.replace(/\s+/g, ' ').trim())
        .find((candidate) => candidate && !FOLDER_NOT_PRODUCT.test(candidate)) ?? 'Docs';
    namesBySite.set(site, name);
  }
  return name;
}

/** A page's title as readers see it: a root `index.md` with no title of its own shows the site's name. */
export function pageLabelOf(site: DocsSite, page: Pick<DocPage, 'path' | 'title'>): string {
  return page.path === '/' && /^index$/i.test(page.title) ? siteNameOf(site) : page.title;
}

/** An ATX heading's line, top-level or below. */
const TOP_HEADING = /^[ \t]*#[ \t]+(.*?)[ \t#]*$/m;
const SUBHEADING = /^[ \t]*(#{2,6})[ \t]+(.*?)[ \t#]*$/m;
/** An ATX heading's text without its code and strong marks, as a title shows it. */
const plainHeading = (text: string) => text.replace(/`|\*\*|__/g, '').trim();

/**
 * Pages that open with the same heading and nothing to quote under it take their next heading as
 * their title, when that is a chapter of theirs (`##`) and the shared heading names the site or
 * three pages or more: mercurius's docs open ten pages with "# mercurius", a table of contents at
 * most, then "## Federation", "## Loaders"…, and gevent's four changelogs with "# Changelog" and
 * their newest release; under the shared title, the sidebar, citations and follow-up questions
 * named them alike. A page whose shared title has text under it (an "Overview" with an
 * introduction) keeps it, and so does a page that shares its subject with one other (SymPy's
 * "Tensor" module page and its folder's index) or opens on an API entry or a deeper part: such a
 * next heading ("sympy.tensor.tensor.TensorIndexType", "Introduction") titled the page in the
 * sidebar and `llms.txt`. The home page keeps its title. Only pages sharing a title are read. In
 * place, and the same when done again: a page whose title moved no longer opens with its title.
 */
function titledByNextHeading(pages: DocPage[], siteName: () => string): void {
  const alike = new Map<string, DocPage[]>();
  for (const page of pages) {
    const key = `${page.language}\n${page.version ?? ''}\n${page.title}`;
    const group = alike.get(key);
    if (group) group.push(page);
    else alike.set(key, [page]);
  }
  for (const group of alike.values()) {
    if (group.length < 2) continue;
    const title = group[0]!.title.trim().toLowerCase();
    if (group.length < 3 && title !== siteName().trim().toLowerCase()) continue;
    for (const page of group) {
      // The title's own section (anchor '') is there when something under the title is quoted.
      if (!page.sections.length || page.sections[0]!.anchor === '' || page.path === '/') continue;
      const { markdown } = page;
      const top = TOP_HEADING.exec(markdown);
      if (!top || plainHeading(top[1]!) !== page.title.trim()) continue;
      const [, depth, next] = SUBHEADING.exec(markdown.slice(top.index + top[0].length)) ?? [];
      if (depth !== '##' || !next || !plainHeading(next)) continue;
      page.title = plainHeading(next);
      for (const section of page.sections) section.pageTitle = page.title;
    }
  }
}

export function createSite(pages: DocPage[], files: string[] = [], dir?: string): DocsSite {
  const site = {
    pages,
    byPath: new Map(pages.map((page) => [page.path, page])),
    files,
    ...(dir ? { dir } : {}),
  };
  // The site's name (which may read a package.json) only when two pages share a title.
  titledByNextHeading(pages, () => siteNameOf(site));
  return site;
}

/**
 * Pages already read, by folder-relative file, with the file's identity when read (`serve --watch`
 * reads the folder again on every change and parses only the files whose identity moved).
 */
/**
 * A page file's text. A compressed one (`changelog.html.gz`: Debian compresses a docs package's
 * long pages, and its other pages still link to `changelog.html`) is read unpacked.
 */
export function readPageFile(path: string): string {
  if (!/\.gz$/i.test(path)) return readFileSync(path, 'utf8');
  try {
    return gunzipSync(readFileSync(path)).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    throw new Error(`not a readable .gz file (${(error as Error).message})`, { cause: error });
  }
}

export type PageCache = Map<string, { stamp: string; page: CachedPage }>;

/** A page parsed whole: only a page store takes one packed. */
function whole(page: CachedPage | PackedPage): CachedPage {
  if ('packed' in page) throw new Error(`${page.packed.head.file} was packed for a page store.`);
  return page;
}

/**
 * Reads a page through `cache`: the parsed page when the file's size, inode and modification time
 * are those it was parsed at, else `parse` of its file (kept for the next read). `parse` reads the
 * file itself (a parse thread does, so the server's thread never holds its text) and, for `store`,
 * may send the page `packed` as the store keeps it.
 */
export async function cachedPage(
  path: string,
  rel: string,
  cache: PageCache | undefined,
  parse: (packed: boolean) => Promise<CachedPage | PackedPage>,
  /** Pages kept on disk by an earlier start (page-cache.ts), read before parsing. */
  store?: PageStore,
): Promise<CachedPage> {
  if (!cache) return whole(await parse(false));
  // Synchronous: a `stat` is a few microseconds, and its promise cost more than the call (20,000
  // of them were a tenth of a warm start's CPU).
  const info = statSync(path);
  const stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
  const known = cache.get(rel);
  if (known?.stamp === stamp) return known.page;
  let page = await store?.get(rel, stamp);
  if (!page)
    page = store ? await store.set(rel, stamp, await parse(true)) : whole(await parse(false));
  cache.set(rel, { stamp, page });
  return page;
}

/**
 * What a site's pages were read from, as one string: equal for two reads of the same files at the
 * same stamps, in the same way (`how`: the kind of folder, its default language, the code's
 * version). The built index is kept under it (index-cache.ts).
 */
export function stampOf(site: DocsSite, cache: PageCache, how: string): string {
  const hash = createHash('sha256').update(how);
  for (const page of site.pages)
    hash.update(`\0${page.file}\0${cache.get(page.file)?.stamp ?? ''}`);
  return hash.digest('hex').slice(0, 32);
}

/** Why a file is not served as a page; a redirect page keeps where it leads (html.ts). */
export interface Skipped {
  skipped: string;
  /** A built redirect page's target, as its `<meta http-equiv=refresh>` writes it. */
  redirect?: string;
  /** A generator's own page that is never one of the docs (Doxygen's indexes), not named on start-up. */
  quiet?: true;
}

/** A parsed page, or why its file is not served. */
export type CachedPage = DocPage | Skipped;

/**
 * A section's head as its page's page line keeps it (page-cache.ts): what is the page's
 * (`pagePath`, `pageTitle`, `language`, `version`, the `id` made of the path and anchor) only when
 * it differs. Its blocks are in the page's body; its `text` and `code` repeat them and are made
 * again from them.
 */
export type PackedSection = Pick<DocSection, 'heading' | 'anchor'> &
  Partial<Pick<DocSection, 'parent' | 'id' | 'pagePath' | 'pageTitle' | 'language'>> & {
    version?: string | null;
  };

/** A page's head: what answering reads of it without its Markdown or blocks. */
export type PageHead = Omit<DocPage, 'sections' | 'markdown'> & { sections: PackedSection[] };

/**
 * A page parsed on a parse thread for a page store, sent as the store keeps it instead of whole
 * (page-format.ts `packPage`): its head, and its body as the JSON its page file holds. The server's
 * thread then neither rebuilds the page's objects from the thread's message nor encodes its body.
 */
export interface PackedPage {
  packed: { head: PageHead; body: string };
}

/** The kept pages of one served folder. */
export interface PageStore {
  /** The page kept for `file` when it was parsed from the file at `stamp`. */
  get(file: string, stamp: string): Promise<CachedPage | undefined>;
  /**
   * Keeps the page parsed from `file` at `stamp` (whole, or packed on a parse thread); resolves to
   * the page to serve in its place (page-cache.ts: one whose body is read back from the cache once
   * written there).
   */
  set(file: string, stamp: string, page: CachedPage | PackedPage): Promise<CachedPage>;
  /** Forgets the pages of files not in `files` (deleted since). */
  keepOnly(files: Set<string>): Promise<void>;
  /** Pages read from the cache and parsed since the last call, then starts counting again. */
  counted(): { reused: number; parsed: number; ignored: number };
}

/**
 * Pages read and parsed at once while loading a folder: enough to keep IN_FLIGHT (parse-pool.ts)
 * pages at each of two parse threads, never the whole folder at once.
 */
export const PAGES_AT_ONCE = 64;

/** How a folder is read. */
export interface LoadOptions {
  /**
   * Threads that parse pages (parse-pool.ts), when more than a few pages are parsed; 0 parses
   * them all in this thread.
   * @default one per core (`os.availableParallelism()`)
   */
  threads?: number;
  /** The pool to parse with instead of one of `threads` made and stopped for this read. */
  pool?: ParsePool<CachedPage | PackedPage>;
}

/** Reads every `.md`/`.mdx` page under `dir` (files starting with `_` are partials and skipped). */
export async function loadDocsSite(
  dir: string,
  defaultLanguage = DEFAULT_LANGUAGE,
  cache?: PageCache,
  store?: PageStore,
  options: LoadOptions = {},
): Promise<DocsSite> {
  const { pages: files, assets } = await listFiles(dir);
  if (files.length === 0) throw new Error(`No Markdown pages (.md or .mdx) found in ${dir}`);
  const pages: DocPage[] = new Array(files.length);
  const pool = options.pool ?? parsePool<CachedPage | PackedPage>(options.threads);
  let next = 0;
  let failed = false;
  // Some pages at a time, not all: a 20,000-page folder opened every page together and failed
  // with EMFILE (too many open files) before serving anything. The parse threads read their pages.
  const reader = async () => {
    while (next < files.length && !failed) {
      const at = next++;
      const rel = relative(dir, files[at]!).split(sep).join('/');
      try {
        const path = files[at]!;
        const page = await cachedPage(
          path,
          rel,
          cache,
          (packed) =>
            pool.parse({ kind: 'docs', file: rel, path, language: defaultLanguage, packed }, () =>
              parsePage(rel, readFileSync(path, 'utf8'), defaultLanguage),
            ),
          store,
        );
        if ('skipped' in page) throw new Error(page.skipped);
        pages[at] = page;
      } catch (error) {
        failed = true;
        throw new Error(`Cannot read ${rel}: ${(error as Error).message}`, { cause: error });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, files.length) }, reader));
  } finally {
    if (!options.pool) await pool.close();
  }
  return createSite(
    pages,
    assets.map((file) => '/' + relative(dir, file).split(sep).join('/')),
    dir,
  );
}
