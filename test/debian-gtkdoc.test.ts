import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadHtmlSite } from '../src/server/site/html.js';

/**
 * A real GTK-Doc build nobody here wrote, as Debian ships it: GLib's reference manual
 * (libglib2.0-doc, GTK-Doc 1.33). CI installs it (.ci/run); elsewhere the suite is skipped unless
 * the package is installed. Its 99 pages take half a minute to read: a slow suite.
 */
const GLIB = '/usr/share/gtk-doc/html/glib';
const hasGlib = existsSync(`${GLIB}/glib-Arrays.html`);
if (!hasGlib && process.env.CI)
  throw new Error(`${GLIB} is missing: .ci/run installs libglib2.0-doc for this suite.`);

describe.skipIf(!hasGlib)("Debian's GTK-Doc build of GLib, read with --site", () => {
  const loaded = loadHtmlSite(GLIB);
  const pageOf = async (path: string) => (await loaded).site.byPath.get(path);

  it('titles a page by its entry and leaves out the navigation bar and the summary tables', async () => {
    const arrays = await pageOf('/glib-Arrays');
    expect(arrays?.title).toBe('Arrays');
    expect((await pageOf('/'))?.title).toBe('GLib Reference Manual');
    // The bar of "Top | Description" and Home, Up, Prev, Next icons; the rules between members.
    expect(arrays?.markdown).not.toMatch(/\[Top\]|home\.png|right\.png|\n\*\*\*\n/);
    // The functions are detailed once: their summary table ("Functions" twice) is gone.
    expect(arrays?.markdown.match(/^## Functions$/gm)).toHaveLength(1);
    const { site } = await loaded;
    expect(site.pages.map((page) => page.path)).not.toContain('/api-index-full');
  });

  it("reads a code example without its line numbers and a function's parameters as a list", async () => {
    const arrays = await pageOf('/glib-Arrays');
    const example = arrays?.sections.find((section) => section.heading === 'Description')?.code[0];
    expect(example?.value).toMatch(/^GArray \*garray;\ngint i;\n/);
    const create = arrays?.sections.find((section) => section.anchor === 'g-array-new');
    expect(create?.heading).toBe('g_array_new\u00a0()');
    const parameters = arrays?.sections.find(
      (section) => section.anchor === 'g-array-new.parameters',
    );
    // Rows of a name, a description and an empty annotation cell: "| element_size | … |   |".
    expect(parameters?.text).toContain('element_size – the size of each element in bytes');
    const hash = await pageOf('/glib-Hash-Tables');
    expect(hash?.markdown).toContain(
      '* `key_equal_func` – a function to check two keys for equality',
    );
  });
});
