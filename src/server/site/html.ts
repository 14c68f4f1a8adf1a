import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Element, ElementContent, Root as HastRoot, Text } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { matches, select, selectAll } from 'hast-util-select';
import { toMdast } from 'hast-util-to-mdast';
import { toString as hastText } from 'hast-util-to-string';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { stringify as toYaml } from 'yaml';
import {
  ASSET_EXTENSIONS,
  cachedPage,
  createSite,
  DEFAULT_LANGUAGE,
  isLinkList,
  isNavigation,
  namesSomething,
  PAGES_AT_ONCE,
  parsePage,
  readPageFile,
} from './docs.js';
import type {
  CachedPage,
  DocPage,
  DocsSite,
  LoadOptions,
  PackedPage,
  PageCache,
  PageParseOptions,
  PageStore,
  Skipped,
} from './docs.js';
import { docLinkTarget } from './doc-links.js';
import { parsePagePath } from './page-path.js';
import { parsePool } from './parse-pool.js';

/** A built page that was not served, and why, so the owner can fix or ignore it. */
export interface SkippedPage {
  file: string;
  reason: string;
}

/**
 * Where a page's own content lives, most specific first. Generators agree on HTML's landmarks:
 * VitePress and Starlight put the page in `<main>`, Docusaurus and MkDocs Material in `<article>`,
 * Sphinx themes in `[role=main]` (or only their `.body`); TypeDoc writes no landmark, only its
 * `.col-content` column, and older MkDocs themes (Django REST framework's) only a `#main-content`
 * one.
 * The first that holds a heading, paragraph, list, table or code wins.
 */
const MAIN_CANDIDATES = [
  'main article',
  'article',
  '[role=main]',
  // A Sphinx theme that marks no landmark (gevent's: its site name an <h1> above the page's own).
  '.bodywrapper > .body',
  // openstackdocstheme (every OpenStack project's docs): no landmark, the page in `.docs-body`, and
  // around it the theme's prev/next arrows, "updated:" stamp, licence and the whole site menu.
  '.docs-body',
  // Node.js's API docs (its own generator): the page in `#apicontent`, under a header whose <h1> is
  // the site's name and the menus of every page, every version and the page's contents.
  '#apicontent',
  'main',
  '.col-content',
  '#main-content',
  'body',
];

/**
 * What is chrome, not content, once the main part is found. Each rule is a landmark or a control:
 * navigation, sidebars, footers (Docusaurus's "Edit this page", prev/next), the generators' search
 * boxes and copy/wrap buttons (all controls are dropped: a button's label is never prose), text
 * meant only for screen readers, and what never renders.
 */
const CHROME = [
  'nav',
  // Starlight's asides are the page's own notes (`:::note`), not a sidebar.
  'aside:not(.starlight-aside)',
  'footer',
  '[role=navigation]',
  '[role=search]',
  '[role=complementary]',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  // DocBook XSL's bars of Prev, Up, Home and Next links above and below each chunk (PostgreSQL's).
  'div.navheader',
  'div.navfooter',
  '.sr-only',
  '.visually-hidden',
  '.skip-link',
  '[hidden]',
  // What the page hides itself: xarray's notebooks print each dataset twice, as text and as an
  // HTML view kept `display:none` until a script shows it (it read as 80 nested bullets).
  '[style*="display:none"], [style*="display: none"]',
  // Sphinx's classic and Alabaster themes write their footer as a `div`: "©2014-2023, xarray
  // Developers. | Powered by Sphinx 5.3.0 & Alabaster 0.7.12 | Page source".
  'div.footer',
  // Line numbers Pygments writes into code (Sphinx's `:linenos:`): copied, the code would not run.
  '.linenos',
  // nbsphinx's execution counts beside a notebook's cells ("[1]:"), each a code block of its own.
  '.prompt.highlight-none, .prompt.empty',
  // docutils' `contents` directive, a list of the page's own sections, as `nav.contents` is now;
  // DocBook's and Jupyter's `div.toc` (xarray's notebooks, Valgrind's manual) are the same list.
  '.contents.topic',
  'div.toc',
  // sphinx-book-theme (Dask's) keeps its top bar (source download, full-screen buttons), the page's
  // own contents list and the previous/next links inside `<main>`: every page opened on two empty
  // links and "Contents", and ended on six "previous"/"next" lines, quoted for entries with no text.
  '.topbar, .bd-toc, .prev-next-area',
  // Texinfo's "Next: …, Previous: …, Up: … [Contents][Index]" bar above each node and below the
  // page (`div.header` in Texinfo 6, `div.nav-panel` in 7): before each heading, it ran on from the
  // section above, and it was the `llms.txt` line of every page of Diffutils' manual.
  'div.header:has(a[rel=next], a[rel=prev], a[rel=up]), div.nav-panel',
  // Breadcrumbs are navigation, written as a list (TypeDoc, Sphinx and MkDocs themes).
  '.tsd-breadcrumb, .breadcrumb, .breadcrumbs, .wy-breadcrumbs',
  // VitePress's language label beside its <pre>: the language is kept on the code itself.
  'span.lang',
  // Docusaurus's notice over an unlisted or draft page ("Search engines will not index it"): the
  // generator's words about the page, not the page's.
  '.theme-unlisted-banner, .theme-draft-banner',
  // Version notices over every page ("This document describes the current stable version of
  // Celery (5.2). For development docs, go here."): sphinx_celery's deck, Read the Docs' warning.
  '.deck, .version-warning, #version-warning-banner',
].join(', ');

/** The names of a field list that stamps the build (Sphinx's `:Release: |version|`, `:Date: |today|`). */
const STAMP_FIELD = /^(?:release|version|date|last updated|updated)\s*:?$/i;

/**
 * A Sphinx field list whose every field is a build stamp (Celery's index pages open with "Release:
 * 5.2, Date: Jan 22, 2023"): the build's words about itself, as a version notice is. Left in, it made
 * a table of contents under it a fifth prose, so the contents were quoted as an answer.
 */
const isBuildStamp = (node: Element): boolean =>
  node.tagName === 'dl' &&
  classesOf(node).includes('field-list') &&
  node.children.some((child) => isElement(child) && child.tagName === 'dt') &&
  node.children.every(
    (child) =>
      !isElement(child) || child.tagName !== 'dt' || STAMP_FIELD.test(hastText(child).trim()),
  );

/**
 * A report of the docs' own build failing, left in the page: Breathe's warning that it found no
 * Doxygen output for an entry ("doxygenfunction: Cannot find function … in doxygen xml output",
 * eight of them in fmt's API page) and docutils' system messages. They were quoted as the entry's
 * text, in place of its example.
 */
const isBuildError = (node: Element): boolean =>
  (classesOf(node).includes('system-message') && node.tagName === 'div') ||
  (classesOf(node).includes('admonition') &&
    node.children.some(
      (child) =>
        isElement(child) &&
        !classesOf(child).includes('admonition-title') &&
        BREATHE_ERROR.test(plainText(child)),
    ));
const BREATHE_ERROR = /^doxygen[a-z]+: (?:Cannot find|Unable to resolve)\b/;

/**
 * A paragraph that says which tool made the page (texi2html's "This document was generated by
 * Bruno Haible on July, 26 2020 using texi2html 1.78a."): the `llms.txt` line of gettext's index
 * pages, and quoted as their text.
 */
const isGeneratorStamp = (node: Element): boolean =>
  node.tagName === 'p' && /^\s*This document was generated\b[\s\S]*\busing\b/i.test(hastText(node));

/** A cell of a bar of links to the pages around: "[ << ]", "[ > ]", "[Up]", "[Contents]", "[ ? ]". */
const NAVIGATION_CELL = /^\s*(?:\[\s*(?:<<|<|>|>>|up|top|contents|index|about|\?)?\s*\])?\s*$/i;

/**
 * texi2html's bar of links to the chapters and nodes around, above and below every page, written
 * as a table of cells like "[ << ]" and "[Contents]": an eleven-column table opened and closed
 * each of gettext's pages.
 */
const isNavigationTable = (node: Element): boolean => {
  if (node.tagName !== 'table' || !select('a[href]', node)) return false;
  const cells = selectAll('td, th', node);
  return cells.length > 1 && cells.every((cell) => NAVIGATION_CELL.test(hastText(cell)));
};

/** Heading self-links (`#`, `¶`) add a symbol to every heading; their target is the heading's anchor. */
const SELF_LINK = 'a[href^="#"]';
/**
 * A link in a heading to the heading's own anchor. Sphinx's `toc-backref` (docutils'
 * `doc-backlink`) wraps a heading's text in a link back to the page's contents list (`#id4`): the
 * way back up, not the heading's anchor, which its `¶` link after it gives.
 */
const HEADING_SELF_LINK = `${SELF_LINK}:not(.toc-backref):not([role=doc-backlink])`;

