import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import GithubSlugger from 'github-slugger';
import type { Heading } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { HeadingSlugger, parsePage, remarkTree } from '../src/server/site/docs.js';
import { plainFrontmatter } from '../src/server/site/front-matter.js';
import { markdownTree } from '../src/server/site/markdown-tree.js';
import { generateScaleSite } from '../bench/_scale-site.js';
import { tempDir } from './helpers/server.js';
// @ts-expect-error a plain ES module of the eval, without types
import { cacheDirOf, fetchSet, SETS } from '../bench/eval/fetch.mjs';

/**
 * A page's parse takes shortcuts where a package's general code cost a good part of it
 * (docs/scale-history.md): plain `key: value` front matter is read without the `yaml` package, and
 * ASCII headings are slugged without github-slugger's Unicode regex. What each reads must be what
 * the package reads, on every real docs set, and what a shortcut cannot read as written is left to
 * the package.
 */

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** The text of every page under `dir`. */
async function pageTexts(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const texts: string[] = [];
  for (const entry of entries)
    if (entry.isFile() && /\.mdx?$/.test(entry.name))
      texts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
  return texts;
}

/** The front matter of every page under `dir` that has one. */
async function frontMatters(dir: string): Promise<string[]> {
  return (await pageTexts(dir)).flatMap((text) => FRONT_MATTER.exec(text)?.[1] ?? []);
}

/** The folders of every real docs set the repository has, and 100 generated pages. */
async function realSets(): Promise<string[]> {
  const dir = await tempDir();
  await generateScaleSite(100, join(dir, 'generated'));
  const cache = cacheDirOf(join(import.meta.dirname, '..')) as string;
  return [
    'docs',
    'test/fixtures/sample-docs',
    'test/fixtures/corpus/fastify',
    'test/fixtures/corpus/npm',
    ...Object.entries(SETS as Record<string, object>).map(
      ([name, set]) => fetchSet(cache, name, set) as string,
    ),
    join(dir, 'generated'),
  ];
}

const yamlOf = (text: string): unknown => {
  try {
    return parseYaml(text);
  } catch (error) {
    return `throws: ${(error as Error).message}`;
  }
};

describe('front matter read without the yaml package', () => {
  it('is what YAML reads, on every real docs set and the generated pages', async () => {
    const sets = await realSets();
    let read = 0;
    let total = 0;
    for (const set of sets)
      for (const text of await frontMatters(set)) {
        total++;
        const plain = plainFrontmatter(text);
        if (plain === undefined) continue;
        read++;
        expect({ text, data: plain }).toStrictEqual({ text, data: yamlOf(text) });
      }
    // npm's (title, section, description), the sample's and the generated pages' are all plain.
    expect(total).toBeGreaterThan(200);
    expect(read).toBeGreaterThan(200);
  }, 120_000);

  it.each([
    'title: Install',
    'title: Install the CLI, then run it (or not) [beta] {x} it\'s "ok" a|b a > b 100% `x` café',
    'title:    spaced out\ndescription: Two lines\nsidebar_position: 3',
    'order: 0\nsize: 123456789012345',
  ])('reads %j as YAML does', (text) => {
    expect(plainFrontmatter(text)).toStrictEqual(parseYaml(text));
  });

  it.each([
    ['a quoted value', 'title: "Install"'],
    ['a number YAML reads otherwise', 'order: 07'],
    ['a decimal', 'version: 1.2'],
    ['a value with a colon', 'title: Guide: setup'],
    ['a URL', 'url: https://example.com'],
    ['a comment', 'title: Install # draft'],
    ['null', 'title: null'],
    ['a boolean', 'draft: true'],
    ['a boolean key', 'true: x'],
    ['trailing spaces', 'title: Install  '],
    ['a tab', 'title: a\tb'],
    ['a list', 'tags:\n  - a\n  - b'],
    ['a blank line', 'title: a\n\ndescription: b'],
    ['a key written twice', 'title: a\ntitle: b'],
    ['a key YAML keeps as __proto__', '__proto__: x'],
    ['a value starting with a digit', 'title: 3 ways'],
    ['a line break YAML reads', 'title: a\u2028b'],
    ['nothing', ''],
  ])('leaves %s to YAML', (_what, text) => {
    expect(plainFrontmatter(text)).toBeUndefined();
  });

  it('gives a page the same front matter and the same error either way', () => {
    const page = parsePage('a.md', '---\ntitle: Plain\nsection: 1\n---\n\n# A\n\nText.\n');
    expect(page.frontmatter).toStrictEqual({ title: 'Plain', section: 1 });
    expect(page.title).toBe('Plain');
    expect(() => parsePage('b.md', '---\ntitle: a\ntitle: b\n---\n\nText.\n')).toThrow(
      /Map keys must be unique/,
    );
  });
});

describe('heading anchors slugged without github-slugger', () => {
  const slugs = (slugger: { slug(value: string): string }, headings: string[]) =>
    headings.map((heading) => slugger.slug(heading));

  it("are github-slugger's for every heading of every real docs set, page by page", async () => {
    let headings = 0;
    for (const set of await realSets())
      for (const text of await pageTexts(set)) {
        const page: string[] = [];
        const walk = (node: { type: string; children?: unknown[] }) => {
          if (node.type === 'heading') page.push(toString(node as Heading));
          else node.children?.forEach((child) => walk(child as typeof node));
        };
        walk(markdownTree(text) ?? remarkTree(text));
        headings += page.length;
        expect(slugs(new HeadingSlugger(), page)).toStrictEqual(slugs(new GithubSlugger(), page));
      }
    expect(headings).toBeGreaterThan(1000);
  }, 120_000);

  it("are github-slugger's for headings written again, non-ASCII and odd ones", () => {
    const headings = [
      'Install',
      'Install',
      'install-1',
      'Install',
      'API: `fastify.register(plugin, [options])`',
      'Ünïcödé héading',
      'Ünïcödé héading',
      '日本語の見出し',
      'Emoji 🚀 launch',
      '__proto__',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      '  spaced  out  ',
      'Tab\there',
      '',
      '',
      'a_b-c d.e/f',
    ];
    expect(slugs(new HeadingSlugger(), headings)).toStrictEqual(
      slugs(new GithubSlugger(), headings),
    );
  });
});
