import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parsePage, remarkTree } from '../src/server/site/docs.js';
import { markdownTree } from '../src/server/site/markdown-tree.js';

/**
 * Pages are read with marked's lexer (markdown-tree.ts) instead of remark-parse and remark-gfm, a
 * tenth of the CPU at index time; remark is the reference. test/markdown-sets.test.ts compares
 * the two on every real docs set the repository has, page by page.
 */

/**
 * CommonMark and GFM as docs write them, read by the fast tree exactly as remark reads them: the
 * page's sections, block kinds, Markdown, text and link offsets are the same.
 */
const CONSTRUCTS = [
  '- item\n\n\t```go\n\tfunc main() {\n\t\treturn\n\t}\n\t```\n',
  '- item\n\t- nested\tx\n',
  '1.\tfirst\n2.\tsecond\n',
  '```go\nfunc main() {\n\treturn\n}\n```\n',
  '- a\n\n  ```\n  \tx\n  ```\n',
  '\tcode\n\t\tmore\n',
  '> ```\n> \tx\n> ```\n',
  'Para\twith tab\n',
  '- item\n\n\t    indented code in item\n',
  '* a\n*\tb\n',
  '| a\t| b |\n|---|---|\n| 1\t| 2 |\n',
  'text *emph **strong** x* _u_ __d__ ***t***\n',
  'a_b_c snake_case_word *a*b* **a**b** foo*bar*\n',
  '<details>\n<summary>x</summary>\n\nInner *text*\n\n</details>\n',
  'Text <span>inline</span> http://a.com/(x) https://a.b/c?d=e. www.example.com/path) done\n',
  'See https://example.com/foo_bar_ and (https://x.y/z).\n',
  'Email me at foo.bar@example.com, or <a@b.c>.\n',
  "[link](<url with spaces> 'title') ![img](a\\_b.png)\n",
  '[a]: https://x "t"\n[A]: https://y\n\n[a] [A] [a][] [b][a]\n',
  '# Heading with `code` and [link](x) #\n\nSetext\n===\n\nSub\n---\n',
  '1) one\n2) two\n\n10. ten\n',
  '- [ ] task\n- [x] done\n',
  'Line one\\\nline two  \nline three\n',
  '~~del~~ ~one~\n',
  '&nbsp;&copy;&#169;&#xA9;&bogus; &amp\n',
  '  # indented heading\n\n   para with 3 spaces\n',
  '***\n---\n___\n',
  '- a\n- b\n\n\n- c\n',
  '> quote\ncontinued lazily\n> - list in quote\n',
  'Term\n: definition\n',
  '<!-- comment -->\n\nText\n',
  '| a |\n|---|\n| `a\\|b` |\n| [x](y) |\n',
  'Autolink literal at end https://example.com\n',
  'Trailing punctuation www.example.com.\n',
  'Paren (see https://en.wikipedia.org/wiki/Foo_(bar)) ok\n',
  '![alt **bold** `code`](x.png)\n',
  '[![badge](https://img.shields.io/x.svg)](https://x.y) [![b2][i]][l]\n\n[i]: https://i.png\n[l]: https://l\n',
  'Hard  \nbreak *a  \nb*\n',
  '`` code `` and ` a ` and `\nmulti\n`\n',
  '<div>\n*not md*\n</div>\n\n<Tabs>\n<Tab>\n\nmd *inside*\n\n</Tab>\n</Tabs>\n',
  '{/* mdx comment */}\n\nText\n',
  'Text with \\* escaped \\_ chars \\[not link\\](x)\n',
  '[not a ref][missing] and [also]\n',
  '    code\n\n\n    more code\n',
  '```\nunclosed fence\n\n',
  '- item\n\n      code in item\n',
  '<https://a.b/c> <mailto:x@y.z> <x@y.z>\n',
  'http://a.b/c<d foo\n',
  'Heading\n=\n\nText',
];

