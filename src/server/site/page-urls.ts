import { slug } from 'github-slugger';
import type { DocPage } from './docs.js';
import { pathKey, type PagePath } from './page-path.js';

/** Docs generators whose page URLs the server can reproduce, so citations link to pages that exist. */
export const URL_STYLES = [
  'plain',
  'vitepress',
  'vitepress-clean',
  'docusaurus',
  'starlight',
] as const;
export type UrlStyle = (typeof URL_STYLES)[number];

/** How a page file becomes its public path: a framework's rules, or a template with `{path}`. */
export type PageUrlRule = { style: UrlStyle } | { template: string };

export type PageUrlRuleResult = { ok: true; rule: PageUrlRule } | { ok: false; error: string };

/** Checks a style name or a template; `names` are what the owner typed them as, for the error. */
export function parsePageUrlRule(
  input: { style?: string | undefined; template?: string | undefined },
  names = { style: '--url-style', template: '--page-url', publicUrl: '--public-url' },
): PageUrlRuleResult {
  if (input.style && input.template)
    return { ok: false, error: `Give ${names.style} or ${names.template}, not both.` };
  if (input.template !== undefined) {
    if (!input.template.includes('{path}'))
      return {
        ok: false,
        error: `${names.template} needs {path} in it, e.g. '/{path}/' (got "${input.template}").`,
      };
    if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(input.template))
      return {
        ok: false,
        error: `${names.template} is a path; put the site's origin in ${names.publicUrl}.`,
      };
    return { ok: true, rule: { template: input.template } };
  }
  if (input.style === undefined) return { ok: false, error: `No ${names.style} given.` };
  if (!(URL_STYLES as readonly string[]).includes(input.style))
    return {
      ok: false,
      error: `${names.style} must be one of ${URL_STYLES.join(', ')} (got "${input.style}").`,
    };
  return { ok: true, rule: { style: input.style as UrlStyle } };
}

const frontmatterString = (page: DocPage, key: string): string | undefined => {
  const value = page.frontmatter?.[key];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** `guides/Setup.mdx` → ['guides', 'Setup']. */
const segmentsOf = (file: string) =>
  file
    .replace(/\.(md|mdx)$/i, '')
    .split(/[\\/]/)
    .filter(Boolean);

const join = (segments: string[]) => '/' + segments.filter(Boolean).join('/');

/** Resolves a frontmatter slug the way Docusaurus does: absolute from the docs root, else beside the file. */
const resolveSlug = (value: string, dir: string[]) =>
  value.startsWith('/') ? value : join([...dir, value]);

// Docusaurus strips "01-" style ordering prefixes from file and folder names (its default number prefix parser).
const withoutNumberPrefix = (name: string) =>
  /^\d+\s*[-_.]+\s*([^-_.\s].*)$/.exec(name)?.[1] ?? name;

function docusaurusPath(page: DocPage): string {
  const segments = segmentsOf(page.file).map(withoutNumberPrefix);
  const name = segments.pop() ?? '';
  const explicit = frontmatterString(page, 'slug');
  if (explicit) return resolveSlug(explicit, segments);
  const id = frontmatterString(page, 'id');
  if (id) return join([...segments, id]);
  // index.md, README.md and a file named like its folder are the folder's own page.
  const isIndex =
    /^(index|readme)$/i.test(name) || name.toLowerCase() === segments.at(-1)?.toLowerCase();
  return join(isIndex ? segments : [...segments, name]);
}

function starlightPath(page: DocPage): string {
  // Astro's content loader takes `slug` frontmatter as the entry id, else slugs every path segment.
  const explicit = frontmatterString(page, 'slug');
  const segments = explicit
    ? explicit.split('/').filter(Boolean)
    : segmentsOf(page.file).map((part) => slug(part));
  if (!explicit && segments.at(-1) === 'index') segments.pop();
  return segments.length ? `${join(segments)}/` : '/';
}

function vitepressPath(page: DocPage, clean: boolean): string {
  const segments = segmentsOf(page.file);
  if (segments.at(-1) === 'index') {
    segments.pop();
    return segments.length ? `${join(segments)}/` : '/';
  }
  return join(segments) + (clean ? '' : '.html');
}

/** The page's path with `slug` frontmatter applied (a leading slash replaces the path, else the last segment). */
function plainPath(page: DocPage): string {
  const explicit = frontmatterString(page, 'slug');
  const segments = segmentsOf(page.file);
  if (segments.at(-1) === 'index') segments.pop();
  if (!explicit) return join(segments);
  return resolveSlug(explicit, segments.slice(0, -1));
}

/**
 * The public path of a page under the site's public URL, as its generator routes it. A `permalink`
 * in the frontmatter is the owner's own statement of the URL and always wins.
 */
export function pageUrlPath(page: DocPage, rule: PageUrlRule): string {
  const permalink = frontmatterString(page, 'permalink');
  if (permalink) return permalink.startsWith('/') ? permalink : `/${permalink}`;
  if ('template' in rule) {
    const path = plainPath(page).replace(/^\/+/, '');
    return rule.template.replaceAll('{path}', path).replace(/\/{2,}/g, '/') || '/';
  }
  switch (rule.style) {
    case 'plain':
      return plainPath(page);
    case 'vitepress':
      return vitepressPath(page, false);
    case 'vitepress-clean':
      return vitepressPath(page, true);
    case 'docusaurus':
      return docusaurusPath(page);
    case 'starlight':
      return starlightPath(page);
    default:
      return rule.style satisfies never;
  }
}

/** Page URLs of a whole site, both ways: page path → public path, and a reader's URL path → page path. */
export function createPageUrls(pages: DocPage[], rule: PageUrlRule, basePath = '') {
  const base = basePath.replace(/\/+$/, '');
  const toPublic = new Map<string, string>(
    pages.map((page) => [page.path, pageUrlPath(page, rule)]),
  );
  const toPage = new Map(pages.map((page) => [pathKey(base + toPublic.get(page.path)), page.path]));
  return {
    /** Public path of a page (without origin), or undefined for an unknown page. */
    urlOf: (pagePath: string) => toPublic.get(pagePath),
    /** The page a reader is on, from the URL path the browser shows (`currentPath`). */
    pageAt: (urlPath: string): PagePath | undefined => toPage.get(pathKey(urlPath)),
  };
}
