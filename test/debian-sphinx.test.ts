import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { DEMO } from '../src/server/config.js';
import { createApp } from '../src/server/http/app.js';
import { loadHtmlSite } from '../src/server/site/html.js';
import { sidebarGroups } from '../src/server/site/render.js';
import { askBody, post, readStream, textOf, type StreamPart } from './helpers/server.js';

/**
 * A real Sphinx build nobody here wrote: Click 8.1's documentation as Debian's python-click-doc
 * ships it (24 pages, autodoc API reference). CI installs the package (.ci/run); elsewhere the suite
 * is skipped unless it is installed (`apt-get install python-click-doc`).
 */
const CLICK = '/usr/share/doc/python-click-doc/html';
const available = existsSync(`${CLICK}/api.html`);
if (!available && process.env.CI)
  throw new Error(`${CLICK} is missing: .ci/run installs python-click-doc for this suite.`);

describe.skipIf(!available)("Debian's built Click docs, read with --site", () => {
  const retriever = loadHtmlSite(CLICK).then(({ site }) => createRetriever(site));
  const placesFor = async (question: string) =>
    (await retriever).search(question, { limit: 5 }).hits.map((hit) => hit.section.id);

  it('lists the pages in the order of its table of contents, not of its file names', async () => {
    const { site } = await loadHtmlSite(CLICK);
    const titles = sidebarGroups(site).flatMap(([, pages]) => pages.map((page) => page.title));
    expect(titles.slice(0, 4)).toEqual([
      'Welcome to Click',
      'Why Click?',
      'Quickstart',
      'Setuptools Integration',
    ]);
    // Its changelog is the toctree's last entry; in file order ("changes.html") it came fourth.
    expect(titles.at(-1)).toBe('Changes');
  });

  it('reads a parameter’s type as one piece of code, not a run of emphasis and links', async () => {
    const { site } = await loadHtmlSite(CLICK);
    const invoke = site.byPath
      .get('/api')!
      .sections.find((section) => section.anchor === 'click.testing.CliRunner.invoke')!;
    expect(invoke.text).toContain('args (Optional[Union[str, Sequence[str]]]) – the arguments');
    const markdown = site.byPath.get('/api')!.markdown;
    expect(markdown).toContain('**args** (`Optional[Union[str, Sequence[str]]]`) – the arguments');
    expect(markdown).not.toContain('*\\[*');
  });

  it('reads a note’s title as its paragraph’s label, not a loose word of its own', async () => {
    const { site } = await loadHtmlSite(CLICK);
    expect(site.byPath.get('/commands')!.markdown).toContain(
      '**Note:** It is currently not possible for chain commands to be nested.',
    );
    expect(site.byPath.get('/options')!.markdown).toContain(
      '**Callback Signature Changes:** In Click 2.0 the signature for callbacks changed.',
    );
  });

  it('labels the code of Sphinx’s default highlighting as Python', async () => {
    const { site } = await loadHtmlSite(CLICK);
    const code = site.byPath
      .get('/advanced')!
      .sections.flatMap((section) => section.code)
      .find((sample) => sample.value.startsWith('def get_current_command_name'));
    expect(code?.lang).toBe('python');
  });

  it('answers a question about one API member from that member, at its anchor', async () => {
    const places = await placesFor('What parameters does CliRunner.invoke take?');
    expect(places[0]).toBe('/api#click.testing.CliRunner.invoke');
  });

  it('offers next no API entry merely for following the quoted one in the reference', async () => {
    const { site } = await loadHtmlSite(CLICK);
    const app = createApp({
      orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
      sites: [{ domain: DEMO.domain, org: 'o', docs: site }],
    });
    const parts: StreamPart[] = await readStream(
      await post(app, askBody('What parameters does CliRunner.invoke take?')),
    );
    expect(textOf(parts)).toContain('click.testing.CliRunner.invoke');
    const suggestions =
      parts
        .filter((p) => p.type === 'message_annotations')
        .flatMap((p) => p.value as { type: string; questions?: string[] }[])
        .find((a) => a.type === 'suggestions')?.questions ?? [];
    // Not `CliRunner.isolated`, `CliRunner.make_env`…: the names after it on the API page.
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.filter((question) => question.includes('click.testing.'))).toEqual([]);
  });

  it('offers first the entry a question names, in the case it is written', async () => {
    // `click.option` is the decorator; `click.Option` the class. Their guide pages score higher.
    const places = await placesFor('What parameters does click.option accept?');
    expect(places[0]).toBe('/api#click.option');
  });

  it('answers a guide question from the guide, not from the API page that names every member', async () => {
    const places = await placesFor(
      'How do I show the default value of an option in the help output?',
    );
    expect(places[0]).toBe('/options#basic-value-options');
  });

  it('never offers the index page’s table of contents as a place', async () => {
    // "This part of the documentation guides you through…" over a list of every page and section.
    const places = await placesFor('How do I test a Click command?');
    expect(places[0]).toBe('/testing#basic-testing');
    expect(places).not.toContain('/#documentation');
  });
});
