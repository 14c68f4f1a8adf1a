import type { Retriever } from '../answering/retrieval.js';
import { linkedMarkdown } from '../site/doc-links.js';
import { citedAs, pageLabelOf, type DocPage, type DocsSite } from '../site/docs.js';
import { parsePagePath } from '../site/page-path.js';
import { pageMarkdown, siteLinkUrl, type MarkdownUrls } from '../site/page-markdown.js';

/**
 * The two things an agent does with docs, shared by the MCP server (HTTP and stdio) and the
 * search and page operations: search the index the assistant answers from, and read a page.
 */

/** Caps that keep one tool result inside an agent's context. */
export const AGENT_LIMITS = {
  /** Hits per search. */
  maxResults: 20,
  defaultResults: 5,
  /** Characters of one hit's passage. */
  maxPassageChars: 4_000,
  /** Characters of one page; longer pages are cut with a note saying where the rest is. */
  maxPageChars: 100_000,
} as const;

export interface AgentSearchHit {
  /** The page's title, then the section's heading: `Routes › Route options`. */
  titlePath: string;
  /** The section's URL on the site. */
  url: string;
  /** The section as Markdown, links pointing at the site. */
  markdown: string;
  /** Site path of the page, for `get_page`. */
  path: string;
  version?: string;
  language: string;
  score: number;
}

export interface AgentPage {
  path: string;
  title: string;
  url: string;
  /** URL of the page's Markdown. */
  markdownUrl: string;
  markdown: string;
}

export type PageLookup =
  | { ok: true; page: AgentPage }
  | { ok: false; message: string; nearest: { title: string; path: string; url: string }[] };

export interface DocsTools {
  search(
    query: string,
    options?: { limit?: number; version?: string; language?: string },
  ): AgentSearchHit[];
  page(pathOrUrl: string): PageLookup;
}

const cut = (text: string, max: number, rest: string) =>
  text.length <= max ? text : `${text.slice(0, max).trimEnd()}\n\n[… ${rest}]`;

/**
 * `urls` says where the site's pages live (this server's /docs pages, an export's files); a full
 * URL handed to `page` is read against it, as is a site path (`/guides/x`, `guides/x.md`).
 */
export function createDocsTools(
  site: { docs: DocsSite; retriever: Retriever },
  urls: MarkdownUrls,
): DocsTools {
  const { docs, retriever } = site;
  const sectionUrl = (path: string, anchor: string) =>
    `${urls.page(path)}${anchor ? `#${anchor}` : ''}`;
  const linkUrl = (page: DocPage) => siteLinkUrl(page, docs, urls);

  const pageAt = (input: string): DocPage | undefined => {
    let path: string | undefined = input.trim();
    // A full URL of the site (its HTML or Markdown) → the path it names.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) path = urls.pathOf(path.split(/[?#]/)[0] ?? '');
    if (path === undefined) return undefined;
    path = path.split(/[?#]/)[0] ?? '';
    if (/\.mdx?$/i.test(path)) path = path.replace(/\.mdx?$/i, '');
    if (!path.startsWith('/')) path = `/${path}`;
    return docs.byPath.get(path) ?? docs.byPath.get(parsePagePath(path));
  };

  return {
    search(query, options = {}) {
      const limit = Math.min(
        AGENT_LIMITS.maxResults,
        Math.max(1, options.limit ?? AGENT_LIMITS.defaultResults),
      );
      const filter = {
        ...(options.version ? { version: options.version } : {}),
        ...(options.language ? { language: options.language } : {}),
      };
      const { hits } = retriever.search(query, { limit, filter });
      return hits.map(({ section, score, title }) => {
        const page = docs.byPath.get(section.pagePath);
        const markdown = section.blocks
          .map((block) => (page ? linkedMarkdown(block, linkUrl(page)) : block.markdown))
          .join('\n\n');
        return {
          titlePath: citedAs(section, title),
          url: sectionUrl(section.pagePath, section.anchor),
          markdown: cut(
            markdown,
            AGENT_LIMITS.maxPassageChars,
            `cut; the whole section is at ${sectionUrl(section.pagePath, section.anchor)}`,
          ),
          path: section.pagePath,
          ...(section.version ? { version: section.version } : {}),
          language: section.language,
          score,
        };
      });
    },

    page(pathOrUrl) {
      const page = pageAt(pathOrUrl);
      if (page) {
        const markdownUrl = urls.markdown(page.path);
        return {
          ok: true,
          page: {
            path: page.path,
            title: pageLabelOf(docs, page),
            url: urls.page(page.path),
            markdownUrl,
            markdown: cut(
              pageMarkdown(page, docs, urls),
              AGENT_LIMITS.maxPageChars,
              `the page is longer; read the rest at ${markdownUrl}`,
            ),
          },
        };
      }
      // The words of the path name the page the agent meant: the nearest pages by those words.
      const words = pathOrUrl
        .replace(/^[a-z]+:\/\/[^/]*/i, '')
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      const nearest = [
        ...new Set(
          (words ? retriever.search(words, { limit: 10 }).hits : []).map(
            (hit) => hit.section.pagePath,
          ),
        ),
      ]
        .slice(0, 5)
        .map((path) => docs.byPath.get(path)!)
        .map((near) => ({
          title: pageLabelOf(docs, near),
          path: near.path,
          url: urls.page(near.path),
        }));
      return {
        ok: false,
        message: `There is no page at "${pathOrUrl.slice(0, 200)}".`,
        nearest,
      };
    },
  };
}