/** The CommonMark spec's examples (the `commonmark-spec` package; `→` stands for a tab there). */
const SPEC_EXAMPLES = (
  createRequire(import.meta.url)('commonmark-spec') as {
    tests: { markdown: string; section: string; number: number }[];
  }
).tests.map((example) => ({ ...example, markdown: example.markdown.replace(/→/g, '\t') }));

describe('the fast Markdown tree', () => {
  it('gives the page remark gives for every example of the CommonMark spec', () => {
    let fast = 0;
    for (const { markdown, section, number } of SPEC_EXAMPLES) {
      expect({ section, number, page: parsePage('page.md', markdown) }).toStrictEqual({
        section,
        number,
        page: parsePage('page.md', markdown, 'en', { tree: remarkTree }),
      });
      if (markdownTree(markdown)) fast++;
    }
    expect(SPEC_EXAMPLES.length).toBeGreaterThan(600);
    console.log(`${fast} of ${SPEC_EXAMPLES.length} examples on the fast path`);
  });

  it.each(CONSTRUCTS)('gives the page remark gives for %j', (markdown) => {
    expect(parsePage('page.md', markdown)).toStrictEqual(
      parsePage('page.md', markdown, 'en', { tree: remarkTree }),
    );
  });

  it('reads most of those pages itself', () => {
    expect(CONSTRUCTS.filter((markdown) => markdownTree(markdown)).length).toBeGreaterThanOrEqual(
      CONSTRUCTS.length - 1,
    );
  });
});

/**
 * What marked reads otherwise than remark, found on the sets above; each page with one is read by
 * remark. The Markdown is what those pages hold, cut down.
 */
const READ_BY_REMARK = {
  // marked reads `\r\n` as `\n`, so every offset after the first line would move.
  'Windows line ends': '# Title\r\n\r\nSee [the guide](guide.md).\r\n',
  // GFM footnotes: remark reads `[^1]: …` as a footnote, marked as a link definition.
  'a footnote': '# Title\n\nText.[^1]\n\n[^1]: https://example.com\n',
  // A row with more cells than the header: remark keeps them all, marked drops the extra ones
  // (this project's script-tag page, Fastify's Errors and Warnings pages).
  'a table row longer than its header': '| a | b |\n|---|---|\n| `x` | `|`-separated |\n',
  'a table row shorter than its header': '| a | b | c |\n|---|---|---|\n| 1 | 2 |\n',
  // An e-mail address whose domain ends in digits (`npx` in Fastify's Benchmarking guide): marked
  // makes it a link, remark does not.
  'a bare e-mail address of a numbered domain': 'Install it with npm@5.2.0.\n',
  // A tab after spaces in a line's indent: remark counts it to the next tab stop, marked partly
  // as spaces.
  'a tab after spaces in an indent': '- a\n\n  ```\n  \tx\n  ```\n',
};

describe('pages the fast Markdown tree does not read as remark does', () => {
  it.each(Object.entries(READ_BY_REMARK))('are read by remark: %s', (_name, markdown) => {
    expect(markdownTree(markdown)).toBeUndefined();
    expect(parsePage('page.md', markdown)).toStrictEqual(
      parsePage('page.md', markdown, 'en', { tree: remarkTree }),
    );
  });

  it('keep their links where remark puts them when a link spans lines of a list item', () => {
    const markdown =
      '# Links\n\n- See [the long\n  guide](guide.md) and [`npm\n  link`][link].\n  > [quoted\n  > link](q.md)\n\n[link]: /commands/npm-link\n';
    expect(markdownTree(markdown)).toBeDefined();
    const page = parsePage('page.md', markdown);
    expect(page).toStrictEqual(parsePage('page.md', markdown, 'en', { tree: remarkTree }));
    const [block] = page.sections[0]!.blocks;
    expect(block!.links!.map((link) => block!.markdown.slice(link.start, link.end))).toEqual([
      '[the long\n  guide](guide.md)',
      '[`npm\n  link`](/commands/npm-link)',
      '[quoted\n  > link](q.md)',
    ]);
  });
});
