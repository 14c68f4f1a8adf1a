import type { Definition, Html, Image, Link, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { docLinkTarget } from './doc-links.js';
import {
  isApiEntry,
  isReleaseEntry,
  isReleaseNotes,
  markdownUrl,
  markdownWords,
  opensOnPrototype,
  pageLabelOf,
  siteNameOf,
  type DocPage,
  type DocSection,
  type DocsSite,
} from './docs.js';
import { isScriptUrl, prefixedLinks, sidebarGroups, type LinkStrategy } from './render.js';
import { lastSentenceEnd, sentencesOf } from './sentences.js';

/**
 * Pages as Markdown for agents (`/x.md`, `llms.txt`, `llms-full.txt`, the MCP `get_page` tool). It
 * works from the page model only, so pages read from HTML serve the same way as Markdown folders.
 */

/** Where a page's HTML and Markdown live, as absolute URLs of the site being served or exported. */
export interface MarkdownUrls extends LinkStrategy {
  /** Site path of a page → URL of its Markdown (`…/guides/x.md`). */
  markdown(path: string): string;
  /**
   * A full URL of a page (its HTML or its Markdown) → the site path it names, possibly still with
   * its `.md`; undefined for a URL outside the site.
   */
  pathOf(url: string): string | undefined;
}

/** A site's Markdown URLs and the files at its root (`llms.txt`, `llms-full.txt`). */
export interface SiteMarkdownUrls extends MarkdownUrls {
  /** URL of a file at the site's root, by name. */
  siteFile(name: string): string;
}

/** The site paths under `base` (`https://x/docs/guides/a` → `/guides/a`). */
export const pathUnder = (base: string) => (url: string) => {
  const trimmed = base.replace(/\/+$/, '');
  if (url !== trimmed && !url.startsWith(`${trimmed}/`)) return undefined;
  return url.slice(trimmed.length) || '/';
};

/**
 * Where a page's Markdown lives beside its HTML: `…/guides/x` → `…/guides/x.md`; the root page,
 * whose URL is a folder, → `…/index.md`.
 */
export function markdownUrlOf(links: LinkStrategy, path: string): string {
  return path === '/'
    ? `${links.page('/').replace(/\/+$/, '')}/index.md`
    : `${links.page(path)}.md`;
}

/** The Markdown URLs of pages served under `origin` + `basePath` (`/docs/guides/x.md`). */
export function servedMarkdownUrls(origin: string, basePath: string): SiteMarkdownUrls {
  const links = prefixedLinks(`${origin}${basePath}`);
  return {
    ...links,
    siteFile: (name) => `${origin}/${name}`,
    markdown: (path) => markdownUrlOf(links, path),
    pathOf: pathUnder(`${origin}${basePath}`),
  };
}

const parser = unified().use(remarkParse).use(remarkGfm);

/** An MDX component or raw HTML reduced to the words a reader saw. */
const textOfHtml = (value: string) =>
  value
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, '');

/**
 * Where a link written on `page` points on the site: pages and files at their absolute URLs, an
 * anchor on the page's own URL, a link out of the site as written; undefined for a script URL or a
 * path the built site does not hold (the link keeps its words).
 */
export function siteLinkUrl(page: DocPage, site: DocsSite, urls: LinkStrategy) {
  return (raw: string, image: boolean): string | undefined => {
    if (isScriptUrl(raw, image)) return undefined;
    if (raw.startsWith('#')) return `${urls.page(page.path)}${raw}`;
    const target = docLinkTarget(raw, page, site);
    if (!target) return raw;
    if (target.kind === 'missing') return undefined;
    const anchor = target.anchor ? `#${target.anchor}` : '';
    return (
      (target.kind === 'page' ? urls.page(target.pagePath) : urls.file(encodeURI(target.path))) +
      anchor
    );
  };
}

/**
 * The page's body as clean Markdown: front matter is already gone (docs.ts), links and images point
 * at the site's URLs, script URLs lose their destination, MDX components and raw HTML keep only
 * their text.
 */
