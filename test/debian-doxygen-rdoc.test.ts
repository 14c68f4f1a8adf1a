import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { loadHtmlSite } from '../src/server/site/html.js';

/**
 * Two real API builds nobody here wrote, as Debian ships them: json-c's C API by Doxygen 1.9
 * (libjson-c-doc) and Asciidoctor's Ruby API by RDoc's Darkfish theme (asciidoctor-doc). CI
 * installs both (.ci/run); elsewhere each suite is skipped unless its package is installed.
 */
const JSONC = '/usr/share/doc/libjson-c-dev/html';
const RDOC = '/usr/share/doc/asciidoctor-doc/html';
const hasJsonc = existsSync(`${JSONC}/json__object_8h.html`);
const hasRdoc = existsSync(`${RDOC}/Asciidoctor/AbstractNode.html`);
if ((!hasJsonc || !hasRdoc) && process.env.CI)
  throw new Error(
    `${hasJsonc ? RDOC : JSONC} is missing: .ci/run installs libjson-c-doc and asciidoctor-doc for this suite.`,
  );

describe.skipIf(!hasJsonc)("Debian's Doxygen build of json-c, read with --site", () => {
  const loaded = loadHtmlSite(JSONC);
  const pageOf = async (path: string) => (await loaded).site.byPath.get(path);

  it('reads each documented member as a section at the anchor Doxygen gives it, its prototype as code', async () => {
    const page = await pageOf('/json__object_8h');
    expect(page?.title).toBe('json_object.h File Reference');
    const add = page?.sections.find((section) => section.heading === 'json_object_object_add()');
    // The id Doxygen writes right before the member's heading, which its own links use.
    expect(add?.anchor).toBe('a27bd808a022251059a43f1f6370441cd');
    expect(add?.code[0]?.value).toBe(
      'JSON_EXPORT int json_object_object_add(struct json_object * obj, const char * key, struct json_object * val)',
    );
    expect(add?.text).toMatch(/^Add an object field to a json_object of type json_type_object/);
    // A macro's value keeps its space: "#define JSON_C_TO_STRING_PRETTY(1 << 1)" read as a call.
    const pretty = page?.sections.find((section) => section.heading === 'JSON_C_TO_STRING_PRETTY');
    expect(pretty?.code[0]?.value).toBe('#define JSON_C_TO_STRING_PRETTY (1 << 1)');
    // Parameters are a list, not a table in a list item, which an excerpt read as one line.
    expect(page?.markdown).toContain(
      '* Parameters\n\n  * `obj` – the json_object instance\n  * `key` – the local name',
    );
    // The summary table is gone: its group headings had sat in list items, "◆" in every heading.
    expect(page?.markdown).not.toMatch(/\* \*\*## |◆|&#xA0;|\| \( \|/);
  });

  it('reads a code example as a code block, without the tooltips Doxygen writes for its names', async () => {
    const page = await pageOf('/json__tokener_8h');
    const parse = page?.sections.find((section) => section.heading === 'json_tokener_parse_ex()');
    const example = parse?.code.find((block) => block.value.includes('do {'));
    expect(example?.value).toContain(
      '\tjobj = json_tokener_parse_ex(tok, mystring, stringlen);'.replace('\t', '        '),
    );
    expect(page?.markdown).not.toContain('Definition:');
  });

  it("leaves out Doxygen's banner, menus, footer and indexes, and titles pages by their own heading", async () => {
    const { site, skipped } = await loaded;
    const paths = site.pages.map((page) => page.path);
    expect(paths).toEqual(expect.arrayContaining(['/', '/json__pointer_8h', '/structprintbuf']));
    expect(paths.filter((path) => /globals|functions|classes|dir_/.test(path))).toEqual([]);
    // Left out as never pages, not named on start-up one by one.
    expect(skipped).toEqual([]);
    const printbuf = await pageOf('/structprintbuf');
    expect(printbuf?.title).toBe('printbuf Struct Reference');
    for (const page of site.pages)
      expect(page.markdown).not.toMatch(
        /Generated on .* for json-c|json-c 0\.16 \||More\.\.\.\]|generated from the following file|detail level/,
      );
  });

  it('finds the function a question names', async () => {
    const retriever = createRetriever((await loaded).site);
    const first = (question: string) =>
      retriever.search(question, { limit: 3 }).hits[0]?.section.id;
    expect(first('How do I get the length of a JSON array?')).toBe(
      '/json__object_8h#ab9ea8f9c72d5adf83fdcbfe69f97fa44',
    );
  });
});

describe.skipIf(!hasRdoc)("Debian's RDoc build of Asciidoctor's API, read with --site", () => {
  const loaded = loadHtmlSite(RDOC);
  const pageOf = async (path: string) => (await loaded).site.byPath.get(path);

  it("reads each method as a section at RDoc's anchor, under its group, without its hidden source", async () => {
    const node = await pageOf('/Asciidoctor/AbstractNode');
    const role = node?.sections.find((section) => section.anchor === 'method-i-add_role');
    expect(role?.heading).toBe('add_role(name)');
    expect(role?.text).toMatch(/^Public: Adds the given role directly to this node\./);
    expect(role?.code).toEqual([]);
    // RDoc names the language as the <pre>'s only class.
    const top = await pageOf('/Asciidoctor');
    expect(top?.sections[0]?.code[0]?.lang).toBe('ruby');
    // Its group's heading stays: RDoc writes it in the section's own <header>.
    expect(node?.markdown).toContain('### Public Instance Methods\n\n#### add_role(name)');
    expect(node?.markdown).not.toMatch(
      /click to toggle source|# File lib\/|Calls superclass method/,
    );
  });

  it('finds the method a question describes', async () => {
    const retriever = createRetriever((await loaded).site);
    const hits = retriever.search('How do I add a role to a node?', { limit: 3 }).hits;
    expect(hits[0]?.section.id).toBe('/Asciidoctor/AbstractNode#method-i-add_role');
  });
});