/** What a self-link shows: a symbol, or an icon font's private-use glyph (Font Awesome's link, U+F0C1). */
const SYMBOLS = /[\s#¶§🔗\u200b\p{Co}]/gu;

const EDIT_LINK = /^\s*(edit (this|the) page|edit on github|view (page )?source|show source)\b/i;

const isElement = (node: ElementContent | HastRoot['children'][number]): node is Element =>
  node.type === 'element';

/** A new element. */
const element = (
  tagName: string,
  children: ElementContent[],
  properties: Element['properties'] = {},
): Element => ({ type: 'element', tagName, properties, children });

/** A text node. */
const text = (value: string): Text => ({ type: 'text', value });

/** Inline code of `value`. */
const inlineCode = (value: string): Element => element('code', [text(value)]);

/** A code block of `value`, in `lang` when it is known: the fence hast-util-to-mdast reads. */
const codeBlock = (value: string, lang = ''): Element =>
  element('pre', [element('code', [text(value)], lang ? { className: [`language-${lang}`] } : {})]);

/**
 * A row of a reference's table of names (a parameter, a field, an enum's value) as a list item:
 * the name's targets, the name in code, `before` (a parameter's direction), " – " and the
 * description's `words` when it has some, and `after` (GTK-Doc's annotations).
 */
const namedItem = (
  name: Element,
  words: ElementContent[],
  { before = '', after = '' }: { before?: string; after?: string } = {},
): Element =>
  element('li', [
    ...selectAll('a[id], a[name]', name),
    inlineCode(plainText(name)),
    ...(before ? [text(` ${before}`)] : []),
    ...(words.length ? [text(' – '), ...words] : []),
    ...(after ? [text(` ${after}`)] : []),
  ]);

/** A node's text, its runs of white space one space, trimmed. */
const plainText = (node: Element): string => hastText(node).replace(/\s+/g, ' ').trim();

const classesOf = (node: Element): string[] => {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
};

/** Removes every descendant of `tree` that `drop` says is chrome. */
function prune(
  tree: Element | HastRoot,
  drop: (node: Element, next: Element | undefined) => boolean,
): void {
  const elements: Element[] = [];
  for (const child of tree.children) if (isElement(child)) elements.push(child);
  const dropped = new Set(elements.filter((node, at) => drop(node, elements[at + 1])));
  tree.children = tree.children.filter((child) => !(isElement(child) && dropped.has(child)));
  for (const child of tree.children) if (isElement(child)) prune(child, drop);
}

/**
 * A heading over a table of contents that is left out (`div.toc`): Jupyter's toc2 writes
 * `<h1><p>Table of Contents</p></h1>` above the notebook's own title, and xarray's example was
 * titled "Table of Contents".
 */
const isContentsHeading = (node: Element, next: Element | undefined) =>
  /^h[1-6]$/.test(node.tagName) &&
  /^(?:table of )?contents$/i.test(hastText(node).trim()) &&
  next !== undefined &&
  matches('div.toc', next);

/**
 * What a build's markup errors leave, mended: docutils marks text it could not parse as a link to
 * its error report (`<a href="#id1"><span class="problematic">*</span></a>variables`), a link to
 * nowhere once the report is gone, so the text stays and the link goes; a heading that is only an
 * image is its image's alt text; and a heading without a letter or digit (Debian's Black build,
 * whose unconverted Markdown left `<h1>)</h1>`) is no heading, only its id stays, as a link target
 * (headingTargets).
 */
function mendBrokenMarkup(tree: Element): void {
  tree.children = tree.children.flatMap((child): ElementContent[] => {
    if (!isElement(child)) return [child];
    if (child.tagName === 'a' && select('.problematic', child))
      return [{ type: 'text', value: hastText(child) }];
    if (/^h[1-6]$/.test(child.tagName) && !namesSomething(hastText(child))) {
      // A logo for a title (Tornado's `<h1><img alt="Tornado Web Server" …></h1>`): its words.
      const named = child.children.map((part): ElementContent =>
        isElement(part) && part.tagName === 'img' && typeof part.properties.alt === 'string'
          ? { type: 'text', value: part.properties.alt }
          : part,
      );
      if (namesSomething(hastText({ ...child, children: named }))) {
        child.children = named;
        return [child];
      }
    }
    if (/^h[1-6]$/.test(child.tagName) && !namesSomething(hastText(child)))
      return [
        { type: 'element', tagName: 'span', properties: { id: child.properties.id }, children: [] },
      ];
    mendBrokenMarkup(child);
    return [child];
  });
}

/**
 * An `<a>` that links nowhere, only a target (`<a name="def_fetch">` in DocBook's and old HTML,
 * `<a id="OPTIONS">` inside AsciiDoc's headings, Node.js's `<a class="legacy" id="…">`), as the
 * `<span id>` it is: read as a link, each wrote "[]()" and the page's own URL into its heading
 * ("## OPTIONS[]()http://…/git-push"). Its id, or its name, stays a link target.
 */
function targetsWithoutLinks(tree: Element): void {
  for (const link of selectAll('a:not([href])', tree)) {
    const id = link.properties.id ?? link.properties.name;
    link.tagName = 'span';
    link.properties = typeof id === 'string' && id ? { id } : {};
  }
}

/**
 * A heading without an id takes its self-link's target as its id before the symbol goes (Node.js's
 * `<h2>Buffer<a class="mark" href="#buffer">#</a></h2>`): its anchor is where the docs' links lead,
 * and the targets under it belong to it, not to the page's top.
 */
function headingsNamedBySelfLinks(tree: Element): void {
  // Sphinx's headings sit in a `<section id>`, which anchorOf reads.
  for (const heading of selectAll(':not(section[id]) > :is(h1, h2, h3, h4, h5, h6)', tree)) {
    if (heading.properties.id) continue;
    const link = selectAll(HEADING_SELF_LINK, heading).find(
      (node) => !hastText(node).replace(SYMBOLS, ''),
    );
    const href = link?.properties.href;
    if (typeof href === 'string' && href.length > 1) {
      try {
        heading.properties.id = decodeURIComponent(href.slice(1));
      } catch {
        // A target that is no valid escape names nothing.
      }
    }
  }
}

/**
 * A callout's title: Sphinx's and MkDocs' admonitions (`<p class="admonition-title">Note</p>`),
 * VitePress's custom blocks, Starlight's asides, Docusaurus's admonitions, and a `<details>`
 * block's summary (MkDocs' collapsible "Example").
 */
const CALLOUT_TITLE =
  'p.admonition-title, p.custom-block-title, .starlight-aside__title, [class*=admonitionHeading]';

/** Whether `child` of `parent` is its callout's title (a `<details>` block's `<summary>` too). */
const isCalloutTitle = (child: ElementContent, parent: Element): child is Element =>
  isElement(child) &&
  (matches(CALLOUT_TITLE, child) ||
    (parent.tagName === 'details' && child.tagName === 'summary') ||
    (matches('h1.title, h2.title, h3.title, h4.title', child) &&
      classesOf(parent).some((name) => DOCBOOK_ADMONITIONS.has(name))));
/**
 * DocBook XSL's admonitions (`<div class="tip"><h3 class="title">Tip</h3>…`, PostgreSQL's): read
 * as headings, their titles filed the text after the box under "Tip", and cited it there.
 */
const DOCBOOK_ADMONITIONS = new Set(['note', 'tip', 'warning', 'caution', 'important']);

/**
 * AsciiDoc's admonitions, a table of one row (`div.admonitionblock`: the "Note" in one cell, the
 * text in the other), as the callouts they are: read as tables, git's 898 notes were Markdown
 * tables with an empty header row. The title cell becomes the callout's title, and text written
 * straight into the content cell a paragraph.
 */
function admonitionTablesAsCallouts(tree: Element): void {
  for (const block of selectAll('div.admonitionblock', tree)) {
    const title = select('td.icon', block);
    const content = select('td.content', block);
    if (!content) continue;
    const words = title ? plainText(title) : '';
    const inline = content.children.every(
      (child) => !isElement(child) || !BLOCKS.has(child.tagName),
    );
    block.children = [
      ...(words
        ? [element('p', [{ type: 'text', value: words }], { className: ['admonition-title'] })]
        : []),
      ...(inline ? [element('p', content.children)] : content.children),
    ];
  }
}

/**
 * A callout's title as the label of its first paragraph: "**Note:** It is currently not possible
 * for chain commands to be nested." Alone on its line, "Note" (or "See also" over its links) read
 * as a loose one-word paragraph in pages and answers. A callout that opens on something else (a
 * list, code) gets its label as a paragraph of its own, which a list then follows as a lead-in.
 */
function calloutTitlesAsLabels(tree: Element): void {
  for (const child of tree.children) if (isElement(child)) calloutTitlesAsLabels(child);
  const at = tree.children.findIndex((child) => isCalloutTitle(child, tree));
  if (at < 0) return;
  let text = hastText(tree.children[at] as Element)
    .replace(/\s+/g, ' ')
    .trim();
  tree.children.splice(at, 1);
  if (!text) return;
  // VitePress writes its default titles in capitals ("TIP"), Docusaurus in lower case ("note").
  if (/^(?:[A-Z]+|[a-z]+)$/.test(text)) text = text[0]!.toUpperCase() + text.slice(1).toLowerCase();
  const label: Element = {
    type: 'element',
    tagName: 'strong',
    properties: {},
    children: [{ type: 'text', value: /[:.!?]$/.test(text) ? text : `${text}:` }],
  };
  // The first element after the title, inside a wrapper of the content (Starlight's, Docusaurus's).
  let first = tree.children.slice(at).find(isElement);
  while (first?.tagName === 'div' && first.children.some(isElement))
    first = first.children.find(isElement);
  if (first?.tagName === 'p') first.children.unshift(label, { type: 'text', value: ' ' });
  // A callout used as a box around headed parts (MkDocs' "Block" around each `theme` option) is
  // no label for its heading: "**Block:**" stood alone above it.
  else if (!first || !/^h[1-6]$/.test(first.tagName))
    tree.children.splice(at, 0, {
      type: 'element',
      tagName: 'p',
      properties: {},
      children: [label],
    });
}

/**
 * Footnotes as paragraphs that open on their label ("[1] Requires the Colorama package on
 * Windows."). docutils 0.18 and later write them as asides, which went with every other aside as
 * chrome (structlog's pages lost all their footnotes); older docutils as a definition list whose
 * terms carry the back-links too, so arrow's token table footnotes read "1(1,2,3,4)".
 */
function footnotesAsParagraphs(tree: Element): void {
  const notes = selectAll(
    'aside.footnote-list, aside.footnote, aside.citation, dl.footnote, dl.citation',
    tree,
  );
  for (const note of notes) {
    if (classesOf(note).includes('footnote-list')) {
      note.tagName = 'div';
      continue;
    }
    const label = (term: Element) => {
      prune(term, (node) => node.tagName === 'span' && classesOf(node).includes('fn-backref'));
      const text = hastText(term)
        .replace(/\s+/g, '')
        .replace(/^\[?(.*?)\]?$/, '$1');
      return text ? `[${text}] ` : '';
    };
    const children: ElementContent[] = [];
    let pending = '';
    for (const child of note.children) {
      // The back-links to where the note is referred to ("(1,2,3)"): navigation.
      if (!isElement(child) || classesOf(child).includes('backrefs')) continue;
      if (child.tagName === 'dt' || classesOf(child).includes('label')) pending = label(child);
      else
        for (const part of child.tagName === 'dd' ? child.children : [child]) {
          if (isElement(part) && part.tagName === 'p' && pending)
            part.children.unshift({ type: 'text', value: pending });
          if (isElement(part)) pending = '';
          children.push(part);
        }
    }
    note.tagName = 'div';
    note.children = children;
  }
}

/** The elements from `tree` down to `target`, both included; undefined when `target` is not in it. */
function pathTo(tree: Element, target: Element): Element[] | undefined {
  if (tree === target) return [tree];
  for (const child of tree.children)
    if (isElement(child)) {
      const path = pathTo(child, target);
      if (path) return [tree, ...path];
    }
  return undefined;
}

/** The share of a menu's words that are links' (lxml's "Menu" toggle and section names are not). */
const MENU_LINK_SHARE = 0.8;

/** A block whose words are nearly all links': a menu, a list of links to other pages. */
function isMenu(node: Element): boolean {
  const letters = (of: Element) => hastText(of).replace(/\s+/g, '').length;
  const all = letters(node);
  return (
    all > 0 &&
    selectAll('a', node).reduce((sum, link) => sum + letters(link), 0) >= MENU_LINK_SHARE * all
  );
}

/**
 * What a page puts above its title, when that is no heading (marshmallow's changelog opens with a
 * "See also" box over its `<h1>`; a version banner; a logo), moves to just under the title: a
 * page's Markdown opens with its `# Title`, as the sidebar and answers name it, and its `.md` for
 * agents gave it a second one above the box. The title keeps its place and its section's anchor.
 * What is nearly all links there is the site's menu, and goes: lxml's docutils pages, which have no
 * landmark, open with the whole site's menu and a donation banner ("Like the tool? Help making it
 * better!"), 200 lines above each page's text, the first line of every page's description.
 */
function titleFirst(tree: Element): void {
  const title = select('h1', tree);
  const path = title && pathTo(tree, title);
  if (!path) return;
  // Words above the title, outermost first; what holds none (an anchor's empty `<span id>`, which
  // labels the title) stays where it is.
  const moved: { parent: Element; node: ElementContent }[] = [];
  for (let level = 1; level < path.length; level++) {
    const parent = path[level - 1]!;
    for (const node of parent.children.slice(0, parent.children.indexOf(path[level]!)))
      if (isElement(node) && isMenu(node)) parent.children.splice(parent.children.indexOf(node), 1);
      else if (hastText(node).trim()) moved.push({ parent, node });
  }
  const isHeaded = ({ node }: { node: ElementContent }) =>
    isElement(node) &&
    (/^h[1-6]$/.test(node.tagName) || Boolean(select('h2, h3, h4, h5, h6', node)));
  if (!moved.length || moved.some(isHeaded)) return;
  for (const { parent, node } of moved) parent.children.splice(parent.children.indexOf(node), 1);
  const parent = path.at(-2)!;
  parent.children.splice(parent.children.indexOf(title) + 1, 0, ...moved.map(({ node }) => node));
}

/**
 * Indentation that docutils wrote as a quote: Sphinx's `<blockquote><div>…</div></blockquote>`
 * around a list item's indented code or paragraphs (Celery's "1. Install the library:" then its
 * `pip install`), and around code alone. Quoted, each answer drew a quote bar inside the quote
 * (`>    > ```console`). A blockquote of that shape is unwrapped there; a quote elsewhere stays.
 */
function unwrapIndentation(tree: Element, inItem = false): void {
  tree.children = tree.children.flatMap((child): ElementContent[] => {
    if (!isElement(child)) return [child];
    const inner = child.children.filter(isElement);
    const [div] = inner;
    if (
      child.tagName === 'blockquote' &&
      inner.length === 1 &&
      div!.tagName === 'div' &&
      !classesOf(div!).length &&
      (inItem || div!.children.filter(isElement).every((node) => Boolean(select('pre', node))))
    ) {
      unwrapIndentation(div!, inItem);
      return div!.children;
    }
    unwrapIndentation(child, inItem || child.tagName === 'li');
    return [child];
  });
}

/**
 * A superscript as the power it is: Markdown has none, and `2<sup>64</sup> - 1` read "264 - 1"
 * (cryptography's AEAD limits). One that is a link (a footnote's marker) stays as it is.
 */
function superscriptsAsPowers(tree: Element): void {
  tree.children = tree.children.map((child): ElementContent => {
    if (!isElement(child)) return child;
    if (child.tagName === 'sup' && !select('a', child)) {
      const power = hastText(child).trim();
      if (power) return { type: 'text', value: /\s/.test(power) ? `^(${power})` : `^${power}` };
    }
    superscriptsAsPowers(child);
    return child;
  });
}

/**
 * Lines that are commands, not Python, though Pygments highlighted them as Python (it reads any
 * words as names): each a word that is no Python statement's, then words with no bracket call,
 * assignment, block or operator (`pip install greenlet`, `make html`, SQL a statement renders as).
 * Sphinx labelled them Python.
 */
const isCommandLines = (text: string) => {
  const lines = text.split('\n').filter((line) => line.trim());
  return (
    lines.length > 0 &&
    lines.every((line) => {
      const words = /^\s*(?:\$\s+)?([A-Za-z_][\w.-]*)((?:\s+[^\s(){}=]+)+)\s*$/.exec(
        line.replace(/\s#.*$/, ''),
      );
      return (
        words !== null &&
        !PYTHON_WORD.test(words[1]!) &&
        !words[2]!
          .trim()
          .split(/\s+/)
          .some((word) => PYTHON_WORD.test(word))
      );
    })
  );
};
/** A Python statement's first word, or a word or operator of an expression (`obj in session.dirty`). */
const PYTHON_WORD =
  /^(?:import|from|return|raise|del|pass|assert|global|nonlocal|yield|await|print|async|with|for|while|if|elif|else|try|except|finally|class|def|lambda|not|and|or|is|in|[-+*/%<>]|\*\*|\/\/|[<>!=]=)$/;

/** Languages a `<pre>`'s only class names. */
const PRE_LANGUAGES = new Set([
  'ruby',
  'python',
  'javascript',
  'typescript',
  'java',
  'c',
  'cpp',
  'go',
  'rust',
  'php',
  'perl',
  'bash',
  'sh',
  'shell',
  'console',
  'json',
  'yaml',
  'toml',
  'xml',
  'html',
  'css',
  'sql',
]);

/**
 * A code block's language, from where the generators write it: `data-language` (Starlight),
 * `language-x` on the <pre>/<code> (Docusaurus, MkDocs) or on the block's wrapper (VitePress's
 * `div.language-ts`, Sphinx's `div.highlight-python`).
 */
function languageOf(pre: Element, ancestors: Element[]): string {
  const code = pre.children.find(isElement);
  const dataLanguage = pre.properties.dataLanguage;
  if (typeof dataLanguage === 'string' && dataLanguage) return dataLanguage;
  // TypeDoc writes the language as the code's only class: `<code class="ts">`, the whole block's
  // code. Not a part's: DocBook's `<code class="prompt">$</code>` before a command.
  const whole = code?.tagName === 'code' && pre.children.filter(isElement).length === 1;
  const own = whole ? classesOf(code) : [];
  if (own.length === 1 && /^[a-z][\w+#]{0,11}$/i.test(own[0]!)) return own[0]!;
  // RDoc writes it as the `<pre>`'s only class (`<pre class="ruby">`); only a language's name
  // counts there, as other generators give `<pre>` classes of their own ("literal-block").
  const [preClass, ...more] = classesOf(pre);
  if (preClass && !more.length && PRE_LANGUAGES.has(preClass)) return preClass;
  for (const node of [
    pre,
    ...(code?.tagName === 'code' ? [code] : []),
    ...ancestors.slice(-3).reverse(),
  ]) {
    for (const name of classesOf(node)) {
      // Sphinx's `highlight-default` is its default language, Python, whose console sessions
      // (`>>>`) it highlights as such: labelled "text" they read as output. Code that does not
      // read as Python (a shell command, JSON) it leaves plain, without a token's span: so here.
      if (name === 'highlight-default')
        return !select('span[class]', pre) || isCommandLines(hastText(pre))
          ? ''
          : /^\s*>>>/.test(hastText(pre))
            ? 'pycon'
            : 'python';
      const match = /^(?:language|lang|highlight)-([\w+#.-]+)$/.exec(name);
      // Pygments' `python3` (Celery's `highlight-python3`) is Python to every highlighter.
      if (match?.[1] && match[1] !== 'default') return match[1].replace(/^python3$/, 'python');
    }
  }
  return '';
}

const LINE = '.token-line, .ec-line, span.line';

const textWithBreaks = (node: ElementContent): string =>
  node.type === 'text'
    ? node.value
    : node.type !== 'element'
      ? ''
      : node.tagName === 'br'
        ? '\n'
        : node.children.map(textWithBreaks).join('');

/**
 * A code block's text with its line breaks: generators that wrap each line in an element
 * (Docusaurus `div.token-line` ending in `<br>`, Shiki `span.line`, expressive-code `div.ec-line`)
 * give one line per element; others keep the text's own newlines.
 */
function codeTextOf(pre: Element): string {
  const lines = selectAll(LINE, pre).filter((line) =>
    line.children.every((child) => !isElement(child) || !select(LINE, child)),
  );
  // Without line elements, a `<br>` is a line break (TypeDoc); inside them it only ends the line.
  const text = lines.length ? lines.map((line) => hastText(line)).join('\n') : textWithBreaks(pre);
  return text.replace(/\n+$/, '');
}

/**
 * A Mermaid diagram's source, as sphinxcontrib-mermaid writes it into a `<div class="mermaid">`:
 * its first line indented as the page's template, the others as the docs' source. Read as prose,
 * structlog's flowcharts ran into one paragraph that a question about logging quoted.
 */
function diagramTextOf(node: Element): string {
  const [first = '', ...rest] = hastText(node)
    .replace(/^\s*\n/, '')
    .trimEnd()
    .split('\n');
  const indent = Math.min(
    ...rest.filter((line) => line.trim()).map((line) => /^\s*/.exec(line)![0].length),
  );
  return [first.trim(), ...rest.map((line) => line.slice(Math.min(indent, line.length)))].join(
    '\n',
  );
}

/**
 * Replaces every <pre> with a plain `<pre><code class="language-x">` that hast-util-to-mdast reads
 * as a fence; a Mermaid diagram (diagramTextOf) too.
 */
function normaliseCode(tree: Element, ancestors: Element[] = []): void {
  tree.children = tree.children.map((child) => {
    if (!isElement(child)) return child;
    const diagram = classesOf(child).includes('mermaid');
    if (child.tagName !== 'pre' && !diagram) {
      normaliseCode(child, [...ancestors, tree]);
      return child;
    }
    const lang = diagram ? 'mermaid' : languageOf(child, [...ancestors, tree]);
    // A link in code that leads nowhere is a script's toggle: SQLAlchemy's "sql" before each `>>>`
    // that emits SQL read `sql>>> result = session.execute(stmt)`.
    prune(child, (node) => node.tagName === 'a' && node.properties.href === '#');
    return codeBlock(diagram ? diagramTextOf(child) : codeTextOf(child), lang);
  });
}

/**
 * A paragraph that is keyboard input alone is a command to type: Beautiful Soup's manual writes
 * `$ pip install beautifulsoup4` as a `<kbd>` paragraph, and quotes of "How do I install it?" left
 * every command out, as prose that matched too few words. It becomes a console code block.
 */
function typedLinesAsCode(tree: Element): void {
  for (const paragraph of selectAll('p', tree)) {
    const inner = paragraph.children.filter((node) => node.type !== 'text' || node.value.trim());
    const only = inner[0];
    if (inner.length !== 1 || !only || !isElement(only) || only.tagName !== 'kbd') continue;
    paragraph.tagName = 'pre';
    paragraph.properties = { dataLanguage: 'console' };
    paragraph.children = [{ type: 'text', value: hastText(only).trim() }];
  }
}

/** A heading's anchor as the page serves it: its id, its self-link's target (Sphinx), or its section's id. */
function anchorOf(heading: Element, parent: Element | undefined): string {
  if (typeof heading.properties.id === 'string' && heading.properties.id)
    return heading.properties.id;
  // DocBook's `<h2><a name="reverting-a-commit"></a>Reverting a commit</h2>` (a target, read
  // by targetsWithoutLinks as an empty `<span id>`) at the heading's start names it.
  const first = heading.children.find((child) => !isBlank(child) || isElement(child));
  if (
    first &&
    isElement(first) &&
    first.tagName === 'span' &&
    typeof first.properties.id === 'string' &&
    first.properties.id &&
    !hastText(first).trim()
  )
    return first.properties.id;
  const self = select(HEADING_SELF_LINK, heading)?.properties.href;
  if (typeof self === 'string' && self.length > 1) return decodeURIComponent(self.slice(1));
  if (parent?.tagName === 'section' && typeof parent.properties.id === 'string')
    return parent.properties.id;
  return '';
}

const EMPHASIS = new Set(['em', 'i', 'strong', 'b']);

/** The text nodes under `node`, in order. */
const textsOf = (node: Element): Text[] =>
  node.children.flatMap((child) =>
    child.type === 'text' ? [child] : isElement(child) ? textsOf(child) : [],
  );

/** Removes `count` characters from the start of `texts` (in order), or from their end. */
function cutText(texts: Text[], count: number, from: 'start' | 'end'): void {
  for (const node of from === 'start' ? texts : [...texts].reverse()) {
    if (count <= 0) return;
    const cut = Math.min(count, node.value.length);
    node.value =
      from === 'start' ? node.value.slice(cut) : node.value.slice(0, node.value.length - cut);
    count -= cut;
  }
}

/**
 * Pieces of inline code written side by side as one (DocBook's `<code class="structfield">class
 * </code><code class="literal"> = 2</code>`): Markdown cannot set two code spans side by side, and
 * they came out as "`class`` = 2`", which read as one broken span.
 */
function adjacentCodeJoined(tree: Element): void {
  if (tree.tagName === 'pre') return;
  const children: ElementContent[] = [];
  for (const child of tree.children) {
    const before = children.at(-1);
    if (
      isElement(child) &&
      child.tagName === 'code' &&
      before &&
      isElement(before) &&
      before.tagName === 'code'
    )
      before.children = [text(hastText(before) + hastText(child))];
    else children.push(child);
  }
  tree.children = children;
  for (const child of children) if (isElement(child)) adjacentCodeJoined(child);
}

/**
 * Spaces at an emphasis's edges, and the separator it opens on, moved outside it. Markdown cannot
 * end emphasis on a space, nor open it on punctuation right after a letter: Sphinx's `<em>class
 * </em>Name` came out as `*class&#x20;*&#x50;ytestWarning` in answers and pages, and
 * `tmpdir<em>: LocalPath</em>` as `tmpdi&#x72;*: LocalPath*`. An emphasis of nothing else is its text.
 */
function spacesOutOfEmphasis(tree: Element): void {
  tree.children = tree.children.flatMap((child): ElementContent[] => {
    if (!isElement(child)) return [child];
    spacesOutOfEmphasis(child);
    if (!EMPHASIS.has(child.tagName)) return [child];
    const text = hastText(child);
    const lead = /^[\s:;,]*/.exec(text)![0];
    const trail = /\s*$/.exec(text)![0];
    if (!lead && !trail) return [child];
    if (lead.length === text.length) return [{ type: 'text', value: text.replace(/\s+/g, ' ') }];
    const texts = textsOf(child);
    cutText(texts, lead.length, 'start');
    cutText(texts, trail.length, 'end');
    const outside = (value: string): Text[] =>
      value ? [{ type: 'text', value: value.replace(/\s+/g, ' ') }] : [];
    return [...outside(lead), child, ...outside(trail)];
  });
}

/**
 * A link's title that only repeats its words goes: Sphinx titles a reference to `tornado.web`
 * "tornado.web" (546 links in Tornado's docs), and the page's Markdown gave agents each such name
 * twice. A title that says more (the qualified `flask.Flask.route` of a `route()`) stays.
 */
function titlesThatRepeatText(tree: Element): void {
  for (const link of selectAll('a[title]', tree))
    if (String(link.properties.title).trim() === hastText(link).trim())
      delete link.properties.title;
}

/** What a Markdown table's cell cannot hold: code blocks, definition lists, headings, quotes, tables. */
const BLOCKS_NO_CELL_HOLDS = 'pre, dl, table, blockquote, h1, h2, h3, h4, h5, h6';
/**
 * What in a cell breaks a Markdown table row (a code fence, a quote's lines, a table, a heading),
 * where a definition list is read onto the row's line.
 */
const BLOCKS_NO_ROW_HOLDS = 'pre, table, blockquote, h1, h2, h3, h4, h5, h6';

/** A table's own rows, not those of a table in one of its cells. */
const rowsOf = (table: Element): Element[] =>
  table.children
    .filter(isElement)
    .flatMap((part) => (part.tagName === 'tr' ? [part] : part.children.filter(isElement)))
    .filter((row) => row.tagName === 'tr');

/**
 * A table that lays out one column of blocks is those blocks, in order, each header cell a rubric
 * over the rows after it: AsyncSSH's API puts each class's methods in a table, a header cell
 * ("General connection handlers") over one method's entry per row, the second column empty. As a
 * Markdown table, each entry's signature, summary and text ran together on one line
 * ("connection_made(conn)Called when a connection is madeThis method is called…"), and the
 * entries' headings, made inside the cells, were no sections: the page's other sections were
 * given their anchors, one off for every entry. A table whose rows have two cells with something
 * in them stays a table: its columns say which goes with which.
 */
function layoutTablesAsBlocks(tree: Element): void {
  tree.children = tree.children.flatMap((child): ElementContent[] => {
    if (!isElement(child)) return [child];
    if (child.tagName !== 'table') {
      layoutTablesAsBlocks(child);
      return [child];
    }
    const rows = rowsOf(child);
    const filled = rows.map((row) =>
      row.children.filter((cell): cell is Element => isElement(cell) && !isBlank(cell)),
    );
    if (
      filled.some((cells) => cells.length > 1) ||
      !filled.some((cells) => cells.some((cell) => select(BLOCKS_NO_CELL_HOLDS, cell)))
    ) {
      layoutTablesAsBlocks(child);
      return [child];
    }
    const caption = child.children.find(
      (node): node is Element => isElement(node) && node.tagName === 'caption',
    );
    const rubric = (label: Element): Element => ({
      type: 'element',
      tagName: 'p',
      properties: { className: ['rubric'] },
      children: [{ type: 'text', value: plainText(label) }],
    });
    const out: ElementContent[] = caption && !isBlank(caption) ? [rubric(caption)] : [];
    for (const [cell] of filled) {
      if (!cell) continue;
      if (cell.tagName === 'th') out.push(rubric(cell));
      else {
        layoutTablesAsBlocks(cell);
        out.push(...cell.children);
      }
    }
    return out;
  });
}

/**
 * A table of several columns with a block in a cell that a Markdown table cannot hold (code, a
 * quote, a nested table, a heading) is a list, a row an item: its first cell in bold when it is
 * words (a keyword, a call), then the other cells, each after its column's header when the table
 * has one. pyqtgraph's
 * `AxisItem.setStyle` shows an example in a keyword's row: written into a Markdown row, the code
 * fence ran on through the page, the headings after it were no headings, and the page's later
 * sections took the anchors of the ones before (`tickStrings` linked to `#…setTicks`).
 */
function tablesWithBlocksAsLists(tree: Element): void {
  for (const table of selectAll('table', tree).reverse()) {
    const rows = rowsOf(table);
    const cellsOf = (row: Element) =>
      row.children.filter(
        (cell): cell is Element => isElement(cell) && /^t[dh]$/.test(cell.tagName),
      );
    if (!rows.some((row) => cellsOf(row).some((cell) => select(BLOCKS_NO_ROW_HOLDS, cell))))
      continue;
    // A header row: header cells, or cells all in bold (docutils' list tables), some empty.
    const isHeader = (row: Element) =>
      cellsOf(row).some((cell) => !isBlank(cell)) &&
      cellsOf(row).every(
        (cell) =>
          cell.tagName === 'th' ||
          isBlank(cell) ||
          selectAll('strong, b', cell).map(hastText).join('').trim() === hastText(cell).trim(),
      );
    const header = rows[0] && isHeader(rows[0]) ? rows[0] : undefined;
    const names = header ? cellsOf(header).map((cell) => plainText(cell)) : [];
    const items = rows
      .filter((row) => row !== header)
      .map((row): Element => {
        const children: ElementContent[] = [];
        cellsOf(row).forEach((cell, at) => {
          if (isBlank(cell)) return;
          // A row's first cell of words (a keyword, a call) is the item's bold label.
          const inline = cell.children.filter((node) => !isBlank(node));
          const words =
            inline.length === 1 && isElement(inline[0]!) && inline[0].tagName === 'p'
              ? inline[0].children
              : inline;
          if (at === 0 && !words.some((node) => isElement(node) && BLOCKS.has(node.tagName))) {
            children.push(element('p', [element('strong', words)]));
            return;
          }
          const label = names[at]
            ? [element('strong', [{ type: 'text', value: `${names[at]}:` }])]
            : [];
          // A cell of one paragraph is on its column's line ("**Type:** bool").
          if (label.length && words !== inline)
            children.push(element('p', [...label, { type: 'text', value: ' ' }, ...words]));
          else children.push(...(label.length ? [element('p', label)] : []), ...cell.children);
        });
        return element('li', children);
      });
    Object.assign(table, { tagName: 'ul', properties: {}, children: items });
  }
}

/**
 * A table without a header row takes its first row of labels as one: Markdown's tables have a header, and
 * without one the page Markdown opened each of docutils' list tables on an empty row, their real
 * header (kombu's "**Client** | **Type** | …", pyparsing's "Unicode set | Alternate names | …")
 * a row of the body.
 */
function firstRowAsHeader(tree: Element): void {
  // Labels, not a first entry: a table of rows alone (Flask's URL converters, "string | accepts any
  // text without a slash (the default)"; werkzeug's "Windows | `%SystemRoot%\…\hosts`") keeps its
  // empty header rather than a row taken for one. Labels are a few plain words, no link or code.
  const isHeaderLike = (row: Element) =>
    row.children.filter(isElement).every((cell) => {
      const text = plainText(cell);
      return (
        text && text.split(' ').length <= 4 && !/[.:;,]$/.test(text) && !select('a, code', cell)
      );
    });
  for (const table of selectAll('table', tree)) {
    if (select('thead, th', table)) continue;
    const row = select('tr', table);
    if (!row || !isHeaderLike(row)) continue;
    const body = select('tbody', table);
    const holder = body && body.children.includes(row) ? body : table;
    holder.children = holder.children.filter((node) => node !== row);
    for (const cell of row.children)
      if (isElement(cell) && cell.tagName === 'td') cell.tagName = 'th';
    const at = table.children.findIndex(
      (node) => isElement(node) && node.tagName !== 'colgroup' && node.tagName !== 'caption',
    );
    table.children.splice(at < 0 ? table.children.length : at, 0, {
      type: 'element',
      tagName: 'thead',
      properties: {},
      children: [row],
    });
  }
}

/**
 * A table cell's paragraphs and lists as one line: a Markdown table's row is one line, and Beautiful
 * Soup's parser table (a list of advantages in each cell) broke its rows apart at each item. Items
 * are kept apart by "; ", paragraphs by a space.
 */
function cellsOnOneLine(tree: Element): void {
  const blank = (node: ElementContent | undefined) => node?.type === 'text' && !node.value.trim();
  const trimmed = (nodes: ElementContent[]) => {
    let [start, end] = [0, nodes.length];
    while (start < end && blank(nodes[start])) start++;
    while (end > start && blank(nodes[end - 1])) end--;
    return nodes.slice(start, end);
  };
  const inline = (nodes: ElementContent[]): ElementContent[] =>
    nodes.flatMap((node): ElementContent[] => {
      if (!isElement(node)) return [node];
      if (node.tagName === 'ul' || node.tagName === 'ol')
        return node.children
          .filter((item): item is Element => isElement(item) && item.tagName === 'li')
          .flatMap((item, at) => [
            ...(at ? [{ type: 'text' as const, value: '; ' }] : []),
            ...trimmed(inline(item.children)),
          ]);
      if (node.tagName === 'p' || node.tagName === 'div')
        return [
          { type: 'text', value: ' ' },
          ...inline(node.children),
          { type: 'text', value: ' ' },
        ];
      return [node];
    });
  for (const cell of selectAll('td, th', tree))
    if (select('p, div, ul, ol', cell)) cell.children = inline(cell.children);
}

/** The longest description a definition list's item keeps on its term's line. */
const SHORT_DEFINITION_CHARS = 200;
/**
 * A term as terms are: a name or a few words. docutils reads a paragraph whose next line is
 * indented as a definition list (aiohttp's "*kwargs* are parameters passed to" over
 * "`make_handler()`"), and those "terms" are a sentence's first line.
 */
const isShortTerm = (term: Element) => {
  const text = hastText(term).trim();
  return text.length <= 40 && text.split(/\s+/).length <= 4;
};
/** Elements that are blocks of their own: a definition holding one is not a line's end. */
const BLOCKS = new Set(['p', 'div', 'pre', 'ul', 'ol', 'dl', 'table', 'blockquote', 'figure']);

/**
 * A definition list of short definitions (cmd2's default shortcuts: `?` help, `!` shell, …) as a
 * list of "term – definition" items, as docutils' own field lists read: as a list of terms each
 * over its own paragraph, a quote of "`?`" and "help" on separate lines did not say which went
 * with which. Lists whose definitions are longer, or more than a paragraph, stay as they are.
 */
function shortDefinitionsOnOneLine(tree: Element): void {
  for (const list of selectAll('dl', tree)) {
    if (classesOf(list).some((name) => name !== 'simple' && name !== 'docutils')) continue;
    const parts = list.children.filter(isElement);
    const pairs: [Element, ElementContent[]][] = [];
    for (let at = 0; at < parts.length; at += 2) {
      const [term, definition] = [parts[at]!, parts[at + 1]];
      if (term.tagName !== 'dt' || definition?.tagName !== 'dd' || !isShortTerm(term)) break;
      const body = definition.children.filter((node) => !isBlank(node));
      const inner =
        body.length === 1 && isElement(body[0]!) && body[0].tagName === 'p'
          ? body[0].children
          : body.every((node) => !isElement(node) || !BLOCKS.has(node.tagName))
            ? definition.children
            : undefined;
      if (!inner || hastText(definition).trim().length > SHORT_DEFINITION_CHARS) break;
      pairs.push([term, inner]);
    }
    if (!pairs.length || pairs.length * 2 !== parts.length) continue;
    list.tagName = 'ul';
    list.properties = {};
    list.children = pairs.map(([term, inner]) => ({
      type: 'element',
      tagName: 'li',
      properties: {},
      // A term that ends as a line does ("Mac OS X:", "response body,") runs on into its text.
      children: [
        ...term.children,
        { type: 'text', value: /[,:;({[=]$/.test(hastText(term).trim()) ? ' ' : ' – ' },
        ...inner,
      ],
    }));
  }
}

/**
 * A definition's terms on one line, "ACID, ACID model", as a reader sees them over their
 * definition: SQLAlchemy's glossary gives several terms one definition, and each became an item
 * of a list inside the definition's item ("* * ACID", "  * ACID model"); so do Texinfo's and
 * AsciiDoc's option lists (`-b`, `--print-bytes`). A later term's anchor stays on its words, so
 * links to it land.
 */
function glossaryTermsTogether(tree: Element): void {
  for (const list of selectAll('dl', tree)) {
    // Not an API entry's signatures (an overloaded function's): they stay lines.
    if (list.children.some((child) => isElement(child) && classesOf(child).includes('sig')))
      continue;
    const out: ElementContent[] = [];
    for (const child of list.children) {
      const last = out.findLast(isElement);
      if (isElement(child) && child.tagName === 'dt' && last?.tagName === 'dt') {
        const { id } = child.properties;
        // AsciiDoc ends each term on a line break: "-a , --all".
        const end = last.children.at(-1);
        if (end?.type === 'text') end.value = end.value.trimEnd();
        last.children.push(
          { type: 'text', value: ', ' },
          ...(typeof id === 'string' && id
            ? [
                {
                  type: 'element' as const,
                  tagName: 'span',
                  properties: { id },
                  children: child.children,
                },
              ]
            : child.children),
        );
      } else out.push(child);
    }
    list.children = out;
  }
}

/**
 * Horizontal rules before the page's first words: they separated its navigation bar (texi2html's,
 * now gone) from its text, and the page opened on "***" above its title (which then read as a
 * second title). Returns whether the text has begun.
 */
function rulesBeforeTextDropped(tree: Element): boolean {
  const kept: ElementContent[] = [];
  let begun = false;
  for (const [at, child] of tree.children.entries()) {
    if (begun) {
      kept.push(...tree.children.slice(at));
      break;
    }
    if (isElement(child) && child.tagName === 'hr') continue;
    kept.push(child);
    if (
      isElement(child) ? rulesBeforeTextDropped(child) : child.type === 'text' && child.value.trim()
    )
      begun = true;
  }
  tree.children = kept;
  return begun;
}

/**
 * A manual page groff wrote as HTML opens on a list of links to its own sections, one a line
 * ("NAME", "SYNOPSIS", …, "SEE ALSO"): the page's contents, read as its first paragraph, which
 * described each of gettext's manual pages in `llms.txt` as "NAMESYNOPSISDESCRIPTION…".
 */
function groffContentsDropped(tree: Element): void {
  const first = tree.children.findIndex((node) => isElement(node) && node.tagName === 'h2');
  if (first < 0) return;
  tree.children = tree.children.filter(
    (node, at) =>
      at > first || !isElement(node) || !(matches(SELF_LINK, node) || node.tagName === 'br'),
  );
}

/**
 * A Javadoc page as its docs: the class's package line ("Package org.apache.commons.lang3") and
 * its line of superclasses go, and so do a class's summaries of its members when the page details
 * them (the details say all the summaries do, with the members' names: the summaries' rows are
 * `div` grids, read as a line per cell, and quoted as descriptions without a name). A class's and
 * a member's signature is code. Before, every class's `llms.txt` line was its package line, and
 * a question about `StopWatch` was answered from its method summary.
 */
function javadocPage(tree: Element): void {
  const details = select('section.details', tree) !== undefined;
  prune(
    tree,
    (node) =>
      matches('div.sub-title, div.inheritance', node) ||
      (details && matches('section.summary', node)),
  );
  for (const signature of selectAll(
    'div.type-signature, div.member-signature, div.package-signature',
    tree,
  )) {
    Object.assign(signature, codeBlock(plainText(signature), 'java'));
  }
}

/**
 * A Doxygen page as its docs. Its title is its `div.title` ("json_pointer.h File Reference": the
 * `<title>` puts the project's name first), and the project's banner and menus, the links to the
 * page's own groups ("Macros | Typedefs | Functions"), the "Generated on … by doxygen" footer and
 * a class's closing list of the files it was "generated from" go (the `llms.txt` line of each
 * struct without a description). When the page documents its members, their summary table goes
 * too: each member's entry says what its row says, with its description (the table's group
 * headings had sat in list items, its rows read as empty ones). A member's heading, under its
 * group's ("Function Documentation"), loses its "◆" link; its prototype, a table of a cell per
 * word and parameter, is a line of code, and a code example (a `div.line` per line, read as a
 * paragraph each) a code block. A "More..." link goes wherever it points (a file's summary of the
 * members its namespace's page documents), and so does the link to a file's source, not served.
 */
function doxygenPage(tree: Element): void {
  const details = select('div.memitem', tree) !== undefined;
  prune(
    tree,
    (node) =>
      matches(DOXYGEN_CHROME, node) ||
      (details && matches('table.memberdecls', node)) ||
      (node.tagName === 'a' && plainText(node) === 'More...') ||
      (matches('p', node) && DOXYGEN_SOURCE_LINK.test(plainText(node))),
  );
  for (const contents of selectAll('div.contents', tree)) {
    const at = contents.children.findIndex(
      (node) => node.type === 'text' && DOXYGEN_SOURCES.test(node.value),
    );
    if (at < 0) continue;
    const [before, after] = [contents.children[at - 1], contents.children[at + 1]];
    const start = before && isElement(before) && before.tagName === 'hr' ? at - 1 : at;
    const end = after && isElement(after) && after.tagName === 'ul' ? at + 1 : at;
    contents.children.splice(start, end - start + 1);
  }
  for (const heading of selectAll('h2.memtitle', tree)) heading.tagName = 'h3';
  for (const title of selectAll('div.headertitle > div.title', tree)) {
    prune(title, (node) => matches('span.mlabels', node));
    Object.assign(title, element('h1', [{ type: 'text', value: plainText(title) }]));
  }
  // A file's list of the headers it includes, a `<code>` and a `<br>` each: code, a line each.
  for (const block of selectAll('div.textblock', tree)) {
    const parts = block.children.filter((node) => node.type !== 'text' || node.value.trim());
    if (
      parts.length &&
      parts.every((node) => isElement(node) && /^(?:code|br)$/.test(node.tagName))
    )
      Object.assign(
        block,
        codeBlock(
          parts
            .flatMap((node) =>
              isElement(node) && node.tagName === 'code' ? [plainText(node)] : [],
            )
            .join('\n'),
          'cpp',
        ),
      );
  }
  for (const fragment of selectAll('div.fragment', tree)) {
    const lines = selectAll('div.line', fragment).map((line) => hastText(line).trimEnd());
    Object.assign(fragment, codeBlock(lines.join('\n')));
  }
  for (const prototype of selectAll('div.memproto', tree)) {
    // A cell per piece: "(" and ")" join their neighbours, the rest are apart. A macro's value is
    // in its name's cell ("#define JSON_C_TO_STRING_PRETTY (1 << 1)"), and keeps its space. A C++
    // member's prototype sits in the left cell of a table whose right one holds its labels
    // (`virtual`, `static`, `override`): only the innermost cells are pieces, and the labels
    // follow in brackets, as Doxygen draws them beside it. A template's line comes first.
    const template = select('div.memtemplate', prototype);
    let line = template ? plainText(template) : '';
    const cells = selectAll('td', prototype).filter(
      (cell) => !matches('.mlabels-right', cell) && !select('table', cell),
    );
    for (const cell of cells.map(plainText).filter(Boolean))
      line += !line || /^[),]/.test(cell) || line.endsWith('(') || cell === '(' ? cell : ` ${cell}`;
    const labels = selectAll('span.mlabel', prototype).map(plainText).filter(Boolean);
    if (labels.length) line += `  [${labels.join(', ')}]`;
    Object.assign(prototype, codeBlock(line));
  }
  for (const table of selectAll('table.memberdecls', tree))
    Object.assign(table, element('div', memberSummary(table)));
  // A member's parameters, return values and an enum's values, each a row of a name and its
  // description: a list, a name in code. As a table in a list item, an excerpt read it as one
  // line ("- Parameters | obj | the json_object instance | | ---- |").
  for (const table of selectAll(DOXYGEN_NAMED_ROWS, tree)) {
    const items = selectAll('tr', table).flatMap((row): Element[] => {
      const cells = row.children.filter(
        (cell): cell is Element => isElement(cell) && cell.tagName === 'td',
      );
      // A C++ parameter's row may open on its direction ("[out]"), said after its name.
      const direction = cells[0] && matches('.paramdir', cells[0]) ? plainText(cells.shift()!) : '';
      const [name, description] = cells;
      if (!name) return [];
      const words = description && plainText(description) ? description.children : [];
      return [namedItem(name, words, { before: direction.replace(/^\[(.*)\]$/, '($1)') })];
    });
    Object.assign(table, element('ul', items));
  }
}

/**
 * A Doxygen summary of members ("Classes", "Functions", … a row each), kept on a page that does
 * not document them (a file whose functions its namespace's page documents): each group's heading,
 * then a list of the declarations in code, linked to where they are documented, each with its
 * brief description. As a table, its group headings sat in list items ("* **## Classes**"), its
 * cells apart, and a name ran into its description ("JsonJSON (JavaScript Object Notation).", the
 * `llms.txt` line of eight of JsonCpp's files).
 */
function memberSummary(table: Element): ElementContent[] {
  const out: ElementContent[] = [];
  let items: Element[] = [];
  let template = '';
  const flush = () => {
    if (items.length) out.push(element('ul', items));
    items = [];
  };
  for (const row of selectAll('tr', table)) {
    const kind = classesOf(row)[0] ?? '';
    const cells = row.children.filter(
      (cell): cell is Element => isElement(cell) && cell.tagName === 'td',
    );
    if (kind === 'heading') {
      flush();
      const heading = select('h2', row);
      if (heading) out.push(heading);
    } else if (kind.startsWith('memitem')) {
      if (cells.length === 1 && matches('.memTemplParams', cells[0]!)) {
        template = plainText(cells[0]!);
        continue;
      }
      const declaration = [template, ...cells.map(plainText)].filter(Boolean).join(' ');
      template = '';
      const link = select('a.el[href]', cells.at(-1) ?? row);
      const code = inlineCode(declaration);
      items.push(
        element('li', [link ? element('a', [code], { href: link.properties.href }) : code]),
      );
    } else if (kind.startsWith('memdesc') && items.length) {
      const description = select('td.mdescRight', row);
      const words = description ? plainText(description) : '';
      if (words) items[items.length - 1]!.children.push(text(` – ${words}`));
    }
  }
  flush();
  return out;
}

/** Doxygen's tables of a name and its description a row. */
const DOXYGEN_NAMED_ROWS =
  'table.params, table.retval, table.tparams, table.exception, table.fieldtable';

/**
 * Doxygen's chrome: its banner and menus (`#top`), search boxes, path bar, tree view, the tooltips
 * it writes for each name in a code example (`div.ttc`: "json_tokener_error Definition:
 * json_tokener.h:27" after every example), the "[detail level 1 2]" switch over its file list, its
 * footer, and the lines under a member that link into its sources ("Definition at line 211 of file
 * value.h.", "Referenced by …"): JsonCpp's members without a description had no other text, and
 * ranked first by them. ("More..." links go wherever they point: doxygenPage.)
 */
const DOXYGEN_CHROME =
  '#top, #MSearchSelectWindow, #MSearchResultsWindow, #side-nav, #nav-path, div.navpath, div.summary, span.permalink, div.ttc, div.levels, hr.footer, address.footer, p.definition, p.reference';

/** A file's link to its highlighted source, a page that is not served (DOXYGEN_INDEX). */
const DOXYGEN_SOURCE_LINK = /^Go to the source code of this file\.$/;

/** Doxygen's last line of a class's page, over the list of its header files. */
const DOXYGEN_SOURCES =
  /^\s*The documentation for this \w+ was generated from the following files?:/;

/**
 * Doxygen's indexes, by their files: of every global and member (`globals_func.html`,
 * `functions_vars.html`), every class (`classes.html`) and the class hierarchy, each class's list of
 * all its members (`structfoo-members.html`), each folder (`dir_4fef….html`), and its highlighted
 * source files (`json_8h_source.html`: code, not docs). Only a page Doxygen wrote is matched.
 */
const DOXYGEN_INDEX =
  /(^|[\\/])((globals|functions|namespacemembers)(_[\w~]+)?|classes|hierarchy|inherits|\w+-members|\w+_source|dir_[0-9a-f]{32})\.html$/i;

/**
 * A GTK-Doc page (GLib's, GTK's reference manuals) as its docs. Its title is the reference
 * entry's own ("Arrays": the `<title>` adds "GLib Reference Manual"), and the manual's title on
 * its home page, both in a `table.navigation` whose other copies, the bar of "Top | Description"
 * and Home, Up, Prev and Next icons over each page, go, as do the rules between members. So does a
 * page's summary of its functions and types when the page details them (a "Functions" heading
 * twice). A code example, a table of
 * its line numbers beside its code, is the code; the rows of a function's parameters, a struct's
 * fields and an enum's values (name, description, annotations) are a list, as Doxygen's are.
 */
function gtkdocPage(tree: Element): void {
  const details = select('a[name$=".functions_details"], a[name$=".other_details"]', tree);
  prune(
    tree,
    (node) =>
      (matches('table.navigation', node) && !select('p.title', node)) ||
      node.tagName === 'hr' ||
      (details !== undefined &&
        matches('div.refsect1', node) &&
        Boolean(select('a[name$=".functions"], a[name$=".other"]', node))),
  );
  for (const bar of selectAll('table.navigation', tree))
    Object.assign(bar, element('h1', [text(plainText(select('p.title', bar)!))]));
  for (const names of selectAll('div.refnamediv', tree)) {
    const title = select('.refentrytitle', names);
    const purpose = select('p', names);
    Object.assign(
      names,
      element('div', [
        ...(title ? [element('h1', [text(plainText(title))])] : []),
        ...(purpose ? [purpose] : []),
      ]),
    );
  }
  for (const listing of selectAll('table.listing_frame', tree)) {
    const code = select('td.listing_code pre', listing);
    if (code) Object.assign(listing, codeBlock(hastText(code).replace(/\n$/, '')));
  }
  for (const table of selectAll('table.informaltable', tree)) {
    const rows = selectAll('tr', table).filter((row) => select('td[class$="_name"]', row));
    if (!rows.length) continue;
    const items = rows.map((row) => {
      const name = select('td[class$="_name"]', row)!;
      const description = select('td[class$="_description"]', row);
      const annotations = select('td[class$="_annotations"]', row);
      // A description of one paragraph is the paragraph's words, on the item's line.
      const [only, ...more] =
        description?.children.filter((node) => node.type !== 'text' || node.value.trim()) ?? [];
      const words =
        only && !more.length && isElement(only) && only.tagName === 'p'
          ? only.children
          : (description?.children ?? []);
      const said = description && plainText(description) ? words : [];
      return namedItem(name, said, { after: annotations ? plainText(annotations) : '' });
    });
    Object.assign(table, element('ul', items));
  }
}

/**
 * An RDoc page (its Darkfish theme) as its docs: each method's `div.method-heading`
 * ("backend_traits(basebackend = nil)") is a heading at the method's anchor
 * (`method-i-backend_traits`), under its group's ("Public Instance Methods"). Its "click to toggle
 * source" label goes, and so do its source, which the page shows only on that click, and its
 * "Calls superclass method" label. Before, a class page was one section, each method a line of
 * text followed by its source.
 */
function rdocPage(tree: Element): void {
  prune(tree, (node) =>
    matches('.method-click-advice, .method-source-code, .method-calls-super', node),
  );
  for (const detail of selectAll('div.method-detail', tree)) {
    const heading = detail.children.find(
      (child): child is Element => isElement(child) && classesOf(child).includes('method-heading'),
    );
    if (!heading) continue;
    const { id } = detail.properties;
    detail.properties = {};
    const text = { type: 'text', value: plainText(heading) } as const;
    Object.assign(heading, element('h4', [text], typeof id === 'string' ? { id } : {}));
  }
}

/**
 * A section's own header holds its heading (RDoc's `<section><header><h3>Public Instance
 * Methods</h3></header>`): it is the section's, not a page header, which is chrome (a header
 * without the page's <h1> is dropped), and stays as what it holds.
 */
function sectionHeadersKept(tree: Element): void {
  for (const header of selectAll('section > header', tree))
    if (select('h2, h3, h4, h5, h6', header)) header.tagName = 'div';
}

/**
 * A list whose every item is sections is the page's outline, not a list: Javadoc writes each
 * summary, each member's details and the lists of them as `<ul><li><section>`, and a class page
 * was one section, its 238 members' headings list items. Its comments go too ("<!-- ====
 * METHOD DETAIL ==== -->" was in its Markdown).
 */
function sectionListsUnwrapped(tree: Element): void {
  const isSectionItem = (node: ElementContent) =>
    isBlank(node) ||
    (isElement(node) &&
      node.tagName === 'li' &&
      node.children.some((child) => isElement(child) && child.tagName === 'section') &&
      node.children.every(
        (child) =>
          isBlank(child) ||
          child.type === 'comment' ||
          (isElement(child) && child.tagName === 'section'),
      ));
  const visit = (node: Element) => {
    node.children = node.children.flatMap((child): ElementContent[] => {
      if (child.type === 'comment') return [];
      if (!isElement(child)) return [child];
      visit(child);
      const outline =
        (child.tagName === 'ul' || child.tagName === 'ol') &&
        child.children.some(isElement) &&
        child.children.every(isSectionItem);
      return outline
        ? child.children.flatMap((item) => (isElement(item) ? item.children : []))
        : [child];
    });
  };
  visit(tree);
}

/**
 * A list item that is only a list of one item is that item: Celery's settings list each backend
 * as a definition list of one term in an item of its own, read as "* * `rpc` – Send results back…"
 * once its term is on its definition's line.
 */
function singleItemListsUnwrapped(tree: Element): void {
  // Innermost first: "P. L. Lim" is two lists of one letter.
  for (const item of selectAll('li', tree).reverse()) {
    const inner = item.children.filter((node) => !isBlank(node));
    const only = inner.length === 1 && isElement(inner[0]!) ? inner[0] : undefined;
    if (!only || (only.tagName !== 'ul' && only.tagName !== 'ol')) continue;
    const items = only.children.filter((node) => !isBlank(node));
    const first = items.length === 1 && isElement(items[0]!) ? items[0] : undefined;
    if (first?.tagName !== 'li') continue;
    item.children = first.children;
    // An item of a numbered list keeps its number: docutils reads a name's initial as one
    // ("R. Alex Matevish" among pytest's contributors, a list of letters from R).
    if (only.tagName === 'ol') {
      const start = Number(only.properties.start ?? 1) || 1;
      const classes = classesOf(only);
      const marker = classes.includes('upperalpha')
        ? String.fromCharCode(64 + start)
        : classes.includes('loweralpha')
          ? String.fromCharCode(96 + start)
          : String(start);
      const lead = item.children.find(isElement);
      const holder = lead?.tagName === 'p' ? lead : item;
      holder.children.unshift({ type: 'text', value: `${marker}. ` });
    }
  }
}

/**
 * A definition's classifier after its term, as docutils' style sheet shows it (`case : string`):
 * the two are side by side in the markup, and Pygments' filter options read "casestring".
 */
function classifiersApart(tree: Element): void {
  for (const term of selectAll('dt', tree))
    term.children = term.children.flatMap((child): ElementContent[] =>
      isElement(child) && classesOf(child).includes('classifier')
        ? [{ type: 'text', value: ' : ' }, child]
        : [child],
    );
}

/**
 * The type of each parameter in Sphinx's field lists (`**args** (Optional[Union[str, …]]) – …`) as
 * one piece of code. Sphinx writes it as a run of `<em>` pieces and links, one per name and
 * bracket, which came out as `([*Optional*](…)*\[*[*Union*](…)*\[*…` in every answer and page.
 */
function fieldTypesAsCode(tree: Element): void {
  for (const paragraph of selectAll('dl.field-list p', tree)) {
    const children = paragraph.children;
    const name = children.findIndex((node) => isElement(node) && node.tagName === 'strong');
    const open = children[name + 1];
    if (name < 0 || open?.type !== 'text' || !/^\s*\($/.test(open.value)) continue;
    const close = children.findIndex(
      (node, at) => at > name + 1 && node.type === 'text' && node.value.includes(')'),
    );
    if (close < 0) continue;
    const closing = children[close] as { type: 'text'; value: string };
    const cut = closing.value.indexOf(')');
    const type = children
      .slice(name + 2, close)
      .map((node) => hastText(node))
      .join('')
      .concat(closing.value.slice(0, cut))
      .replace(/\s+/g, ' ')
      .trim();
    if (!type) continue;
    paragraph.children = [
      ...children.slice(0, name + 2),
      inlineCode(type),
      { type: 'text', value: closing.value.slice(cut) },
      ...children.slice(close + 1),
    ];
  }
}

/**
 * A list item that is only a link to a page Sphinx generates and the site does not serve
 * (GENERATED_PAGES): the "Index", "Module Index" and "Search Page" under "Indices and tables",
 * which stayed as bare words once their links went (factory_boy's home page ended on them).
 */
const isGeneratedIndexItem = (node: Element) => {
  if (node.tagName !== 'li') return false;
  const links = selectAll('a[href]', node);
  return (
    links.length === 1 &&
    GENERATED_PAGES.test(String(links[0]!.properties.href)) &&
    hastText(node).trim() === hastText(links[0]!).trim()
  );
};
/** A list of such items alone. */
const isGeneratedIndexList = (node: Element) => {
  const items = node.children.filter(isElement);
  return /^[ou]l$/.test(node.tagName) && items.length > 0 && items.every(isGeneratedIndexItem);
};
/**
 * sphinx-quickstart's "Indices and tables": its heading and such lists alone. Not every section of
 * a heading alone: autodoc writes a module's entries after the section of its title (cmd2's API
 * pages).
 */
const isGeneratedIndexSection = (node: Element) =>
  node.tagName === 'section' &&
  node.properties.id === 'indices-and-tables' &&
  node.children
    .filter(isElement)
    .every((child) => /^h[1-6]$/.test(child.tagName) || isGeneratedIndexList(child));

/**
 * A Sphinx theme's link to the next or previous page inside the page's body (gevent's "**Next
 * page: `gevent` – common functions**" closed every page): navigation, as the related bar is.
 */
const isNextPageLink = (node: Element) =>
  node.tagName === 'p' &&
  /^\s*(?:next|previous) (?:page|topic|chapter)\s*:/i.test(hastText(node)) &&
  Boolean(select('a[title="next chapter"], a[title="previous chapter"]', node));

/**
 * What Python gives every class, which autodoc documents for some: `__weakref__`, "list of weak
 * references to the object (if defined)". pyparsing's API page had ten of them, each a section.
 */
const BOILERPLATE_MEMBER = /\.(?:__weakref__|__dict__)$/;
const isBoilerplateEntry = (node: Element) => {
  if (!isApiEntry(node)) return false;
  const [term, description] = node.children.filter(isElement);
  return (
    BOILERPLATE_MEMBER.test(String(term!.properties.id)) &&
    description?.tagName === 'dd' &&
    /^(?:list of weak references to the object|dictionary for instance variables) \(if defined\)$/.test(
      hastText(description).trim(),
    )
  );
};

/** The `<dt>` of a Sphinx API entry's signature, when `node` is such an entry's `<dl>`. */
const signatureTermOf = (node: Element) => {
  const term = node.tagName === 'dl' ? node.children.find(isElement) : undefined;
  return term?.tagName === 'dt' && classesOf(term).includes('sig') ? term : undefined;
};
/** A Sphinx API entry: a `<dl>` whose first `<dt>` is a signature with an anchor. */
const isApiEntry = (node: Element) => typeof signatureTermOf(node)?.properties.id === 'string';

/** An API entry Sphinx gave no anchor: a member described twice (WTForms' `Field.errors`). */
const isUnanchoredEntry = (node: Element) => {
  const term = signatureTermOf(node);
  return term !== undefined && term.properties.id === undefined;
};

/** A paragraph's one bold element, when the paragraph is bold throughout ("**Properties**"). */
const boldThroughout = (node: Element): Element | undefined => {
  if (node.tagName !== 'p') return undefined;
  const [only, ...more] = node.children.filter((child) => !isBlank(child));
  return !more.length && only && isElement(only) && only.tagName === 'strong' ? only : undefined;
};

/**
 * Sphinx's `.. rubric::`, a paragraph heading that is no section, or a paragraph that is bold
 * throughout written as one (WTForms' "**Construction**", "**Properties**" among `Field`'s members).
 */
const isRubric = (node: Element) =>
  (node.tagName === 'p' && classesOf(node).includes('rubric')) ||
  boldThroughout(node) !== undefined;

const isSection = (node: ElementContent) => isElement(node) && node.tagName === 'section';
/** A callout, or Sphinx's "New in version" and "Deprecated" notes. */
const isNote = (node: ElementContent): node is Element =>
  isElement(node) &&
  node.tagName === 'div' &&
  classesOf(node).some((name) =>
    /^(?:admonition|versionadded|versionchanged|versionmodified|deprecated)$/.test(name),
  );

/** Nothing to read: blank text, a comment, or an element without text or media (Sphinx's `<span class="target">` anchors). */
const isBlank = (node: ElementContent) =>
  node.type === 'comment' ||
  (node.type === 'text'
    ? !node.value.trim()
    : isElement(node) && !hastText(node).trim() && !select('img, svg, video, iframe', node));

/**
 * sphinx-click writes each command-line option as an API entry with an empty `<dd>` and its
 * description in the paragraph after it (cookiecutter's "Command Line Options": `-V, --version`,
 * then "Show the version and exit."). That paragraph is the entry's: it moves into the `<dd>`, so the
 * option and what it does are read, quoted and cited together.
 */
function emptyEntriesTakeTheirText(tree: Element): void {
  const { children } = tree;
  for (let at = 0; at < children.length; at++) {
    const child = children[at]!;
    if (!isElement(child)) continue;
    // Options only: an autodoc member without a docstring is followed by its class's own prose.
    const descriptions =
      isApiEntry(child) && classesOf(child).includes('option')
        ? child.children.filter((node): node is Element => isElement(node) && node.tagName === 'dd')
        : [];
    const last = descriptions.at(-1);
    if (!last || !descriptions.every((dd) => dd.children.every(isBlank))) {
      emptyEntriesTakeTheirText(child);
      continue;
    }
    let next = at + 1;
    while (next < children.length && isBlank(children[next]!)) next++;
    const text = children[next];
    if (text && isElement(text) && text.tagName === 'p') {
      last.children = [text];
      children.splice(next, 1);
    }
  }
}

/** An API entry's own name (`delete_s` of `LDAPObject.delete_s(dn)`), when it has one. */
const entryName = (node: Element): string | undefined => {
  const term = signatureTermOf(node);
  const name = term && select('.sig-name', term);
  return name ? hastText(name).trim() : undefined;
};
/** An entry autodoc wrote with a link to its own source (viewcode's "[source]"): a function of its own. */
const hasSource = (node: Element) => select('.viewcode-link', signatureTermOf(node)!) !== undefined;
/** An API entry with no text: its `<dd>` empty. */
const isEmptyEntry = (node: Element) =>
  node.children.every(
    (child) => !isElement(child) || child.tagName !== 'dd' || child.children.every(isBlank),
  );
/** An API entry's first parameter's name (`dn`), without its type or default. */
const firstParameter = (node: Element): string | undefined => {
  const term = signatureTermOf(node);
  const parameter = term && select('.sig-param', term);
  return parameter ? hastText(parameter).split(/[:=]/)[0]!.trim() || undefined : undefined;
};

/**
 * Variants of one call written as entries of their own, each with an empty `<dd>`, the last one
 * described (python-ldap's `delete`, `delete_s`, `delete_ext`, then `delete_ext_s` with the text):
 * one entry, its signatures lines of their own (their anchors kept), so a question about
 * `delete_s` reads the text that describes it. Only names that begin with the first one's and
 * take the same first parameter: an undescribed member before a described one is another
 * function (Celery's `Logging.setup(loglevel, …)` before `setup_handlers(logger, …)`), and so is
 * one autodoc wrote with its source beside it (Celery's `Step.include` before `include_if`).
 */
function variantsJoinTheirDescription(tree: Element): void {
  const entries = tree.children.filter(isElement);
  for (const child of entries) variantsJoinTheirDescription(child);
  for (let at = 0; at < entries.length; at++) {
    const first = entries[at]!;
    const stem = isApiEntry(first) ? entryName(first) : undefined;
    const parameter = stem ? firstParameter(first) : undefined;
    if (!stem || !parameter || hasSource(first)) continue;
    const kind = classesOf(first).join(' ');
    const sameCall = (node: Element) =>
      isApiEntry(node) &&
      !hasSource(node) &&
      classesOf(node).join(' ') === kind &&
      entryName(node)?.startsWith(`${stem}_`) === true &&
      firstParameter(node) === parameter;
    let end = at;
    while (isEmptyEntry(entries[end]!) && entries[end + 1] && sameCall(entries[end + 1]!)) end++;
    if (end === at || isEmptyEntry(entries[end]!)) continue;
    const described = entries[end]!;
    const variants = entries.slice(at, end);
    described.children = [
      ...variants.flatMap((node) =>
        node.children.filter((child) => isElement(child) && child.tagName === 'dt'),
      ),
      ...described.children,
    ];
    tree.children = tree.children.filter((child) => !variants.includes(child as Element));
    at = end;
  }
}

/**
 * A rubric that heads no API entries bold, as Sphinx shows it: as a plain line, bottle's "About the
 * Autor" read as a sentence of the page (and described it in `llms.txt`), and "Examples" over a
 * docstring's code as text of its own.
 */
function rubricsAsBold(tree: Element): void {
  for (const node of selectAll('p.rubric', tree))
    if (!boldThroughout(node) && !isBlank(node))
      node.children = [
        { type: 'element', tagName: 'strong', properties: {}, children: node.children },
      ];
}

/** An API entry's signature as a line of code under its heading, keeping its `<dt>`'s anchor. */
const signatureLine = (text: string, id?: unknown): Element =>
  element('p', [inlineCode(text)], typeof id === 'string' && id ? { id } : {});

/**
 * Sphinx's API entries (autodoc's `<dl class="py function">`, a class's methods nested in its
 * `<dd>`, and the same for the other domains) as sections of their own: each entry's `<dt id>`
 * becomes a heading named by the entry (`click.testing.CliRunner.invoke`) with that anchor, its
 * signature a line of code under it, and its `<dd>` the section's text. As a definition list the
 * whole API page was one section per heading (Click's "Decorators": thirteen functions), so a
 * question about one function was answered from all of them, and its link did not lead to it.
 */
function apiEntriesAsHeadings(tree: Element, depth = 4): void {
  // Only the entries that end their run of the section (up to a heading): a paragraph after an
  // entry belongs to the section the entries sit in, and under the entry's heading it read as the
  // entry's (Jinja's "Here a recommended setup that enables autoescaping…", cited as
  // `jinja2.select_autoescape`). Entries before such prose stay a definition list in their section;
  // those after the last of it (Celery's `crontab` methods, after a note on its attributes) are
  // each a section.
  // A note that closes a run of entries (werkzeug's "Information" box after `run_simple` and two
  // more functions) is the section's too, but no reason to leave the entries a list: it moves
  // above them, and they are sections.
  const asHeadings = new Set<Element>();
  const notesBefore = new Map<Element, Element[]>();
  const moved = new Set<Element>();
  let run: Element[] = [];
  const endRun = () => {
    let end = run.length;
    while (end > 0 && [isBlank, isNote, isSection].some((is) => is(run[end - 1]!))) end--;
    const notes = run.slice(end).filter(isNote);
    const prose = run
      .slice(0, end)
      .findLastIndex(
        (node) =>
          !(
            isApiEntry(node) ||
            isUnanchoredEntry(node) ||
            isSection(node) ||
            isBlank(node) ||
            isNote(node)
          ),
      );
    const entries = run.slice(prose + 1, end).filter(isApiEntry);
    for (const node of entries) asHeadings.add(node);
    if (entries.length && notes.length) {
      notesBefore.set(entries[0]!, notes);
      for (const note of notes) moved.add(note);
    }
    run = [];
  };
  // A rubric that names the entries after it (psycopg2's "Two-phase commit support methods" among
  // `connection`'s methods, sphinx-quickstart's "Structure Options") heads them as a heading would:
  // as prose, it left every entry before it a list item of one long section. Only paragraphs and
  // notes may come between; a rubric before code or a field list is a docstring's "Example".
  const elements = tree.children.filter(isElement);
  const between = (node: Element): boolean => node.tagName === 'p' || isBlank(node) || isNote(node);
  const groups = new Set(
    elements.filter((node, at) => {
      const next = elements.slice(at + 1).find((later) => !between(later));
      return isRubric(node) && next !== undefined && isApiEntry(next);
    }),
  );
  for (const node of elements)
    if (/^h[1-6]$/.test(node.tagName) || groups.has(node)) endRun();
    else run.push(node);
  endRun();
  tree.children = tree.children.flatMap((child): ElementContent[] => {
    if (!isElement(child)) return [child];
    if (moved.has(child)) return [];
    if (groups.has(child)) {
      // A bold paragraph's words, not its bold: the heading is the emphasis.
      const bold = classesOf(child).includes('rubric') ? undefined : boldThroughout(child);
      const words = bold ? bold.children : child.children;
      return [{ ...child, tagName: `h${Math.min(depth, 6)}`, properties: {}, children: words }];
    }
    if (!isApiEntry(child)) {
      // A heading in a table's cell is no section: Markdown's cells hold a line. Nor is one in a
      // quote (aiohttp's `AioHTTPTestCase` indents its members in a blockquote: "> ##### …").
      if (child.tagName !== 'table' && child.tagName !== 'blockquote')
        apiEntriesAsHeadings(child, depth);
      return [child];
    }
    if (!asHeadings.has(child)) return [child];
    const notes = notesBefore.get(child) ?? [];
    const terms = child.children.filter(isElement);
    const term = terms[0]!;
    const id = term.properties.id as string;
    // A C++ template's parameters come first, on a line of their own (`template<typename T>`, a
    // `<br>`), each named as the entry is: the entry's name is after them.
    const lines = term.children.filter((node) => isElement(node) && node.tagName === 'br');
    const head = lines.length > 1 ? term.children.indexOf(lines[0]!) : -1;
    const own = head < 0 ? term : { ...term, children: term.children.slice(head + 1) };
    const template = head < 0 ? '' : plainText({ ...term, children: term.children.slice(0, head) });
    const signature = template ? `${template} ${plainText(own)}` : plainText(term);
    const named = ['.sig-prename', '.sig-name'].map((part) => select(part, own));
    // An option's names and argument (`-V, --version`, `-H <project>`, whose argument Sphinx marks
    // up as the prefix) are all of it; a function's is its prefix and name.
    const name =
      classesOf(child).includes('option') || selectAll('.sig-name', own).length > 1
        ? signature
        : named.some(Boolean)
          ? named.map((part) => (part ? hastText(part) : '')).join('')
          : hastText(term);
    // A method's own name (`invoke`) says less than its id (`click.testing.CliRunner.invoke`). Not
    // a C or C++ entry's: its id is mangled (`_CPPv4N3fmt6formatE…`, `c.FMT_COMPILE`).
    const mangled = classesOf(child).some((name) => name === 'c' || name === 'cpp');
    const title =
      !mangled && /^[\w.]+$/.test(id) && id.endsWith(name.replace(/^.*\./, '')) ? id : name.trim();
    const level = `h${Math.min(depth, 6)}`;
    const out: ElementContent[] = [
      ...notes,
      {
        type: 'element',
        tagName: level,
        properties: { id },
        children: [{ type: 'text', value: title }],
      },
    ];
    // The signature under the heading, unless it is the heading (an option's `--no-input`).
    if (signature !== title) out.push(signatureLine(signature));
    for (const part of terms.slice(1)) {
      // An overloaded function's other signatures (Scrapy's `re_first`), each a line of its own.
      if (part.tagName === 'dt') out.push(signatureLine(plainText(part), part.properties.id));
      if (part.tagName !== 'dd') continue;
      apiEntriesAsHeadings(part, depth + 1);
      out.push(...part.children);
    }
    return out;
  });
}

/**
 * Every heading's anchor, in document order, and the page's other link targets, each with the
 * anchor of the heading it belongs to: Sphinx labels every section and setting with an empty
 * `<span id>` (`std-setting-task_acks_late`, `calling-basics`) just before its heading, and its
 * links point there, not at the heading. A target comes before the text it marks: it belongs to the
 * next heading when no text comes first, else to the heading whose section it is in. The pages
 * under `/docs` give each heading the targets that belong to it (render.ts), so those links land.
 */
function headingTargets(tree: Element): { anchors: string[]; aliases: Record<string, string> } {
  const anchors: string[] = [];
  const aliases: Record<string, string> = {};
  let pending: string[] = [];
  /** Whether the first heading is the page's title (an <h1>): the page's top, anchor "". */
  let titled = false;
  const settle = () => {
    const anchor = titled && anchors.length === 1 ? '' : anchors.at(-1);
    if (anchor !== undefined && (anchor || titled))
      for (const id of pending) if (id !== anchor) aliases[id] ??= anchor;
    pending = [];
  };
  const walk = (node: Element) => {
    for (const child of node.children) {
      if (child.type === 'text') {
        if (child.value.trim()) settle();
        continue;
      }
      if (!isElement(child)) continue;
      const id = child.properties.id;
      if (typeof id === 'string' && id) pending.push(id);
      if (!/^h[1-6]$/.test(child.tagName)) {
        walk(child);
        continue;
      }
      let anchor = anchorOf(child, node);
      // A heading without an anchor of its own takes the target right before it: Texinfo's node
      // (`<div class="section" id="Binary">`), to which the manual's links lead.
      if (!anchor && pending[0]) child.properties.id = anchor = pending[0];
      anchors.push(anchor);
      if (anchors.length === 1) titled = child.tagName === 'h1';
      // Targets inside the heading are its own.
      for (const inner of selectAll('[id]', child))
        if (inner !== child) pending.push(String(inner.properties.id));
      settle();
    }
  };
  walk(tree);
  // A heading's own anchor is no other heading's target; the title's leads to the page's top, as
  // its labels do (pytest's `<span id="parametrize">` before its <h1>, which other pages link to).
  for (const anchor of anchors.slice(titled ? 1 : 0)) delete aliases[anchor];
  if (titled && anchors[0]) aliases[anchors[0]] = '';
  return { anchors, aliases };
}

/**
 * A heading's link to its own line in the contents (texi2html's `<h2><a href="gettext_toc.html#TOC191">`):
 * the heading's text, not a link. As a link, the page's title read as another heading.
 */
const CONTENTS_LINK = 'a[href*="#TOC"]';

/**
 * A heading whose text is its own self-link (Python-Markdown's `toc` with `anchorlink`, as Django
 * REST framework's MkDocs build writes every heading) keeps the text, not the link: drawn as a
 * link, every heading of the served page read as one. Its anchor is read first (headingTargets).
 */
function unwrapHeadingLinks(tree: Element): void {
  for (const child of tree.children) {
    if (!isElement(child)) continue;
    if (!/^h[1-6]$/.test(child.tagName)) unwrapHeadingLinks(child);
    else
      child.children = child.children.flatMap((node) =>
        isElement(node) && matches(`${SELF_LINK}, ${CONTENTS_LINK}`, node) ? node.children : [node],
      );
  }
}

const hasContent = (node: Element) => Boolean(select('h1, h2, h3, p, pre, table, li', node));

/** The served path a built file answers at: `a/index.html` → `/a/`, `a/b.html` → `/a/b.html`. */
export function servedPathOf(file: string): string {
  const path = '/' + file.split(sep).join('/');
  return path.replace(/(^|\/)index\.html?$/i, '$1');
}

/** The first path segment when it names a version (`v2`, `2.x`, `1.4`, `next`). */
const versionOf = (file: string) =>
  /^(v\d+(?:\.\d+)*|\d+\.(?:\d+|x)(?:\.\d+)*|next)$/i.exec(file.split(/[\\/]/)[0] ?? '')?.[1];

/** `<html lang="pt-BR">` → `pt-br`; else a leading `fr/` segment of the path. */
function languageOfPage(root: HastRoot, file: string, fallback: string): string {
  const html = root.children.find(isElement);
  const lang = html?.properties.lang;
  if (typeof lang === 'string' && lang.trim()) return lang.trim().toLowerCase();
  const segment = /^([a-z]{2}(?:-[a-z]{2})?)$/i.exec(file.split(/[\\/]/)[0] ?? '')?.[1];
  return segment?.toLowerCase() ?? fallback;
}

/** How much of a file is read to tell whether it is binary. */
const BINARY_PROBE = 8000;
/** Whether a file is binary: more than one NUL in a thousand of its first characters. */
function isBinary(text: string): boolean {
  const probe = text.slice(0, BINARY_PROBE);
  let nuls = 0;
  for (let at = probe.indexOf('\u0000'); at >= 0; at = probe.indexOf('\u0000', at + 1)) nuls++;
  return nuls > probe.length / 1000;
}

/**
 * One built HTML page as the same page model a Markdown page gives (sections per heading, code,
 * tables), or why it is not a docs page. The page keeps its served URL as its `permalink` (the
 * `<link rel=canonical>` path when the build gives one), so citations link to what the build serves.
 */
export function parseHtmlPage(
  file: string,
  html: string,
  defaultLanguage = DEFAULT_LANGUAGE,
  /** How the page's Markdown is parsed (`parsePage`'s `tree`). */
  { tree }: Pick<PageParseOptions, 'tree'> = {},
): DocPage | Skipped {
  // parse5 reads any bytes; a file of NULs and noise (an image saved as .html) would come out as
  // garbage. A NUL or two in text are stray ones (Javadoc writes `CharUtils.NUL`'s own character),
  // dropped as browsers do: the whole page had been left out.
  if (isBinary(html)) return { skipped: 'not HTML text (it holds binary bytes)' };
  const root = fromHtml(html.includes('\u0000') ? html.replaceAll('\u0000', '') : html);
  // Texinfo writes its `Refresh` capitalised (Diffutils' manual: 89 of its 112 files redirect).
  const refresh = selectAll('meta', root).find(
    (meta) => String(meta.properties.httpEquiv ?? '').toLowerCase() === 'refresh',
  )?.properties.content;
  if (refresh !== undefined) {
    const redirect = /url\s*=\s*['"]?([^'"]+)/i.exec(String(refresh))?.[1]?.trim();
    return { skipped: 'a redirect', ...(redirect ? { redirect } : {}) };
  }
  if (/(^|\/)404\.html?$/i.test(file)) return { skipped: 'the not-found page' };
  // Node.js's API docs also print the whole manual on one page (`all.html`, 5.8 MB): its copies of
  // every section were cited before the modules' own.
  if (select('body#api-section-all', root)) return { skipped: 'every page again on one page' };
  // The tools its `<meta name="generator">` name: some are read in ways of their own.
  const generators = generatorsOf(root);
  const madeBy = (tool: RegExp) => generators.some((generator) => tool.test(generator));
  const doxygen = madeBy(/^doxygen\b/i);
  if (doxygen && DOXYGEN_INDEX.test(file)) return { skipped: "Doxygen's index", quiet: true };
  const gtkdoc = madeBy(/^gtk-doc\b/i);
  // GTK-Doc's index of every symbol (`api-index-full.html`, `api-index-2-74.html`): links alone.
  if (gtkdoc && /(^|[\\/])api-index-[\w-]+\.html$/.test(file))
    return { skipped: "GTK-Doc's index", quiet: true };
  const main = MAIN_CANDIDATES.map((selector) => select(selector, root)).find(
    (node): node is Element => node !== undefined && hasContent(node),
  );
  if (!main) return { skipped: 'no headings, paragraphs, lists, tables or code' };
  // The home page's navigation, in its order: the site's own reading order (inReadingOrder).
  const navigation = servedPathOf(file) === '/' ? navigationOf(root) : [];
  const content = structuredClone(main);
  if (madeBy(/^javadoc\b/i)) javadocPage(content);
  const groff = madeBy(/^groff\b/i);
  if (groff) groffContentsDropped(content);
  if (doxygen) doxygenPage(content);
  if (gtkdoc) gtkdocPage(content);
  // A DocBook chunk's title is the first heading of its title page, an <h2> for a section
  // (PostgreSQL's "21.1. The pg_hba.conf File"): as an <h2> under the `<title>`'s words, each page
  // had its title twice.
  const chunkTitle = madeBy(/^docbook xsl/i) && !select('h1', content);
  const titlePage = chunkTitle ? select('div.titlepage :is(h2, h3)', content) : undefined;
  if (titlePage) titlePage.tagName = 'h1';
  if (select('div.method-detail > div.method-heading', content)) rdocPage(content);
  sectionListsUnwrapped(content);
  sectionHeadersKept(content);
  footnotesAsParagraphs(content);
  targetsWithoutLinks(content);
  headingsNamedBySelfLinks(content);
  // Before the "[source]" links go: they tell autodoc's members from a call's variants.
  variantsJoinTheirDescription(content);
  prune(
    content,
    (node, next) =>
      matches(CHROME, node) ||
      isContentsHeading(node, next) ||
      (node.tagName === 'header' && !select('h1', node)) ||
      (node.tagName === 'a' && EDIT_LINK.test(hastText(node))) ||
      // Sphinx viewcode's "[source]" links lead into `_modules/`, which is not served (NOT_PAGES).
      (node.tagName === 'a' && Boolean(select('.viewcode-link', node))) ||
      isBuildStamp(node) ||
      isBuildError(node) ||
      isGeneratorStamp(node) ||
      isNavigationTable(node) ||
      isBoilerplateEntry(node) ||
      isNextPageLink(node) ||
      isGeneratedIndexSection(node) ||
      isGeneratedIndexList(node) ||
      isGeneratedIndexItem(node),
  );
  // Heading self-links (VitePress's `#`, Sphinx's `¶`, Starlight's icon beside the heading) once
  // their screen-reader text is gone: a symbol, not words.
  prune(content, (node) => matches(SELF_LINK, node) && !hastText(node).replace(SYMBOLS, ''));
  mendBrokenMarkup(content);
  rulesBeforeTextDropped(content);
  superscriptsAsPowers(content);
  admonitionTablesAsCallouts(content);
  calloutTitlesAsLabels(content);
  titleFirst(content);
  unwrapIndentation(content);
  typedLinesAsCode(content);
  normaliseCode(content);
  adjacentCodeJoined(content);
  spacesOutOfEmphasis(content);
  fieldTypesAsCode(content);
  classifiersApart(content);
  layoutTablesAsBlocks(content);
  tablesWithBlocksAsLists(content);
  firstRowAsHeader(content);
  cellsOnOneLine(content);
  glossaryTermsTogether(content);
  shortDefinitionsOnOneLine(content);
  singleItemListsUnwrapped(content);
  emptyEntriesTakeTheirText(content);
  apiEntriesAsHeadings(content);
  rubricsAsBold(content);
  const { anchors, aliases } = headingTargets(content);
  unwrapHeadingLinks(content);
  titlesThatRepeatText(content);
  // `<wbr>` (TypeDoc's long names) becomes a zero-width space: no reader types one into a question.
  const markdown = toMarkdown(toMdast(content), { extensions: [gfmToMarkdown()] }).replace(
    /\u200b/g,
    '',
  );
  const textOf = (node: Element | undefined) =>
    node
      ? hastText(node)
          .replace(/\u200b/g, '')
          // Runs of spaces as one (SQLAlchemy's "Appendix:  Copyright").
          .replace(/\s+/g, ' ')
          .trim()
      : '';
  const fullTitle = textOf(select('title', root));
  // The `<title>`'s first part is the page's (`Intro — Acme documentation`). Neither names the page
  // when it has no letter or digit (a stray `<h1>)</h1>`) or is Sphinx's `<no title>`: the page is
  // then titled by its Markdown's first heading or its file's name, as a Markdown page would be.
  // Texinfo titles each node's page "Node (Manual)" and writes no <h1> but on the manual's top page.
  const texinfo = madeBy(/makeinfo|texi2any/i) ? TEXINFO_TITLE.exec(fullTitle) : null;
  const ownTitle = [
    textOf(select('h1', content)),
    texinfo?.[1] ?? fullTitle.split(TITLE_PARTS)[0]!.trim(),
  ].find((text) => namesSomething(text) && !/^<no title>$/i.test(text));
  const siteName = texinfo?.[2] ?? siteNameOfPage(root, fullTitle);
  // A manual page groff wrote is titled as manual pages are named, by its file: "NGETTEXT" was the
  // title of both of gettext's `ngettext.1.html` and `ngettext.3.html`; they are "ngettext(1)" and
  // "ngettext(3)".
  const manual = groff ? MANUAL_PAGE.exec(file) : null;
  const title =
    manual && ownTitle?.toLowerCase() === manual[1]!.toLowerCase()
      ? `${manual[1]}(${manual[2]})`
      : ownTitle;
  const canonical = select('link[rel=canonical]', root)?.properties.href;
  let permalink = servedPathOf(file);
  if (typeof canonical === 'string' && canonical) {
    try {
      permalink = new URL(canonical, 'http://site.invalid' + permalink).pathname;
    } catch {
      // An unparseable canonical says nothing: the file's own URL stands.
    }
  }
  const version = versionOf(file);
  // A page built to stay out of search engines (Docusaurus's `unlisted`, a draft) stays out of the
  // sidebar and the assistant's search too, as a Markdown page's `unlisted: true` does (docs.ts).
  const robots = select('meta[name=robots]', root)?.properties.content;
  const frontmatter = {
    ...(typeof robots === 'string' && /\bnoindex\b/i.test(robots) ? { unlisted: true } : {}),
    ...(title ? { title } : {}),
    ...(siteName ? { siteName } : {}),
    permalink,
    language: languageOfPage(root, file, defaultLanguage),
    ...(version ? { version } : {}),
    ...(navigation.length ? { navigation } : {}),
    ...(Object.keys(aliases).length ? { anchorAliases: aliases } : {}),
  };
  const page = parsePage(file, `---\n${toYaml(frontmatter)}---\n\n${markdown}`, defaultLanguage, {
    anchors,
    ...(tree ? { tree } : {}),
  });
  // What the reading order needs of a folder's index page or a page that is only a table of
  // contents, kept in its head (the page cache's), so a start from the cache reads no page's body
  // to order the sidebar (inReadingOrder): the pages its lists link to, in order.
  const contents = page.sections.length > 0 && page.sections.every(isNavigation);
  if (!contents && !INDEX_FILE.test(file)) return page;
  const listed = [...new Set(hrefsIn(listedLines(markdown)).map((href) => href.split('#')[0]!))];
  return {
    ...page,
    frontmatter: {
      ...page.frontmatter,
      listed: listed.filter(Boolean),
      ...(contents ? { contents } : {}),
    },
  };
}

/** A folder's index page's file. */
const INDEX_FILE = /(^|[\\/])index\.html?$/i;
/** The Markdown links' targets in `lines`, in order. */
const hrefsIn = (lines: string[]) =>
  lines.flatMap((line) =>
    [...line.matchAll(/\]\(<?([^)\s>]+)>?(?:\s[^)]*)?\)/g)].map((match) => match[1]!),
  );
/** The lines of `markdown` that are list items. */
const listedLines = (markdown: string) =>
  markdown.split('\n').filter((line) => /^\s*(?:[-*+]|\d+[.)])\s/.test(line));

/** Where a built page lists the site's pages: its navigation landmarks and the themes' bars. */
const NAVIGATION = 'nav, [role=navigation], .navbar, .sphinxsidebar';
/** At most this many of the home page's navigation links are kept (a big site's every page). */
const NAVIGATION_LINKS = 5000;

/** The links of a page's navigation, in document order, each once. */
function navigationOf(root: HastRoot): string[] {
  const hrefs = new Set<string>();
  for (const nav of selectAll(NAVIGATION, root))
    for (const link of selectAll('a[href]', nav)) {
      const href = link.properties.href;
      if (typeof href === 'string' && !href.startsWith('#')) hrefs.add(href);
      if (hrefs.size >= NAVIGATION_LINKS) return [...hrefs];
    }
  return [...hrefs];
}

/** A Texinfo node's `<title>`: "White Space (Comparing and Merging Files)", the node and its manual. */
const TEXINFO_TITLE = /^(.*\S)\s+\(([^()]+)\)$/;
/** A manual page's file: its name and section (`ngettext.3.html`). */
const MANUAL_PAGE = /(?:^|[\\/])([^\\/]+)\.(\d\w*)\.html?$/i;
/** The tools a page's `<meta name="generator">` tags name (makeinfo writes "Generator"). */
const generatorsOf = (root: HastRoot): string[] =>
  selectAll('meta', root)
    .filter((meta) => String(meta.properties.name ?? '').toLowerCase() === 'generator')
    .map((meta) => String(meta.properties.content ?? ''));

/** What separates a page's name from the site's in a `<title>`: `Intro | Acme`, `Intro — Acme documentation`. */
const TITLE_PARTS = /\s+(?:[|·•—–-]|::)\s+/;

/**
 * The site's name as a built page states it: `<meta property="og:site_name">` (Docusaurus,
 * Starlight, most themes), `<meta name="application-name">`, else the last part of a `<title>`
 * made of several (`Introduction | Acme Widgets`, Sphinx's `Intro — Acme Widgets documentation`).
 */
function siteNameOfPage(root: HastRoot, title: string): string | undefined {
  for (const selector of ['meta[property="og:site_name"]', 'meta[name="application-name"]']) {
    const content = select(selector, root)?.properties.content;
    if (typeof content === 'string' && content.trim()) return content.trim();
  }
  const parts = title.split(TITLE_PARTS);
  if (parts.length < 2) return undefined;
  const last = parts.at(-1)!.trim();
  return last.replace(/\s+(documentation|docs)$/i, '').trim() || last;
}

/**
 * The index, module index and search pages Sphinx generates, and Javadoc's index, lists of every
 * class and package, class trees and its help on reading Javadoc: no docs of their own.
 */
const GENERATED_PAGES =
  /(^|[\\/])(genindex|search|py-modindex|index-all|allclasses-index|allpackages-index|overview-tree|package-tree|package-use|help-doc)\.html$/i;
/**
 * Folders of a build that hold the generator's own assets or search index, never pages, and
 * Sphinx's and Javadoc's highlighted source files (viewcode's `_modules/`, `src-html/`: code, not
 * docs), Javadoc's "Uses of Class" pages and split index; and the generated pages.
 */
const NOT_PAGES = new RegExp(
  `(^|[\\\\/])(_astro|assets|_static|_sources|_modules|_next|pagefind|search|src-html|class-use|index-files)([\\\\/]|$)|${GENERATED_PAGES.source}`,
  'i',
);

/**
 * A folder the generator keeps apart from the pages, by its leading "_": a Sphinx build's
 * `_snippets/` holds fragments other pages include (aiohttp's), built as pages of their own only
 * by accident; listed, one made a sidebar group "Snippets".
 */
const PRIVATE_FOLDER = /(?:^|\/)(_[^/]+)\//;

/** A built page's file: `.html`, or `.html.gz` as Debian compresses long ones (read as `.html`). */
const BUILT_PAGE = /\.html?(\.gz)?$/i;

/** Whether a file of a build is read: a page or an asset the docs serve, outside the generator's own folders. */
const mayBeRead = (name: string) =>
  !NOT_PAGES.test(name) &&
  // A theme's fonts (MkDocs' `fonts/fontawesome-webfont.svg`, linked to Debian's shared copy).
  !/(^|\/)(fonts?|webfonts)\//i.test(name) &&
  (BUILT_PAGE.test(name) || ASSET_EXTENSIONS.test(name) || !/\.\w+$/.test(name));

/**
 * Reads the output folder of a static docs generator: every `.html` page becomes a page with the
 * URL the build serves it at. Pages that are not docs (redirects, the 404 page, search and index
 * pages) or that cannot be read are skipped and named in `skipped`; the rest are served.
 */
export async function loadHtmlSite(
  dir: string,
  defaultLanguage = DEFAULT_LANGUAGE,
  cache?: PageCache,
  store?: PageStore,
  options: LoadOptions = {},
): Promise<{ site: DocsSite; skipped: SkippedPage[] }> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const skipped: SkippedPage[] = [];
  const root = await realpath(dir);
  const files: string[] = [];
  for (const entry of entries) {
    const file = relative(dir, join(entry.parentPath, entry.name));
    if (file.split(sep).some((part) => part.startsWith('.'))) continue;
    if (entry.isFile()) files.push(file);
    // Only a link that would be read (a page, an asset the docs serve, a folder) is named when it
    // is not: the generators' own scripts, styles and fonts are never read, and Debian links each
    // build's (Sphinx's `_static/jquery.js`, MkDocs' `js/`, `css/`, `fonts/`) to one shared copy.
    else if (entry.isSymbolicLink() && mayBeRead(file.split(sep).join('/'))) {
      // A link is read only when it leads to a file inside the site: a build that links out of
      // its folder (to ~/.ssh, /etc) must not publish what it points at.
      const target = await realpath(join(dir, file)).catch(() => undefined);
      const inside = target !== undefined && !relative(root, target).startsWith('..');
      if (inside && (await stat(target)).isFile()) files.push(file);
      else
        skipped.push({
          file: file.split(sep).join('/'),
          reason: target
            ? inside
              ? 'a link to a folder, not read'
              : `a link to ${target}, outside the site folder, not read`
            : 'a link to nothing',
        });
    }
  }
  files.sort();
  const htmlFiles = files.filter((file) => BUILT_PAGE.test(file));
  if (htmlFiles.length === 0)
    throw new Error(
      `No HTML pages (.html) found in ${dir}: give --site the folder your docs generator builds (build/, dist/, site/, _build/html), or --docs a folder of Markdown.`,
    );
  const pages: DocPage[] = [];
  const seen = new Map<string, string>();
  /** The redirect pages read: each file and where it leads. */
  const moved: [file: string, url: string][] = [];
  const names = htmlFiles
    // A compressed page is named, and served, as its links name it: `changelog.html`.
    .map((file) => ({ file, name: file.split(sep).join('/').replace(/\.gz$/i, '') }))
    .filter(({ name }) => {
      if (NOT_PAGES.test(name)) return false;
      const folder = PRIVATE_FOLDER.exec(name)?.[1];
      if (folder)
        skipped.push({
          file: name,
          reason: `a fragment in ${folder}/, which the build keeps apart: not a page`,
        });
      return !folder;
    });
  // Read and parsed a few at a time (on the parse threads), then taken in order as before: which
  // of two files with the same URL is served does not depend on which parsed first.
  const read: Promise<CachedPage>[] = new Array(names.length);
  const pool = options.pool ?? parsePool<CachedPage | PackedPage>(options.threads);
  let next = 0;
  const reader = async () => {
    while (next < names.length) {
      const at = next++;
      const { file, name } = names[at]!;
      const path = join(dir, file);
      read[at] = cachedPage(
        path,
        name,
        cache,
        (packed) =>
          pool.parse({ kind: 'site', file: name, path, language: defaultLanguage, packed }, () =>
            parseHtmlPage(name, readPageFile(path), defaultLanguage),
          ),
        store,
      );
      // Its failure is the page's (skipped below), not the read's.
      await read[at].catch(() => {});
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, names.length) }, reader));
  } finally {
    if (!options.pool) await pool.close();
  }
  for (const [at, { name }] of names.entries()) {
    try {
      const page = await read[at]!;
      if ('skipped' in page) {
        if (page.quiet) continue;
        skipped.push({ file: name, reason: page.skipped });
        if (page.redirect) moved.push([name, page.redirect]);
        continue;
      }
      const other = seen.get(page.path);
      if (other) {
        skipped.push({ file: name, reason: `the same page as ${other}` });
        continue;
      }
      seen.set(page.path, name);
      pages.push(page);
    } catch (error) {
      skipped.push({ file: name, reason: (error as Error).message });
    }
  }
  if (pages.length === 0)
    throw new Error(
      `No docs pages in ${dir}: its ${htmlFiles.length} HTML files hold no readable content (${skipped
        .slice(0, 3)
        .map((page) => `${page.file}: ${page.reason}`)
        .join('; ')}).`,
    );
  const assets = files
    .filter((file) => ASSET_EXTENSIONS.test(file) && !NOT_PAGES.test(file))
    .map((file) => '/' + file.split(sep).join('/'));
  const site: DocsSite = { ...createSite(pages, assets, dir), built: true };
  const redirects = redirectsOf(site, moved);
  return {
    site: inReadingOrder(redirects.size ? { ...site, redirects } : site),
    skipped,
  };
}

/**
 * Where the build's redirect pages (each a file and its target URL) lead, by their page path: the
 * page path and anchor of a page of `site` (MkDocs' `user-guide/plugins.html`, moved to
 * `dev-guide/plugins/`, which its other pages still link to). A redirect to nothing served, or out
 * of the site, is left out.
 */
function redirectsOf(site: DocsSite, moved: [file: string, url: string][]): Map<string, string> {
  const redirects = new Map<string, string>();
  for (const [file, url] of moved) {
    const from = servedPathOf(file);
    let target: URL;
    try {
      target = new URL(url, `http://site.invalid${from}`);
    } catch {
      continue;
    }
    if (target.host !== 'site.invalid') continue;
    const page = site.byPath.get(parsePagePath(target.pathname));
    if (page) redirects.set(parsePagePath(from), `${page.path}${target.hash}`);
  }
  return redirects;
}

/**
 * The site's pages in reading order: the root page, then the pages it links to in the order it
 * links them (Sphinx's table of contents, a home page's list of guides), then the others in file
 * order. The sidebar follows it: in file order Jinja's "Changes" came third, before its API and
 * templates, and a build whose every page is an `index.html` (Starlight, MkDocs) put its home
 * page after `getting-started/`. The home page's own navigation comes first (a sidebar, a navbar:
 * the order the site gives its readers), then its lists' links before its prose's: Flask's intro
 * names Installation, Quickstart, Tutorial, Patterns and API, out of its table of contents' order.
 * A folder's index page then brings the pages of its folder that its lists link to, in their
 * order, right after it, and theirs after them: its table of contents is its folder's order
 * (Celery's Getting Started lists Introduction before First Steps, and its broker pages under
 * "Backends and Brokers", not after the folder's last page).
 */
function inReadingOrder(site: DocsSite): DocsSite {
  const root = site.byPath.get(parsePagePath('/'));
  if (!root) return site;
  // A page's own list, from its head (parseHtmlPage), so that no page's body is read here.
  const listedBy = (page: DocPage) => {
    const listed = page.frontmatter?.listed;
    return Array.isArray(listed)
      ? listed.filter((href): href is string => typeof href === 'string')
      : [];
  };
  const pagesAt = (hrefs: string[], page: DocPage) =>
    hrefs.flatMap((href) => {
      const target = docLinkTarget(href, page, site);
      const linked = target?.kind === 'page' ? site.byPath.get(target.pagePath) : undefined;
      return linked ? [linked] : [];
    });
  const navigation = root.frontmatter?.navigation;
  const hrefs = Array.isArray(navigation)
    ? navigation.filter((href): href is string => typeof href === 'string')
    : [];
  const fromRoot = pagesAt(
    [...hrefs, ...hrefsIn(listedLines(root.markdown)), ...hrefsIn(root.markdown.split('\n'))],
    root,
  );
  const pages: DocPage[] = [];
  const placed = new Set<string>();
  const isFolderIndex = (page: DocPage) => page !== root && INDEX_FILE.test(page.file);
  // A page that is a table of contents and nothing else (aiohttp's `client.html`: one sentence
  // over its toctree of the client's guides and references).
  const isContents = (page: DocPage) => page !== root && page.frontmatter?.contents === true;
  const place = (page: DocPage) => {
    if (placed.has(page.path)) return;
    // A page's folder index comes first, with its order (the home page may link a page of a
    // folder before the folder).
    const up = site.byPath.get(page.path.replace(/\/[^/]+\/?$/, '') || '/');
    if (up && isFolderIndex(up) && up !== page) place(up);
    if (placed.has(page.path)) return;
    placed.add(page.path);
    pages.push(page);
    const folder = isFolderIndex(page) ? `${page.path.replace(/\/$/, '')}/` : undefined;
    if (folder || isContents(page))
      for (const child of pagesAt(listedBy(page), page))
        if (!folder || child.path.startsWith(folder)) place(child);
  };
  for (const page of [root, ...fromRoot, ...site.pages]) place(page);
  const groups = groupsOf(root, pages, pagesAt, isFolderIndex);
  return { ...site, pages, ...(groups.size ? { groups } : {}) };
}

/** The pages of the site a page's links lead to, in the links' order. */
type PagesAt = (hrefs: string[], page: DocPage) => DocPage[];

/**
 * The sidebar's groups as the home page names them, when it does (headedGroups, contentsGroups),
 * a folder's index page bringing its folder's pages with it. Other pages keep their folder's group.
 */
function groupsOf(
  root: DocPage,
  pages: DocPage[],
  pagesAt: PagesAt,
  isFolderIndex: (page: DocPage) => boolean,
): Map<string, string> {
  const groups = headedGroups(root, pagesAt) ?? contentsGroups(root, pagesAt);
  if (!groups) return new Map();
  const folderIndexes = new Set<string>(pages.filter(isFolderIndex).map((page) => page.path));
  for (const page of pages) {
    if (groups.has(page.path) || page === root) continue;
    // The nearest folder index above the page that has a group.
    const parts = page.path.split('/').filter(Boolean);
    for (let depth = parts.length - 1; depth > 0; depth--) {
      const up = `/${parts.slice(0, depth).join('/')}`;
      const group = folderIndexes.has(up) ? groups.get(up) : undefined;
      if (group !== undefined) {
        groups.set(page.path, group);
        break;
      }
    }
  }
  return groups;
}

/**
 * Groups named by the home page's headings: werkzeug's index files its pages under "Getting
 * Started", "Serving and Testing", "Reference", "Deployment" and "Additional Information", each
 * heading over a table of contents; grouped by folder, its Middleware and Deployment pages came
 * after "Changes", out of that order, and the headings were lost. Each headed section names the
 * group of the pages its lists link to, when at least two of those sections hold a table of
 * contents, a list of links alone (fewer names nothing a folder does not). Babel's index puts a
 * sentence above each ("The user documentation explains…"), which the section still is.
 */
function headedGroups(root: DocPage, pagesAt: PagesAt): Map<string, string> | undefined {
  const groups = new Map<string, string>();
  let contents = 0;
  for (const section of root.sections) {
    if (!section.anchor) continue;
    const listed = pagesAt(
      section.blocks
        .filter((block) => block.kind === 'list')
        .flatMap((block) => (block.links ?? []).map((link) => link.url)),
      root,
    ).filter((page) => page !== root && !groups.has(page.path));
    if (listed.length && section.blocks.some(isLinkList)) contents++;
    for (const page of listed) groups.set(page.path, section.heading);
  }
  return contents < 2 ? undefined : groups;
}

/**
 * Groups named by the home page's one table of contents, nested: aiohttp's lists "Client",
 * "Server" and "Utilities", each a page with its pages under it (Tornado's "User's guide", "Web
 * framework", "Release notes"…), and grouped by folder all of them were one "Overview" of 36
 * pages. A top-level item with pages of its own under it names the group of itself and them, by
 * its page's title, when at least two items do; an item listing only its own sections (aiohttp's
 * FAQ) names none.
 */
function contentsGroups(root: DocPage, pagesAt: PagesAt): Map<string, string> | undefined {
  const groups = new Map<string, string>();
  let named = 0;
  for (const block of root.sections.flatMap((section) => section.blocks)) {
    if (!isLinkList(block) || !block.links?.length) continue;
    const column = (at: number) => at - block.markdown.lastIndexOf('\n', at) - 1;
    const top = Math.min(...block.links.map((link) => column(link.start)));
    const items: string[][] = [];
    for (const link of block.links)
      if (column(link.start) === top || !items.length) items.push([link.url]);
      else items.at(-1)!.push(link.url);
    for (const hrefs of items) {
      const [head] = pagesAt(hrefs.slice(0, 1), root);
      const listed = [...new Set(pagesAt(hrefs, root))].filter(
        (page) => page !== root && !groups.has(page.path),
      );
      if (!head || head === root || listed.length < 2 || listed[0] !== head) continue;
      named++;
      for (const page of listed) groups.set(page.path, head.title);
    }
  }
  return named < 2 ? undefined : groups;
}
