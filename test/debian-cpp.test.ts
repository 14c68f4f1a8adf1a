import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { loadHtmlSite } from '../src/server/site/html.js';
import { llmsTxt, servedMarkdownUrls } from '../src/server/site/page-markdown.js';

/**
 * Two real C++ API builds nobody here wrote, as Debian ships them: JsonCpp's classes by Doxygen
 * 1.9 (libjsoncpp-doc) and fmt's API by Sphinx with Breathe (libfmt-doc). CI installs both
 * (.ci/run); elsewhere each suite is skipped unless its package is installed.
 */
const JSONCPP = '/usr/share/doc/libjsoncpp-doc';
const FMT = '/usr/share/doc/libfmt-doc';
const hasJsoncpp = existsSync(`${JSONCPP}/class_json_1_1_value.html`);
const hasFmt = existsSync(`${FMT}/api.html`);
if ((!hasJsoncpp || !hasFmt) && process.env.CI)
  throw new Error(
    `${hasJsoncpp ? FMT : JSONCPP} is missing: .ci/run installs libjsoncpp-doc and libfmt-doc for this suite.`,
  );

describe.skipIf(!hasJsoncpp)("Debian's Doxygen build of JsonCpp, read with --site", () => {
  const loaded = loadHtmlSite(JSONCPP);
  const pageOf = async (path: string) => (await loaded).site.byPath.get(path);

  it("reads a C++ member's prototype once, with its labels, and its parameters' directions", async () => {
    const page = await pageOf('/class_json_1_1_char_reader');
    // The class's labels ("abstract") are not part of its title.
    expect(page?.title).toBe('Json::CharReader Class Reference');
    const parse = page?.sections.find((section) => section.heading === 'parse()');
    // The prototype sits in a table beside its labels: it was read twice and the labels run in.
    expect(parse?.code[0]?.value).toBe(
      'virtual bool Json::CharReader::parse(char const * beginDoc, char const * endDoc, Value * root, String * errs)  [pure virtual]',
    );
    // A row of three cells (direction, name, description) kept its description.
    expect(page?.markdown).toContain(
      '* `root` (out) – Contains the root value of the document if it was successfully parsed.',
    );
    const value = await pageOf('/class_json_1_1_value');
    const as = value?.sections.find((section) => section.heading === 'as() [1/10]');
    expect(as?.code[0]?.value).toBe('template<> bool Json::Value::as() const  [inline]');
  });

  it("leaves out Doxygen's cross-references and links to pages it does not serve", async () => {
    const { site } = await loaded;
    const header = await pageOf('/value_8h');
    // A file's includes, a `<code>` and a `<br>` each, are code, a line each.
    expect(header?.sections[0]?.code[0]?.value).toMatch(
      /^#include "forwards\.h"\n#include <array>\n/,
    );
    expect(site.pages.map((page) => page.path).filter((path) => /functions/.test(path))).toEqual(
      [],
    );
    for (const page of site.pages)
      expect(page.markdown).not.toMatch(
        /Definition at line|Referenced by|Go to the source code|More\.\.\./,
      );
  });

  it("reads a file's summary of members documented elsewhere as a list per group", async () => {
    const tool = await pageOf('/json__tool_8h');
    expect(tool?.markdown).toContain(
      '## Namespaces\n\n* [`Json`](namespace_json.html) – JSON (JavaScript Object Notation).',
    );
    expect(tool?.markdown).toContain(
      '* [`static String Json::codePointToUTF8 (unsigned int cp)`](namespace_json.html#a9d88498bb2b3d3f9f519b47646e07fae) – Converts a unicode code-point to UTF-8.',
    );
    // As a table: "* **## Classes**", and "JsonJSON (JavaScript Object Notation)." as one word.
    expect(tool?.markdown).not.toMatch(/\* \*\*## |JsonJSON|&#xA0;/);
  });

  it("describes a page in llms.txt by its own words, not a member's or its subclasses'", async () => {
    const { site } = await loaded;
    const llms = llmsTxt(site, servedMarkdownUrls('https://docs.example.com', '/docs'));
    const lineOf = (title: string) =>
      llms.split('\n').find((line) => line.startsWith(`- [${title}]`));
    // config.h has no description of its own; its first macro's ("If defined, …") is not one.
    expect(lineOf('config.h File Reference')).toBe(
      '- [config.h File Reference](https://docs.example.com/docs/config_8h.md)',
    );
    expect(lineOf('Json::CharReader::Factory Class Reference')).not.toContain('Inherited by');
    expect(lineOf('Json::Value Class Reference')).toMatch(/: Represents a JSON value\.$/);
  });

  it('finds a documented member before members whose only text was their line number', async () => {
    const retriever = createRetriever((await loaded).site);
    const hits = retriever.search('How do I add an element to the end of a JSON array?', {
      limit: 3,
    }).hits;
    expect(hits[0]?.section.heading).toBe('append() [1/2]');
  });
});

describe.skipIf(!hasFmt)("Debian's Sphinx and Breathe build of fmt's API, read with --site", () => {
  const loaded = loadHtmlSite(FMT);
  const pageOf = async (path: string) => (await loaded).site.byPath.get(path);

  it('heads a C++ entry by its name, not its template line or its mangled id', async () => {
    const api = await pageOf('/api');
    const headings = api?.sections.map((section) => section.heading) ?? [];
    expect(headings).toEqual(expect.arrayContaining(['fmt::format', 'fmt::join', 'FMT_COMPILE']));
    expect(headings.filter((heading) => /^(?:template|_CPPv|c\.)/.test(heading))).toEqual([]);
    const format = api?.sections.find((section) => section.heading === 'fmt::format');
    expect(format?.anchor).toBe('_CPPv4IDpEN3fmt6formatENSt6stringE13format_stringIDp1TEDpRR1T');
    // The template line and the declaration, a space apart where the build breaks the line.
    expect(api?.markdown).toContain(
      '`template<typename ...T> inline auto fmt::format(format_string<T...> fmt, T&&... args) -> std::string`',
    );
  });

  it("leaves out Breathe's reports of entries it could not find", async () => {
    const api = await pageOf('/api');
    expect(api?.markdown).not.toMatch(/doxygen[a-z]+:|doxyxml/);
    const print = api?.sections.find((section) =>
      section.code.some((block) =>
        block.value.includes('fmt::emphasis::bold | fg(fmt::color::red)'),
      ),
    );
    // Its text ended on the warning over the next entry's place.
    expect(print?.text).not.toMatch(/Potential matches|Unable to resolve/);
  });
});