export function markdownBody(page: DocPage, site: DocsSite, urls: LinkStrategy): string {
  const source = page.markdown;
  const tree = parser.parse(source) as Root;
  const edits: { from: number; to: number; text: string }[] = [];
  const resolve = siteLinkUrl(page, site, urls);
  const at = (node: { position?: { start: { offset?: number }; end: { offset?: number } } }) => {
    const [from, to] = [node.position?.start.offset, node.position?.end.offset];
    return from === undefined || to === undefined ? undefined : { from, to };
  };
  visit(tree, (node) => {
    if (node.type === 'html') {
      const span = at(node as Html);
      if (span) edits.push({ ...span, text: textOfHtml((node as Html).value) });
      return 'skip';
    }
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') return;
    const { url } = node as Link | Image | Definition;
    const span = at(node as Link);
    if (!span) return;
    // A link around images that lead nowhere and say nothing (attrs' sponsors' logos) leaves only
    // "[ ](…)": it goes whole.
    if (node.type === 'link' && (node as Link).children.some((child) => child.type === 'image')) {
      const blank = (node as Link).children.every((child) =>
        child.type === 'image'
          ? !child.alt?.trim() && resolve(child.url, true) === undefined
          : child.type === 'text' && !child.value.trim(),
      );
      if (blank) {
        edits.push({ ...span, text: '' });
        return 'skip';
      }
    }
    const written = source.slice(span.from, span.to);
    const resolved = resolve(url, node.type === 'image');
    if (resolved === url) return;
    // The destination is the last occurrence of the URL as written (after the `](` or `]: `).
    const where = written.lastIndexOf(url);
    if (resolved === undefined) {
      if (node.type === 'link' && written.startsWith('[')) {
        const label = written.slice(1, written.lastIndexOf(']('));
        if (label) edits.push({ ...span, text: label });
      } else if (node.type === 'image' && written.startsWith('!['))
        // An image the site does not hold is its words, as a browser shows it: `![Photo]()` was
        // bottle's contact page (its photo is not in Debian's build).
        edits.push({ ...span, text: ((node as Image).alt ?? '').replace(/[\\`*_[\]<>]/g, '\\$&') });
      else if (where >= 0)
        edits.push({ from: span.from + where, to: span.from + where + url.length, text: '' });
      return;
    }
    if (where >= 0)
      edits.push({
        from: span.from + where,
        to: span.from + where + url.length,
        text: markdownUrl(resolved),
      });
  });
  let out = source;
  // From the end, so earlier offsets stay right; nested edits (an image inside a link) never overlap
  // since an image's URL sits before the link's own.
  let last = Infinity;
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    if (edit.to > last) continue;
    out = out.slice(0, edit.from) + edit.text + out.slice(edit.to);
    last = edit.from;
  }
  return withoutExtraBlankLines(out).trim();
}

/**
 * Runs of blank lines as one, outside code: what was left out (a page's stripped parts) leaves no
 * gaps, and code keeps its own (two blank lines between Python functions, as PEP 8 has them).
 */
function withoutExtraBlankLines(markdown: string): string {
  const out: string[] = [];
  /** The fence of the code block the line is in (its opening run of ``` or ~~~). */
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const [, marker, rest = ''] = /^\s{0,3}(`{3,}|~{3,})(.*)$/.exec(line) ?? [];
    if (fence === undefined && marker) fence = marker;
    else if (fence && marker?.startsWith(fence) && !rest.trim()) fence = undefined;
    else if (fence === undefined && !line.trim() && out.length && !out.at(-1)!.trim()) continue;
    out.push(line);
  }
  return out.join('\n');
}

/** The page as an agent reads it: its title, where it lives, then its body. */
export function pageMarkdown(page: DocPage, site: DocsSite, urls: MarkdownUrls): string {
  const body = markdownBody(page, site, urls);
  const title = pageLabelOf(site, page);
  // Most pages open with their own `# Title`; a page without one gets it, in place of a lower
  // heading of the same words it opens on (Node.js's "## Buffer" under "# Buffer"). The
  // description follows it.
  const opening = /^(#{1,6})\s+(.*)/.exec(body);
  const ownTitle = opening?.[1] === '#';
  const replaced = opening && (ownTitle || opening[2]!.trim() === title) ? opening[0] : undefined;
  const head = `${ownTitle ? replaced : `# ${markdownWords(title)}`}\n\n`;
  const rest = replaced ? body.slice(replaced.length).trimStart() : body;
  const meta = [
    `Source: ${urls.page(page.path)}`,
    page.version && `Version: ${page.version}`,
    page.language !== 'en' && `Language: ${page.language}`,
  ].filter(Boolean);
  const description = page.description ? `> ${page.description.replace(/\n/g, ' ')}\n\n` : '';
  return `${head}${description}${rest}\n\n---\n${meta.join('  \n')}\n`;
}

/**
 * Not a sentence about the page: a label over what follows ("Contents:", "Test parametrization:"),
 * a version note (Tornado's locks and queues pages open with "New in version 4.2.", requests' home
 * page with "Release v2.28.1.", structlog's with "Release 22.3.0 (What's new?)", its links' words
 * left), a word or two that are not a sentence (Sphinx's contents page opens on "Get started",
 * Fastify's "Getting Started" on "Hello!"; Celery's "Backend selection." is one), a label and a
 * link alone (Typer's home page, "Source Code: https://github.com/tiangolo/typer"), a
 * placeholder (Whoosh's "TBD.") or Doxygen's line of a class's bases or subclasses ("Inherited by
 * Json::CharReaderBuilder.", the `llms.txt` line of two of JsonCpp's classes).
 */
const NOT_A_SUMMARY =
  /^(?:Inherit(?:s|ed by) .*|\S+(?:\s+\S+){0,2}:|[^:]{1,40}:\s*(?:https?:\/\/|www\.)\S+|(?:TBD|TODO|To ?do|WIP|Coming soon)\.?|(?:New in version|Changed in version|Deprecated since version|Added in: v?\d|Stability: \d)\b.*|(?:Release|Version)\s+v?\d[\w.-]*?\.?(?:\s*\([^)]*\))*|[^\d\s]+(?:\s+[^\d\s]+)?(?<!\.))$/;
/**
 * A paragraph that is all emphasis (Sphinx's "*Module author: Georg Brandl*", a "**Attributes**"
 * rubric) or an admonition beside the page's subject ("**Todo:** Expand this.", "**See also:** …",
 * "**Note:** Before you begin, …").
 */
const NOT_PROSE =
  /^(?:([*_]+)[^*_]+\1|\*\*(?:See also|Todo|Note|Notes|Warning|Important|Caution|Tip|Hint|Attention|Danger|Error|Changelog):\*\*.*)$/is;

/**
 * An API entry whose name ends in lower case (a function's, a method's or an attribute's), or a
 * member that opens on its prototype (Doxygen's macros and fields: JsonCpp's `config.h` was
 * described by its `JSON_API` macro's "If defined, indicates that the source file is
 * amalgamated…").
 */
const isFunctionEntry = (section: DocSection) =>
  (isApiEntry(section) && /^[a-z_]/.test(section.heading.split('.').at(-1) ?? '')) ||
  MEMBER_HEADING.test(section.heading) ||
  opensOnPrototype(section);
/**
 * A heading that is a member's signature: a call ("add_role(name)", "json_object_get()", Ruby's
 * "<<(block)", a block or a result after it: "find_by(selector = {}) { |block| ... }") or an RDoc
 * attribute ("blocks[R]"). An RDoc class without a description was described in `llms.txt`
 * by its first member's ("Public: Get the Array of {AbstractBlock} child blocks…").
 */
const MEMBER_HEADING =
  /^(?:[A-Za-z_][\w.:#]*[?!=]?|[<>=!+\-*/%&|^~[\]]{1,3})(?:\([^()]*\)|\[R?W?\])(?:\s*\{.*\}|\s*(?:→|->).*)?$/;
/** sphinx-apidoc's title of a package's or a module's page, and of a section of one of its modules. */
const APIDOC_TITLE = /^([a-z_][\w.]*) (?:package|module)$/;

/**
 * Whether a section of a sphinx-apidoc package's page is about one of its modules (its heading
 * "cattrs.preconf.bson module", or an entry of that module's: `cattrs.converters.Converter`).
 */
function inSubmodule(page: DocPage, section: DocSection): boolean {
  const own = APIDOC_TITLE.exec(page.title)?.[1];
  if (!own) return false;
  const module =
    APIDOC_TITLE.exec(section.heading)?.[1] ??
    (isApiEntry(section) ? section.heading.split(/\.(?=[^a-z_])/)[0] : undefined);
  return module !== undefined && module.startsWith(`${own}.`);
}
/** An exception's API entry, by its signature (`exception lxml.html.formfill.FormNotFound`). */
const isExceptionEntry = (section: DocSection) =>
  isApiEntry(section) && /^`exception\s/.test(section.blocks[0]?.markdown ?? '');
/** A release's heading that opens on the project's name: "Scrapy 2.8.0 (2023-02-02)". */
const NAMED_RELEASE = /^[\w.-]+\s+v?\d+(?:\.\d+)+(?![\w.])/;
/** A page of questions and answers, by its title: "FAQ", "Frequently Asked Questions". */
const FAQ_TITLE = /\bFAQs?\b|\bfrequently asked\b/i;
/**
 * A lead-in whose list finishes its sentence: it ends on a word that needs more after it
 * (greenlet's "Switches between greenlets occur when:").
 */
const HALF_SENTENCE =
  /\b(?:to|including|include|includes|like|as|of|for|with|by|from|are|is|be|the|a|an|and|or|such as|e\.g\.|when|where|if|whether|that|which|than|into|via|using|about|between)\s*:$/i;
/** The longest one-line summary; a longer sentence is cut at a word, with "…". */
const MAX_SUMMARY_CHARS = 160;
/** The shortest first sentence a too long line is cut to, rather than at a word. */
const MIN_SUMMARY_CHARS = 40;

/**
 * One line about a page for `llms.txt`: its description, else the first sentence of its first
 * paragraph (or of the quote it opens with: Sphinx's "Sphinx makes it easy to create intelligent
 * and beautiful documentation."), passing over a paragraph that is only code (an API entry's
 * signature: werkzeug's middleware pages were described by `class …SharedDataMiddleware(app,
 * exports, …`), one that is not prose (NOT_PROSE), a label (Flask's tutorial was described as
 * "Contents:", the words over its table of contents), a version note and the page's own title
 * (Sphinx's `sphinx-quickstart` page). Nor from a release's entry (factory_boy's changelog was
 * described as "This version brings massive changes to the core engine…") or the answer to a
 * question in an FAQ (kombu's as "Answer: Earlier versions of RabbitMQ did not implement…"), nor
 * from the entry of a function, method or attribute (structlog's API reference as `get_logger`'s
 * "Convenience function that returns a logger according to configuration."): each is about one
 * thing on the page, not the page, unless the page is titled by it. A class's entry is what a
 * page of it is about (werkzeug's `SharedDataMiddleware`: "A WSGI middleware which provides static
 * content…"), an exception's is not (lxml's `formfill` module was "Raised when no form can be
 * found"). Nor is a module's, under
 * sphinx-apidoc's "Submodules" of a package (cattrs' `preconf` package was "Preconfigured
 * converters for bson."). A sentence that leads into what follows ends in a full stop ("The page
 * contains all information about aiohttp Client API."): passing over it, the line came from
 * further down and said less ("The requests library does in fact also provides a session
 * system.").
 */
function summaryOf(page: DocPage): string {
  if (page.description) return page.description.replace(/\s+/g, ' ').trim();
  const faq = FAQ_TITLE.test(page.title);
  const releaseNotes = isReleaseNotes({ pagePath: page.path, pageTitle: page.title, heading: '' });
  let first = true;
  for (const section of page.sections) {
    // Release notes open with their newest release; what comes after it is releases too. On a
    // page of them, a heading of a name and a version is one ("Scrapy 2.8.0 (2023-02-02)"; not
    // "What's new in Celery 5.2", whose opening says what the release is).
    const release =
      releaseNotes && section.heading !== page.title && NAMED_RELEASE.test(section.heading);
    if (isReleaseEntry(section.heading) || release) break;
    // An FAQ's questions start where its first question does: what comes after it answers one
    // (PyMongo's was described by "Your web framework will pass the ObjectId portion of the URL…",
    // under a question written without its "?").
    if (faq && /\?\s*$/.test(section.heading)) break;
    // A page of one function (Sphinx autosummary's stubs: Dask's 910 `generated/` pages, each
    // titled by its entry) is about that function.
    const pageOfIt = section.heading === page.title;
    if (
      inSubmodule(page, section) ||
      ((isFunctionEntry(section) || isExceptionEntry(section)) && !pageOfIt)
    ) {
      first = false;
      continue;
    }
    for (const block of section.blocks) {
      const opening = first;
      first = false;
      const markdown = block.markdown.replace(/^> ?/gm, '').trim();
      // An opening quote of one paragraph: its text runs several together without a space.
      const quote = opening && block.kind === 'quote' && !markdown.includes('\n\n');
      if (block.kind !== 'paragraph' && !quote) continue;
      if (/^`[^`]*`$/.test(markdown) || NOT_PROSE.test(markdown)) continue;
      const sentence = sentencesOf(block.text.replace(/\s+/g, ' '))[0]?.trim();
      if (!sentence || NOT_A_SUMMARY.test(sentence) || sentence === page.title) continue;
      // "cmd2 allows a developer to:" is half a sentence: its list is the rest of it.
      if (HALF_SENTENCE.test(sentence)) continue;
      const line = sentence.replace(/:$/, '.');
      if (line.length <= MAX_SUMMARY_CHARS) return line;
      const cut = line.slice(0, MAX_SUMMARY_CHARS - 2);
      // A sentence that ends in it ends the line, though the next begins in lower case: "…the
      // data you want out.…" ran on into "`cattrs` will convert…".
      const end = lastSentenceEnd(cut);
      if (end >= MIN_SUMMARY_CHARS) return cut.slice(0, end);
      return `${cut.replace(/\s+\S*$/, '').trimEnd() || cut}…`;
    }
  }
  return '';
}

/** Parts of `llms-full.txt`: the whole site when it fits, else one part per sidebar section. */
export interface FullTextPart {
  /** File name under the site (`llms-full.txt`, `llms-full-2.txt`). */
  name: string;
  /** The sidebar section it holds; undefined for the whole site in one file. */
  section?: string;
  pages: DocPage[];
}

/** Above this, `llms-full.txt` is split by sidebar section (an agent's context is finite). */
export const DEFAULT_FULL_TEXT_MAX_BYTES = 5 * 1024 * 1024;

const markdownSizes = new WeakMap<DocsSite, number>();

/** Sizes are estimates from the Markdown sources, so planning the parts reads no page twice. */
export function fullTextParts(
  site: DocsSite,
  maxBytes = DEFAULT_FULL_TEXT_MAX_BYTES,
): FullTextPart[] {
  const groups = sidebarGroups(site);
  let total = markdownSizes.get(site);
  // Counted once per site: a site served from the page cache reads each page's Markdown from disk.
  if (total === undefined)
    markdownSizes.set(
      site,
      (total = site.pages.reduce((sum, page) => sum + page.markdown.length, 0)),
    );
  if (total <= maxBytes) return [{ name: 'llms-full.txt', pages: groups.flatMap(([, p]) => p) }];
  return groups.map(([section, pages], index) => ({
    name: `llms-full-${index + 1}.txt`,
    section,
    pages,
  }));
}

/** The llmstxt.org index: the site's name, a summary, then the pages by sidebar section. */
export function llmsTxt(
  site: DocsSite,
  urls: SiteMarkdownUrls,
  maxBytes = DEFAULT_FULL_TEXT_MAX_BYTES,
): string {
  const name = siteNameOf(site);
  const root = site.byPath.get('/');
  const summary = root ? summaryOf(root) : '';
  const lines = [`# ${markdownWords(name)}`, ''];
  if (summary) lines.push(`> ${markdownWords(summary)}`, '');
  lines.push(
    `Every page below is Markdown. The whole site in one file: ${fullTextParts(site, maxBytes)
      .map((part) => `${urls.siteFile(part.name)}${part.section ? ` (${part.section})` : ''}`)
      .join(', ')}.`,
    '',
  );
  for (const [section, all] of sidebarGroups(site)) {
    // A page with nothing under its title (a Debian build's API page whose autodoc found no
    // module: cmd2's, marshmallow's, lxml's; sqlparse's "Indices and tables" once its links to
    // generated pages are gone) gives an agent nothing to read.
    const pages = all.filter((page) => page.sections.some((part) => part.blocks.length));
    if (!pages.length) continue;
    lines.push(`## ${section}`, '');
    for (const page of pages) {
      const summary = summaryOf(page);
      lines.push(
        `- [${markdownWords(pageLabelOf(site, page).replace(/([\\[\]])/g, '\\$1'))}](${markdownUrl(urls.markdown(page.path))})${summary ? `: ${markdownWords(summary)}` : ''}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** One part of `llms-full.txt`, a page at a time, so a big site is never one string in memory. */
export function llmsFullTxt(
  site: DocsSite,
  part: FullTextPart,
  urls: MarkdownUrls,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const page = part.pages[index++];
      if (!page) return controller.close();
      controller.enqueue(
        encoder.encode(`${index > 1 ? '\n\n' : ''}${pageMarkdown(page, site, urls)}`),
      );
    },
  });
}
