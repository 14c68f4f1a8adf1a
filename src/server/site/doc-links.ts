import {
  EXTERNAL_URL,
  markdownUrl,
  type DocBlock,
  type DocPage,
  type DocSection,
  type DocsSite,
} from './docs.js';
import { PAGE_EXTENSIONS, parsePagePath, safeDecode, type PagePath } from './page-path.js';

/** What a link written in the docs points at inside the site. */
export type DocLinkTarget =
  | { kind: 'page'; pagePath: PagePath; anchor: string }
  | { kind: 'file'; path: string; anchor: string }
  /**
   * A path where a built site (`--site`) holds neither page nor file: Debian's builds link Python's
   * own docs at `/usr/share/doc/python3-doc/html/…` (Tornado 2,032 times, Click 892), which led to
   * a 404 under the server's docs. Such a link keeps its words and loses its destination.
   */
  | { kind: 'missing'; path: string; anchor: string };

/** A site's files as a set, made once per list: a built page links to hundreds of them. */
const fileSets = new WeakMap<string[], Set<string>>();
function fileSetOf(files: string[]): Set<string> {
  let set = fileSets.get(files);
  if (!set) fileSets.set(files, (set = new Set(files)));
  return set;
}

/**
 * Where a link written on `page` points: relative links resolve against the folder of the page's
 * source file, as on any static host; `.md`/`.mdx`/`.html`, `/index` and a trailing slash name the
 * page; a path that is no page is a file of the docs folder (missing, in a built site that holds no
 * such file); `#x` is `page`'s own anchor. Undefined for a link out of the site (a scheme,
 * `//host`).
 */
export function docLinkTarget(
  raw: string,
  page: DocPage,
  site: DocsSite,
): DocLinkTarget | undefined {
  if (EXTERNAL_URL.test(raw)) return undefined;
  const [pathPart = '', anchor = ''] = raw.split('#', 2);
  if (!pathPart) return { kind: 'page', pagePath: page.path, anchor };
  const folder = `http://site/${page.file
    .split('/')
    .slice(0, -1)
    .map((part) => `${part}/`)
    .join('')}`;
  const absolute = safeDecode(new URL(pathPart, folder).pathname);
  // A link may name the page's source file (`./setup.md`) as well as its URL.
  const path = parsePagePath(absolute.replace(PAGE_EXTENSIONS, ''));
  const target = site.byPath.get(path);
  if (target) return { kind: 'page', pagePath: target.path, anchor };
  // A page the built site moved: where its redirect leads (the link's own anchor first).
  const moved = site.redirects?.get(path);
  if (moved) {
    const [pagePath = '', movedAnchor = ''] = moved.split('#', 2);
    return { kind: 'page', pagePath: parsePagePath(pagePath), anchor: anchor || movedAnchor };
  }
  if (site.built && !fileSetOf(site.files).has(absolute))
    return { kind: 'missing', path: absolute, anchor };
  return { kind: 'file', path: absolute, anchor };
}

/**
 * The URL a link written on `page` carries in an answer: where it points on the reader's site, as
 * written when it leaves the site, or undefined when it would run script (it then keeps its words).
 */
export type LinkUrl = (raw: string, page: DocPage, image: boolean) => string | undefined;

const escapeAlt = (text: string) => text.replace(/([\\[\]])/g, '\\$1');

/**
 * A block's Markdown with every link and image pointing where `linkUrl` says. A reference link
 * (`[text][ref]`) becomes an inline one, since its definition stays behind on the page; a link
 * `linkUrl` refuses keeps its text and loses its destination.
 */
export function linkedMarkdown(
  block: DocBlock,
  linkUrl: (raw: string, image: boolean) => string | undefined,
): string {
  const { links, markdown } = block;
  if (!links) return markdown;
  const edits: { from: number; to: number; text: string }[] = [];
  for (const link of links) {
    const { start, end, labelEnd } = link;
    if (labelEnd === undefined) {
      const url = linkUrl(link.url, true);
      const alt = escapeAlt(link.alt ?? '');
      // `![alt][ref]` and `![alt]` end in `]`: their definition stays behind.
      const reference = !markdown.slice(start, end).endsWith(')');
      if (url === undefined) edits.push({ from: start, to: end, text: alt });
      else if (url !== link.url || reference)
        edits.push({ from: start, to: end, text: `![${alt}](${markdownUrl(url)})` });
      continue;
    }
    const url = linkUrl(link.url, false);
    // `](url)` for an inline link, `][ref]`, `][]` or `]` for a reference one; an autolink
    // (`<https://…>`, a bare `https://…`) has no `]` and keeps its own URL.
    const tail = markdown.slice(labelEnd, end);
    if (url === undefined) {
      // `[words](javascript:…)` → `words`; `<javascript:…>` → its plain text.
      if (markdown[start] === '[' || markdown[start] === '<')
        edits.push({ from: start, to: start + 1, text: '' });
      edits.push({ from: labelEnd, to: end, text: '' });
    } else if (tail.startsWith(']') && (url !== link.url || !tail.startsWith('](')))
      edits.push({ from: labelEnd, to: end, text: `](${markdownUrl(url)})` });
  }
  let out = markdown;
  // From the end, so earlier offsets stay right; an image inside a link's text sits between the
  // link's `[` and its destination, so no two edits overlap.
  for (const edit of edits.sort((a, b) => b.from - a.from))
    out = out.slice(0, edit.from) + edit.text + out.slice(edit.to);
  return out;
}

/**
 * Sections with their links pointed where `urlsFor(origin)` says, each copied once per origin:
 * answers quote the same sections again and again, and are handed every section of the pages they
 * quote. The origin is the request's when the server has no public URL, so only a few are kept.
 */
export function sectionLinker(
  site: DocsSite,
  urlsFor: (origin: string) => LinkUrl,
  maxOrigins = 8,
): (origin: string) => (section: DocSection) => DocSection {
  const byOrigin = new Map<string, (section: DocSection) => DocSection>();
  return (origin) => {
    let linked = byOrigin.get(origin);
    if (linked) return linked;
    if (byOrigin.size >= maxOrigins) byOrigin.clear();
    const linkUrl = urlsFor(origin);
    const copies = new WeakMap<DocSection, DocSection>();
    linked = (section) => {
      let copy = copies.get(section);
      if (copy) return copy;
      const page = site.byPath.get(section.pagePath);
      copy =
        page && section.blocks.some((block) => block.links)
          ? {
              ...section,
              // A section read back from the cache (page-cache.ts) has these as getters, which a
              // spread leaves out.
              text: section.text,
              code: section.code,
              blocks: section.blocks.map((block) =>
                block.links
                  ? {
                      ...block,
                      markdown: linkedMarkdown(block, (raw, image) => linkUrl(raw, page, image)),
                    }
                  : block,
              ),
            }
          : section;
      copies.set(section, copy);
      return copy;
    };
    byOrigin.set(origin, linked);
    return linked;
  };
}
