import { readFileSync, statSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { extract } from 'tar';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { exportSite } from '../src/server/export/site-export.js';
import { createApp } from '../src/server/http/app.js';
import { docLinkTarget } from '../src/server/site/doc-links.js';
import { loadHtmlSite, parseHtmlPage } from '../src/server/site/html.js';
import {
  createSite,
  isNavigation,
  loadDocsSite,
  siteNameOf,
  type DocPage,
  type DocsSite,
} from '../src/server/site/docs.js';
import { pageMarkdown } from '../src/server/site/page-markdown.js';
import { renderMarkdown, sidebarGroups } from '../src/server/site/render.js';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { captureIo } from './helpers/cli.js';
import {
  askBody,
  demoApp,
  readStream,
  searchResultsOf,
  tempDir,
  textOf,
} from './helpers/server.js';
import { FRAMEWORK_BUILDS } from './helpers/sites.js';

const BUILDS = FRAMEWORK_BUILDS;

/** The file a static server answers a URL path with: `/a/` → a/index.html, `/a` → a.html or a/index.html. */
function servedFile(dir: string, urlPath: string): string | undefined {
  const path = decodeURI(urlPath).replace(/^\//, '');
  const candidates =
    path.endsWith('/') || path === ''
      ? [`${path}index.html`]
      : [path, `${path}.html`, `${path}/index.html`];
  return candidates
    .map((file) => join(dir, file))
    .find((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
}

const isPage = (page: DocPage | { skipped: string }): page is DocPage => !('skipped' in page);

/** The heading of the section of `page` whose text holds `text`. */
const headingWith = (page: DocPage, text: string) =>
  page.sections.find((section) => section.text.includes(text))?.heading;

/** A page parsed from its HTML, failing the test with the reason when it is skipped. */
function parsedPage(file: string, html: string): DocPage {
  const page = parseHtmlPage(file, html);
  if (!isPage(page)) throw new Error(page.skipped);
  return page;
}

/** Built pages of one heading and one paragraph, written into `dir` as [file, title] pairs. */
async function writeBuiltPages(dir: string, pages: [file: string, title: string][]) {
  for (const [file, title] of pages)
    await writeFile(
      join(dir, file),
      `<div role="main"><h1>${title}</h1><p>About ${title}.</p></div>`,
    );
}

/** The sidebar's groups as "Group: Page, Page" lines. */
const groupLines = (site: DocsSite) =>
  sidebarGroups(site).map(
    ([name, pages]) => `${name}: ${pages.map((page) => page.title).join(', ')}`,
  );

/** A built page of one heading and one paragraph, parsed. */
const builtPage = (file: string, title: string) =>
  parsedPage(
    file,
    `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Text.</p></main></body></html>`,
  );

describe.each(Object.entries(BUILDS))('a %s build read with --site', (name, dir) => {
  it('serves every page at a URL the build serves, with headings whose anchors exist there', async () => {
    const { site } = await loadHtmlSite(dir);
    // The Docusaurus fixture also has an unlisted page (below).
    const unlisted = name === 'Docusaurus' ? ['Upgrade notes'] : [];
    expect(site.pages.map((page) => page.title).sort()).toEqual(
      ['Acme Widgets', 'Getting started', 'Widget setup', ...unlisted].sort(),
    );
    for (const page of site.pages) {
      const file = servedFile(dir, String(page.frontmatter?.permalink));
      expect(file, `${page.file} → ${String(page.frontmatter?.permalink)}`).toBeDefined();
      const html = readFileSync(file!, 'utf8');
      for (const section of page.sections.filter((s) => s.anchor))
        expect(html, `${page.file}#${section.anchor}`).toContain(`id="${section.anchor}"`);
    }
    // The home page opens the sidebar, whatever its file name sorts after (every Starlight and
    // MkDocs page is an index.html).
    expect(sidebarGroups(site)[0]![1][0]!.path).toBe('/');
    // A folder's lone index page (Starlight's and MkDocs' `getting-started/index.html`) is no
    // group of its own.
    expect(sidebarGroups(site).map(([group]) => group)).not.toContain('Getting started');
    const setup = site.pages.find((page) => page.title === 'Widget setup')!;
    expect(setup.sections.map((s) => s.heading)).toEqual(
      expect.arrayContaining(['Refresh interval', 'Data sources', 'Error handling']),
    );
  });

  it('keeps code blocks with their language and line breaks, and leaves the chrome out', async () => {
    const { site } = await loadHtmlSite(dir);
    const start = site.pages.find((page) => page.title === 'Getting started')!;
    const install = start.sections.find((s) => s.anchor === 'install')!;
    expect(install.code).toEqual([
      {
        lang: 'sh',
        value: expect.stringMatching(/^npm install acme-widgets --save\nnpx acme-widgets init /),
      },
    ]);
    const render = start.sections.find((s) => s.anchor === 'render-a-first-widget')!;
    expect(render.code[0]?.lang).toBe('tsx');
    expect(render.code[0]?.value.split('\n').length).toBeGreaterThanOrEqual(5);
    const everything = site.pages.map((page) => page.markdown).join('\n');
    // Copy buttons, "Edit this page", search boxes, prev/next, heading self-links, skip links.
    expect(everything).not.toMatch(
      /Copy (code|to clipboard)|Edit (this|the) page|Search|Skip to content|Next page|Previous|\u200b|Direct link|Section titled/i,
    );
  });

  it('answers a question with a citation that opens in the built site at its anchor', async () => {
    const { site } = await loadHtmlSite(dir);
    const app = createApp({
      orgs: [{ id: 'acme', plan: 'enterprise', keys: ['svc_dsc_acme'] }],
      sites: [
        {
          domain: 'acme',
          org: 'acme',
          docs: site,
          pageUrls: { style: 'plain' },
          publicUrl: 'https://docs.acme.dev',
        },
      ],
    });
    const response = await app.request('http://test/discovery/v1/assistant/acme/message', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer svc_dsc_acme' },
      body: JSON.stringify(askBody('What is the default refresh interval?')),
    });
    const cited = new URL(searchResultsOf(await readStream(response))[0]!.url);
    expect(cited.origin).toBe('https://docs.acme.dev');
    expect(cited.hash).toBe('#refresh-interval');
    const file = servedFile(dir, cited.pathname);
    expect(file, cited.pathname).toBeDefined();
    expect(readFileSync(file!, 'utf8')).toContain('id="refresh-interval"');
  });
});

describe('a built page read by the HTML loader', () => {
  it('keeps tables as tables and a Sphinx heading’s anchor from its self-link', () => {
    const page = parsedPage(
      'api/config.html',
      `<!doctype html><html lang="fr"><head><title>Config — Acme</title></head><body>
      <div class="sphinxsidebar" role="navigation"><h3>Navigation</h3><p>Sidebar words</p></div>
      <div class="body" role="main"><section id="config"><h1>Config<a class="headerlink" href="#config">¶</a></h1>
      <section id="options"><h2>Options<a class="headerlink" href="#options">¶</a></h2>
      <table><thead><tr><th>Name</th><th>Default</th></tr></thead>
      <tbody><tr><td>timeout</td><td>30</td></tr></tbody></table>
      <div class="highlight-python notranslate"><div class="highlight"><pre><span></span>import acme
acme.run()
</pre></div></div>
      <div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span>acme.stop()
</pre></div></div>
      <p><a href="https://github.com/acme/x/edit/main/config.rst">Edit on GitHub</a></p>
      </section></section></div></body></html>`,
    );
    expect(page).toMatchObject({ title: 'Config', language: 'fr', path: '/api/config' });
    expect(page.frontmatter?.permalink).toBe('/api/config.html');
    const options = page.sections.find((s) => s.heading === 'Options')!;
    expect(options.anchor).toBe('options');
    expect(options.blocks.map((b) => b.kind)).toEqual(['table', 'code', 'code']);
    expect(options.blocks[0]!.markdown).toMatch(/\| Name +\| Default \|/);
    // Pygments' `python3` (Celery's) is labelled as Python, which highlighters know.
    expect(options.code).toEqual([
      { lang: 'python', value: 'import acme\nacme.run()' },
      { lang: 'python', value: 'acme.stop()' },
    ]);
    expect(page.markdown).not.toMatch(/Sidebar words|Edit on GitHub|¶/);
  });

  it("gives a served heading its section's anchor when its text has a no-break space", () => {
    // As GTK-Doc heads each function ("g_array_new&#160;()"), after an `<a name>` target: the
    // served heading took a slug of its text, and the answers' links to the target led nowhere.
    const page = parsedPage(
      'arrays.html',
      `<!doctype html><html><head><title>Arrays</title></head><body><div role="main">
      <h1>Arrays</h1><p>Arrays grow.</p>
      <div class="refsect2"><a name="g-array-new"></a><h3>g_array_new&#160;()</h3>
      <p>Creates a new array.</p></div></div></body></html>`,
    );
    expect(page.sections.at(-1)?.anchor).toBe('g-array-new');
    const html = renderMarkdown(page, createSite([page]), { page: (p) => p, file: (p) => p });
    expect(html).toMatch(/<h3 id="g-array-new">/);
  });

  it('reads a DocBook chunk without its navigation bars, its notes as notes and its title once', () => {
    // As PostgreSQL's manual (Debian's postgresql-doc-15, DocBook XSL): a table of Prev, Up, Home
    // and Next links above and below each page; "Tip" read as a heading, under which the rest of
    // the section was cited; the title twice; "`class`` = 2`"; a shell session labelled "prompt".
    const nav = (summary: string) =>
      `<div class="${summary}"><table summary="Navigation ${summary}"><tr><td><a accesskey="p" href="a.html">Prev</a></td><td><a accesskey="u" href="b.html">Up</a></td><th>Chapter 21. Client Authentication</th><td><a accesskey="n" href="c.html">Next</a></td></tr></table></div>`;
    const page = parsedPage(
      'auth-pg-hba-conf.html',
      `<!doctype html><html><head><title>21.1. The pg_hba.conf File</title>
      <meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"></head><body>
      ${nav('navheader')}<div class="sect1" id="AUTH-PG-HBA-CONF"><div class="titlepage"><div><div>
      <h2 class="title">21.1. The <code class="filename">pg_hba.conf</code> File</h2></div></div></div>
      <p>Client authentication is controlled by a configuration file.</p>
      <div class="tip"><h3 class="title">Tip</h3><p>A user must also have the <code class="literal">CONNECT</code> privilege.</p></div>
      <p>A row with <code class="structfield">class</code><code class="literal"> = 2</code> matches.</p>
      <pre class="screen">\n<code class="prompt">$</code> <strong class="userinput"><code>pg_dump -Fc mydb &gt; db.dump</code></strong>\n</pre>
      </div>${nav('navfooter')}</body></html>`,
    );
    expect(page.title).toBe('21.1. The pg_hba.conf File');
    expect(page.markdown).not.toMatch(/Prev|Next|Chapter 21/);
    expect(page.markdown.match(/^#+ 21\.1\./gm)).toHaveLength(1);
    expect(page.sections.map((section) => section.heading)).not.toContain('Tip');
    expect(page.markdown).toContain('**Tip:** A user must also have the `CONNECT` privilege.');
    expect(page.markdown).toContain('A row with `class = 2` matches.');
    expect(page.sections[0]?.code[0]).toEqual({ lang: '', value: '$ pg_dump -Fc mydb > db.dump' });
  });

  it('draws a table that had no header row without an empty one above it', () => {
    // As Sphinx builds a table written without a header whose first row is an entry, not labels
    // (Flask's "Method Views" routes table, without its "URL | Method" row).
    const page = parsedPage(
      'views.html',
      `<!doctype html><html><head><title>Views</title></head><body><div role="main">
      <h1>Views</h1><p>This produces the following views:</p>
      <table class="docutils"><tbody><tr><td><p><code>/users/</code></p></td><td><p><code>GET</code></p></td></tr>
      <tr><td><p><code>/users/&lt;id&gt;</code></p></td><td><p><code>PUT</code></p></td></tr></tbody></table>
      </div></body></html>`,
    );
    const html = renderMarkdown(page, createSite([page]), { page: (p) => p, file: (p) => p });
    expect(html).not.toContain('<thead>');
    expect([...html.matchAll(/<tr>/g)]).toHaveLength(2);
    expect(html).toMatch(/<td><code>\/users\/<\/code><\/td>/);
    // A table with a header keeps it.
    const headed = { ...page, markdown: '| Name | Default |\n| - | - |\n| timeout | 30 |' };
    expect(
      renderMarkdown(headed, createSite([headed]), { page: (p) => p, file: (p) => p }),
    ).toMatch(/<thead>\s*<tr>\s*<th>Name<\/th>/);
  });

  it('titles a page by its <title> without the site’s name, and never by a placeholder or a stray symbol', () => {
    // As Debian's python-black-doc (Sphinx built without its Markdown extension) ships 24 pages:
    // `<title><no title> — Black 23.1.0 documentation</title>`, and stray `<h1>)</h1>` headings.
    const pageOf = (file: string, title: string, body: string) => {
      const page = parsedPage(
        file,
        `<html><head><title>${title}</title></head><body><div class="body" role="main">${body}</div></body></html>`,
      );
      return page;
    };
    const text = '<p>Black can be installed by running pip install black.</p>';
    expect(pageOf('faq.html', 'FAQ — Black 23.1.0 documentation', text).title).toBe('FAQ');
    expect(
      pageOf('getting_started.html', '&lt;no title&gt; — Black 23.1.0 documentation', text).title,
    ).toBe('Getting started');
    expect(
      pageOf('guides/index.html', '&lt;no title&gt; — Black documentation', `<h1>)</h1>${text}`)
        .title,
    ).toBe('Guides');
    expect(
      pageOf('api.html', ') — Black documentation', `<h1>Black classes</h1>${text}`).title,
    ).toBe('Black classes');
  });

  it('makes each of Sphinx’s API entries a section of its own, at its anchor, with its signature', () => {
    // Sphinx's autodoc markup, as Debian's python-click-doc ships it (a class's methods nested in
    // its <dd>, the signature's "¶" self-link and viewcode's "[source]" link).
    const page = parsedPage(
      'api.html',
      `<html><head><title>API — Acme</title></head><body><div class="body" role="main">
      <section id="api"><h1>API<a class="headerlink" href="#api">¶</a></h1>
      <section id="decorators"><h2>Decorators<a class="headerlink" href="#decorators">¶</a></h2>
      <dl class="py function"><dt class="sig sig-object py" id="acme.option">
      <span class="sig-prename descclassname"><span class="pre">acme.</span></span><span class="sig-name descname"><span class="pre">option</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="pre">*param_decls</span></em><span class="sig-paren">)</span><a class="reference internal" href="_modules/acme.html#option"><span class="viewcode-link">[source]</span></a><a class="headerlink" href="#acme.option">¶</a></dt>
      <dd><p>Attaches an option to the command.</p></dd></dl>
      <dl class="py class"><dt class="sig sig-object py" id="acme.testing.Runner">
      <em class="property">class </em><span class="sig-prename descclassname"><span class="pre">acme.testing.</span></span><span class="sig-name descname"><span class="pre">Runner</span></span><a class="headerlink" href="#acme.testing.Runner">¶</a></dt>
      <dd><p>Runs a command in isolation.</p>
      <dl class="py method"><dt class="sig sig-object py" id="acme.testing.Runner.invoke">
      <span class="sig-name descname"><span class="pre">invoke</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="pre">cli</span></em>, <em class="sig-param"><span class="pre">input=None</span></em><span class="sig-paren">)</span><a class="headerlink" href="#acme.testing.Runner.invoke">¶</a></dt>
      <dd><p>Invokes a command; input is fed to its standard input.</p></dd></dl>
      </dd></dl>
      </section></section></div></body></html>`,
    );
    const entries = page.sections.filter((s) => s.anchor.startsWith('acme.'));
    expect(entries.map((s) => [s.heading, s.anchor])).toEqual([
      ['acme.option', 'acme.option'],
      ['acme.testing.Runner', 'acme.testing.Runner'],
      ['acme.testing.Runner.invoke', 'acme.testing.Runner.invoke'],
    ]);
    const invoke = entries[2]!;
    expect(invoke.blocks.map((b) => b.markdown)).toEqual([
      '`invoke(cli, input=None)`',
      'Invokes a command; input is fed to its standard input.',
    ]);
    expect(entries[0]!.blocks[0]!.markdown).toBe('`acme.option(*param_decls)`');
    expect(page.sections.find((s) => s.anchor === 'decorators')).toBeUndefined();
    // The served page keeps those anchors, so a citation's link lands on its entry.
    const html = renderMarkdown(page, createSite([page]), { page: (p) => p, file: (p) => p });
    expect(html).toContain('id="acme.testing.Runner.invoke"');
    expect(html).toContain('<h2 id="decorators">');
  });

  it('lists a built site’s root page first in its sidebar group, wherever its file name sorts', () => {
    const site = createSite([
      builtPage('api.html', 'API'),
      builtPage('index.html', 'Welcome'),
      builtPage('why.html', 'Why'),
    ]);
    expect(sidebarGroups(site)[0]![1].map((p) => p.file)).toEqual([
      'index.html',
      'api.html',
      'why.html',
    ]);
  });

  it('puts a folder’s index page at the head of its folder’s group, not above the root’s pages', () => {
    // As Sphinx builds Flask's docs: the root's toctree links tutorial/index before installation.
    const site = createSite([
      builtPage('index.html', 'Welcome'),
      builtPage('installation.html', 'Installation'),
      builtPage('tutorial/layout.html', 'Project Layout'),
      builtPage('tutorial/index.html', 'Tutorial'),
      builtPage('quickstart.html', 'Quickstart'),
    ]);
    expect(sidebarGroups(site).map(([group, pages]) => [group, pages.map((p) => p.title)])).toEqual(
      [
        ['Overview', ['Welcome', 'Installation', 'Quickstart']],
        ['Tutorial', ['Tutorial', 'Project Layout']],
      ],
    );
  });

  it('takes the URL from <link rel=canonical> and the version from a versioned path', () => {
    const page = parsedPage(
      'v2/guide/index.html',
      `<html><head><link rel="canonical" href="https://acme.dev/v2/guide"></head>
      <body><main><h1>Guide</h1><p>Words.</p></main></body></html>`,
    );
    expect(page).toMatchObject({ path: '/v2/guide', version: 'v2', language: 'en' });
    expect(page.frontmatter?.permalink).toBe('/v2/guide');
  });

  it('leaves API entries in their section when the section’s prose goes on after them', () => {
    const page = parsedPage(
      'api.html',
      `<html><body><div role="main"><section id="api"><h1>API</h1>
      <section id="autoescaping"><h2>Autoescaping</h2>
      <p>Autoescaping is off by default.</p>
      <dl class="py function"><dt class="sig sig-object py" id="jinja2.select_autoescape">
      <span class="sig-prename descclassname">jinja2.</span><span class="sig-name descname">select_autoescape</span>()</dt>
      <dd><p>Picks autoescaping by file name.</p></dd></dl>
      <p>Here a recommended setup that enables autoescaping for templates ending in .html.</p>
      </section>
      <section id="loaders"><h2>Loaders</h2>
      <dl class="py class"><dt class="sig sig-object py" id="jinja2.FileSystemLoader">
      <span class="sig-prename descclassname">jinja2.</span><span class="sig-name descname">FileSystemLoader</span>(searchpath)</dt>
      <dd><p>Loads templates from a folder.</p></dd></dl>
      </section></section></div></body></html>`,
    );
    const headingOf = (text: string) => headingWith(page, text);
    // The paragraph after the entry is the section's, not the entry's.
    expect(headingOf('Here a recommended setup')).toBe('Autoescaping');
    expect(headingOf('Picks autoescaping by file name')).toBe('Autoescaping');
    // A section of entries alone still makes each entry a section.
    expect(headingOf('Loads templates from a folder')).toBe('jinja2.FileSystemLoader');
  });

  it('moves a note that closes a run of API entries above them, so each entry is still a section', () => {
    // As python-werkzeug-doc's serving page: run_simple and two more functions, then an
    // "Information" box about the development server, all in the page's first section.
    const page = parsedPage(
      'serving.html',
      `<html><body><div role="main"><section id="module-werkzeug.serving"><h1>Serving WSGI Applications</h1>
      <p>Run an application with the development server.</p>
      <dl class="py function"><dt class="sig sig-object py" id="werkzeug.serving.run_simple">
      <span class="sig-prename descclassname">werkzeug.serving.</span><span class="sig-name descname">run_simple</span>(<em class="sig-param">hostname</em>, <em class="sig-param">port</em>)</dt>
      <dd><p>Start a development server for a WSGI application.</p></dd></dl>
      <dl class="py function"><dt class="sig sig-object py" id="werkzeug.serving.is_running_from_reloader">
      <span class="sig-prename descclassname">werkzeug.serving.</span><span class="sig-name descname">is_running_from_reloader</span>()</dt>
      <dd><p>Check if the server is running as a subprocess within the reloader.</p></dd></dl>
      <div class="admonition-information admonition"><p class="admonition-title">Information</p>
      <p>The development server is not intended to be used on production systems.</p></div>
      <section id="reloader"><h2>Reloader</h2><p>The reloader watches files.</p></section>
      </section></div></body></html>`,
    );
    expect(headingWith(page, 'Start a development server')).toBe('werkzeug.serving.run_simple');
    expect(headingWith(page, 'running as a subprocess')).toBe(
      'werkzeug.serving.is_running_from_reloader',
    );
    // The note stays the section's, read before the entries.
    expect(headingWith(page, 'not intended to be used on production')).toBe(
      'Serving WSGI Applications',
    );
    expect(page.markdown).toMatch(
      /development server\.\n\n\*\*Information:\*\* The development server is not intended[^]*#### werkzeug\.serving\.run_simple\n\n`werkzeug\.serving\.run_simple\(hostname, port\)`/,
    );
  });

  it('reads a definition list of short definitions as a list of “term – definition” items', () => {
    // As cmd2's shortcuts (Debian's python-cmd2-doc): "`?`" and "help" on lines of their own did
    // not say which went with which. docutils also reads a paragraph whose next line is indented
    // as a definition list (aiohttp's "*kwargs* are parameters passed to"): no terms, left alone.
    const page = parsedPage(
      'shortcuts.html',
      `<html><body><div role="main"><section id="shortcuts"><h1>Shortcuts</h1>
      <p>By default, the following shortcuts are defined:</p>
      <blockquote><div><dl class="simple">
      <dt><code>?</code></dt><dd><p>help</p></dd>
      <dt><code>!</code></dt><dd><p>shell: run as OS-level command</p></dd>
      <dt>Mac OS X:</dt><dd><p><code>~/Library/Application Support/Foo</code></p></dd>
      </dl></div></blockquote>
      <dl class="simple"><dt><em>kwargs</em> are parameters passed to the</dt>
      <dd><p>application factory.</p></dd></dl>
      </section></div></body></html>`,
    );
    expect(page.markdown).toContain(
      '> * `?` – help\n> * `!` – shell: run as OS-level command\n> * Mac OS X: `~/Library/Application Support/Foo`',
    );
    expect(page.markdown).toMatch(
      /\*kwargs\* are parameters passed to the\n\n\s*application factory\./,
    );
  });

  it('shows a rubric as the bold line Sphinx draws', () => {
    // As Sphinx's "Examples" over a docstring's code and bottle's "About the Autor", which read
    // as sentences of the page (and described it in llms.txt).
    const page = parsedPage(
      'contact.html',
      '<div role="main"><h1>Contact</h1><p class="rubric">About the Autor</p><p>Hi, I’m Marcel.</p></div>',
    );
    expect(page.markdown).toContain('**About the Autor**\n\nHi, I’m Marcel.');
  });

  it('reads a rubric that names the entries after it as their heading', () => {
    // As python-psycopg2-doc's `connection` class: its methods in groups, each after a rubric
    // ("Two-phase commit support methods") and its notes, and a DB API box among them. As prose,
    // the rubrics left every method before the last one a list item of the class's one section.
    const method = (name: string, text: string) =>
      `<dl class="py method"><dt class="sig sig-object py" id="connection.${name}">
      <span class="sig-name descname"><span class="pre">${name}</span></span><span class="sig-paren">(</span><span class="sig-paren">)</span></dt>
      <dd><p>${text}</p></dd></dl>`;
    const page = parsedPage(
      'connection.html',
      `<html><body><div role="main"><section id="the-connection-class"><h1>The connection class</h1>
      <dl class="py class"><dt class="sig sig-object py" id="connection"><span class="sig-name descname">connection</span></dt>
      <dd><p>Handles the connection to a PostgreSQL database instance.</p>
      <p class="rubric">Example</p>
      <div class="highlight-python"><pre>conn = psycopg2.connect(dsn)</pre></div>
      ${method('commit', 'Commit any pending transaction to the database.')}
      <p class="rubric" id="index-4">Two-phase commit support methods</p>
      <div class="versionadded"><p>New in version 2.3.</p></div>
      <p>PostgreSQL supports two-phase commit since release 8.1.</p>
      ${method('tpc_begin', 'Begins a TPC transaction with the given transaction ID.')}
      <div class="dbapi-extension admonition"><p class="admonition-title">DB API extension</p><p>The above methods are the only ones defined by the DB API.</p></div>
      ${method('cancel', 'Cancel the current database operation.')}
      </dd></dl>
      <dl class="std option"><dt class="sig sig-object std" id="cmdoption-H"><span class="sig-name descname"><span class="pre">-H</span></span><span class="sig-prename descclassname"> <span class="pre">&lt;project&gt;</span></span></dt>
      <dd><p>Sets the project name.</p></dd></dl>
      </section></div></body></html>`,
    );
    expect(headingWith(page, 'Commit any pending transaction')).toBe('connection.commit');
    expect(headingWith(page, 'Begins a TPC transaction')).toBe('connection.tpc_begin');
    expect(headingWith(page, 'since release 8.1')).toBe('Two-phase commit support methods');
    expect(headingWith(page, 'Cancel the current database operation')).toBe('connection.cancel');
    // A rubric before code, not entries, is a docstring's own part ("Example"), not a heading.
    expect(headingWith(page, 'Handles the connection')).toBe('connection');
    expect(page.markdown).toMatch(/^\*\*Example\*\*\n\n```/m);
    // An option's heading is all of its signature, its argument after its name.
    expect(headingWith(page, 'Sets the project name')).toBe('-H <project>');
  });

  it('reads a bold paragraph over entries as their heading, and passes over an entry without an anchor', () => {
    // As python-wtforms-doc's `Field`: its members in groups under "**Construction**" and
    // "**Properties**", and `errors` described twice, the second time without an `id`. The
    // members before that second `errors` were list items of one long section, those after it
    // sections: "Construct a new field" was no section of `__init__`.
    const member = (name: string, text: string, id = true) =>
      `<dl class="py attribute"><dt class="sig sig-object py"${id ? ` id="wtforms.fields.Field.${name}"` : ''}>
      <span class="sig-name descname"><span class="pre">${name}</span></span></dt>
      <dd><p>${text}</p></dd></dl>`;
    const page = parsedPage(
      'fields.html',
      `<div role="main"><section id="fields"><h1>Fields</h1>
      <dl class="py class"><dt class="sig sig-object py" id="wtforms.fields.Field"><span class="sig-name descname"><span class="pre">Field</span></span></dt>
      <dd><p>Stores and processes data.</p>
      <p><strong>Construction</strong></p>
      ${member('__init__', 'Construct a new field.')}
      <p><strong>Properties</strong></p>
      ${member('name', 'The HTML form name of this field.')}
      ${member('errors', 'A sequence containing the validation errors.', false)}
      ${member('widget', 'The widget used to render the field.')}
      </dd></dl></section></div>`,
    );
    expect(headingWith(page, 'Construct a new field')).toBe('wtforms.fields.Field.__init__');
    expect(headingWith(page, 'The HTML form name')).toBe('wtforms.fields.Field.name');
    expect(headingWith(page, 'The widget used')).toBe('wtforms.fields.Field.widget');
    expect(page.markdown).toMatch(/^#{4,6} Properties$/m);
    // The entry without an anchor stays where it was written, its words kept.
    expect(page.markdown).toContain('A sequence containing the validation errors.');
  });

  it('makes the entries after a section’s last prose sections of their own, and leaves those before it', () => {
    // As Celery's API reference has `crontab`: attributes, a paragraph about them, then methods.
    const entry = (kind: string, id: string, name: string, text: string) =>
      `<dl class="py ${kind}"><dt class="sig sig-object py" id="${id}">
      <span class="sig-name descname"><span class="pre">${name}</span></span><a class="reference internal" href="../_modules/acme.html#x"><span class="viewcode-link"><span class="pre">[source]</span></span></a><a class="headerlink" href="#${id}">¶</a></dt>
      <dd><p>${text}</p></dd></dl>`;
    const page = parsedPage(
      'api.html',
      `<html><body><div role="main"><section id="api"><h1>API</h1>
      ${entry('class', 'acme.crontab', 'crontab', 'A crontab-like schedule.').replace(
        '</p></dd></dl>',
        '</p>',
      )}
      ${entry('attribute', 'acme.crontab.minute', 'minute', 'The minutes to run at.')}
      <p>It is important to realize that any day matches when both are given.</p>
      ${entry('method', 'acme.crontab.is_due', 'is_due', 'Returns whether the task is due.')}
      ${entry('method', 'acme.crontab.remaining_estimate', 'remaining_estimate', 'Estimates the next run.')}
      </dd></dl></section></div></body></html>`,
    );
    const headingOf = (text: string) => headingWith(page, text);
    expect(headingOf('The minutes to run at')).toBe('acme.crontab');
    expect(headingOf('It is important to realize')).toBe('acme.crontab');
    expect(headingOf('Returns whether the task is due')).toBe('acme.crontab.is_due');
    expect(headingOf('Estimates the next run')).toBe('acme.crontab.remaining_estimate');
    // viewcode's "[source]" leads into `_modules/`, which is not served: no entry keeps it.
    expect(page.markdown).not.toMatch(/source\]|_modules/);
  });

  it('mends what a build’s markup errors leave: links to docutils’ error reports, headings of punctuation', () => {
    // As Debian's python-black-doc ships it: its Markdown left unconverted, so docutils read
    // `*variables` and stray brackets as markup it could not parse.
    const page = parsedPage(
      'style.html',
      `<html><body><div role="main"><section id="current-style"><h1>Current style</h1>
      <p>Black reformats calls such as very_important_function(template: str, <a href="#id18"><span class="problematic" id="id19">*</span></a>variables).</p>
      <section id="id62"><h1>)<a class="headerlink" href="#id62">¶</a></h1>
      <p>Black prefers double quotes.</p></section></section></div></body></html>`,
    );
    expect(page.sections.map((s) => s.heading)).toEqual(['Current style']);
    expect(page.markdown).toContain('(template: str, \\*variables)');
    expect(page.markdown).not.toContain('#id18');
    expect(page.markdown).toContain('Black prefers double quotes.');
  });

  it('reads docutils’ indentation as what it indents, not as a quote, inside a list item and around code', () => {
    // As Debian's python-celery-doc: a step's command, indented under it, written as a quote.
    const page = parsedPage(
      'django.html',
      `<html><body><div role="main"><h1>Django</h1><ol>
      <li><p>Install the library:</p><blockquote><div><div class="highlight-console notranslate"><div class="highlight"><pre><span class="gp">$ </span>pip install django-celery-results
</pre></div></div></div></blockquote></li>
      <li><p>Configure it.</p><blockquote><div><p>Add the following settings:</p><div class="highlight-python notranslate"><div class="highlight"><pre>CELERY_RESULT_BACKEND = 'django-db'
</pre></div></div></div></blockquote></li></ol>
      <blockquote><div><div class="highlight-console notranslate"><div class="highlight"><pre><span class="gp">$ </span>celery worker
</pre></div></div></div></blockquote>
      <blockquote><div><p>Simple things should be simple.</p></div></blockquote>
      </div></body></html>`,
    );
    expect(page.markdown).toContain(
      '1. Install the library:\n\n   ```console\n   $ pip install django-celery-results\n   ```',
    );
    expect(page.markdown).toContain('   Add the following settings:\n\n   ```python');
    expect(page.markdown).toContain('```console\n$ celery worker\n```');
    // A quote outside a list, of prose, stays a quote.
    expect(page.markdown).toContain('> Simple things should be simple.');
    expect(page.markdown.match(/^\s*>/gm)).toHaveLength(1);
  });

  it('reads a sphinx-click option with the paragraph after its empty entry as its own section', () => {
    // As Debian's python-cookiecutter-doc ships "Command Line Options": each option a <dl> opened
    // inside a <p> (which the parser closes), with an empty <dd> and its description after it.
    const option = (id: string, target: string, names: string[], text: string) =>
      `<span class="target" id="${target}"></span><dl class="std option">
      <dt class="sig sig-object std" id="${id}">${names
        .map((name) => `<span class="sig-name descname"><span class="pre">${name}</span></span>`)
        .join(
          '<span class="sig-prename descclassname"><span class="pre">,</span> </span>',
        )}<a class="headerlink" href="#${id}" title="Permalink to this definition"></a></dt>
      <dd></dd></dl>\n\n<p>${text}</p>\n`;
    const page = parsedPage(
      'cli_options.html',
      `<html><body><div role="main"><section id="command-line-options">
      <h1>Command Line Options<a class="headerlink" href="#command-line-options"></a></h1>
      <p>${option('cmdoption-V', 'version', ['-V', '--version'], 'Show the version and exit.')}
      ${option('cmdoption-no-input', 'no-input', ['--no-input'], 'Do not prompt for parameters.')}
      </section></div></body></html>`,
    );
    const options = page.sections.filter((s) => s.anchor.startsWith('cmdoption-'));
    expect(options.map((s) => [s.heading, s.anchor, s.blocks.map((b) => b.markdown)])).toEqual([
      ['-V, --version', 'cmdoption-V', ['Show the version and exit.']],
      ['--no-input', 'cmdoption-no-input', ['Do not prompt for parameters.']],
    ]);
  });

  it('keeps a Sphinx heading’s own anchor beside its contents backlink, and lands links to its labels', () => {
    // As Debian's python-celery-doc ships its guides: a local contents list, each heading's text a
    // `toc-backref` link back to it (`#id2`), and a label (`<span id>`) before each heading and
    // setting, which is where the docs' own links point.
    const page = parsedPage(
      'configuration.html',
      `<html><body><div role="main"><section id="configuration"><span id="guide-configuration"></span>
      <h1>Configuration<a class="headerlink" href="#configuration">¶</a></h1>
      <nav class="contents local" id="contents"><ul>
      <li><p><a class="reference internal" href="#task-settings" id="id1">Task settings</a></p></li>
      </ul></nav>
      <p>Settings are read from <a class="reference internal" href="#std-setting-task_acks_late">task_acks_late</a> and more.</p>
      <section id="task-settings"><span id="conf-tasks"></span>
      <h2><a class="toc-backref" href="#id1" role="doc-backlink">Task settings</a><a class="headerlink" href="#task-settings">¶</a></h2>
      <p>These settings change how tasks run.</p>
      <section id="task-acks-late"><span id="std-setting-task_acks_late"></span>
      <h3>task_acks_late<a class="headerlink" href="#task-acks-late">¶</a></h3>
      <p>Late ack means the task messages will be acknowledged after the task has been executed.</p>
      </section><p>All task settings start with <code>task_</code>.</p></section></section></div></body></html>`,
    );
    expect(page.sections.map((s) => [s.heading, s.anchor])).toEqual([
      ['Configuration', ''],
      ['Task settings', 'task-settings'],
      ['task_acks_late', 'task-acks-late'],
    ]);
    const html = renderMarkdown(page, createSite([page]), { page: (p) => p, file: (p) => p });
    // The heading is no link back to the contents, and each label is at its heading.
    expect(html).toMatch(
      /<h3 id="task-acks-late"><span id="std-setting-task_acks_late"><\/span>task_acks_late<\/h3>/,
    );
    expect(html).not.toContain('href="#id1"');
    for (const [, target] of html.matchAll(/href="#([^"]+)"/g))
      expect(html).toContain(`id="${target}"`);
    // The title's label and its own id lead to the page's top, where the title is (as pytest's
    // `how-to/parametrize.html#parametrize`, which its other pages link to).
    expect(page.frontmatter?.anchorAliases).toMatchObject({
      'guide-configuration': '',
      configuration: '',
      'std-setting-task_acks_late': 'task-acks-late',
    });
    expect(html).toMatch(
      /<h1 id="configuration"><span id="guide-configuration"><\/span>Configuration<\/h1>/,
    );
  });

  it('reads a Sphinx parameter’s type as one piece of code', () => {
    const page = parsedPage(
      'api.html',
      `<html><body><div role="main"><h1>API</h1><dl class="field-list simple">
      <dt class="field-odd">Parameters</dt><dd class="field-odd"><ul class="simple">
      <li><p><strong>args</strong> (<a class="reference external" href="https://docs.python.org/3/library/typing.html#typing.Optional" title="(in Python v3.11)"><em>Optional</em></a><em>[</em><a class="reference external" href="https://docs.python.org/3/library/stdtypes.html#str"><em>str</em></a><em>]</em>) – the arguments (a list).</p></li>
      </ul></dd></dl></div></body></html>`,
    );
    expect(page.markdown).toContain('**args** (`Optional[str]`) – the arguments (a list).');
  });

  it('moves the spaces at an emphasis’s edges, and a separator it opens on, outside it: no escaped space or letter is left', () => {
    // As python-pytest-doc's warnings: `<em>class </em>` before the name, `<em>: LocalPath</em>` after
    // it, in entries kept in prose.
    const page = parsedPage(
      'api.html',
      `<main><h1>Warnings</h1><p>Custom warnings.</p><dl class="py class">
      <dt class="sig sig-object py" id="pytest.PytestAssertRewriteWarning"><em class="property"><span class="pre">class</span><span class="w"> </span></em><span class="sig-name descname"><span class="pre">PytestAssertRewriteWarning</span></span></dt>
      <dd><p>Warning emitted by the <strong> assert </strong>rewrite module.<em> </em>Bases: <em>Warning</em>.</p></dd></dl>
      <dl class="py property"><dt class="sig sig-object py" id="pytest.Testdir.tmpdir"><em class="property"><span class="pre">property</span><span class="w"> </span></em><span class="sig-name descname"><span class="pre">tmpdir</span></span><em class="property"><span class="p"><span class="pre">:</span></span><span class="w"> </span><span class="pre">LocalPath</span></em></dt><dd><p>The temporary directory.</p></dd></dl>
      <p>Then more prose.</p></main>`,
    );
    expect(page.markdown).not.toContain('&#x');
    expect(page.markdown).toContain('*class* PytestAssertRewriteWarning');
    expect(page.markdown).toContain('*property* tmpdir: *LocalPath*');
    expect(page.markdown).toContain(
      'Warning emitted by the **assert** rewrite module. Bases: *Warning*.',
    );
  });

  it('reads Sphinx’s default highlighting as Python, a console session in it as one, and code it left plain as no language', () => {
    // As Sphinx writes them: Pygments' token spans where the code read as Python; none for a
    // shell command it could not (cookiecutter's `$ cookiecutter gh:…`).
    const page = parsedPage(
      'api.html',
      `<html><body><div role="main"><h1>API</h1>
      <div class="highlight-default notranslate"><div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span><span class="n">env</span><span class="o">.</span><span class="n">get_template</span><span class="p">(</span><span class="s1">'a.html'</span><span class="p">)</span>
<span class="go">&lt;Template 'a.html'&gt;</span></pre></div></div>
      <div class="highlight-default notranslate"><div class="highlight"><pre><span></span><span class="n">env</span> <span class="o">=</span> <span class="n">Environment</span><span class="p">()</span></pre></div></div>
      <div class="highlight-default notranslate"><div class="highlight"><pre><span></span>$ cookiecutter gh:audreyr/cookiecutter-pypackage
</pre></div></div>
      <div class="highlight-default notranslate"><div class="highlight"><pre><span></span><span class="n">pip</span> <span class="n">install</span> <span class="n">greenlet</span>
</pre></div></div>
      <div class="highlight-default notranslate"><div class="highlight"><pre><span></span><span class="n">obj</span> <span class="ow">in</span> <span class="n">session</span><span class="o">.</span><span class="n">dirty</span>
</pre></div></div>
      </div></body></html>`,
    );
    // Commands Pygments highlighted as Python names (python-greenlet-doc's `pip install
    // greenlet`) are no Python either; an expression of words and an operator is.
    expect(page.sections.flatMap((s) => s.code).map((code) => code.lang)).toEqual([
      'pycon',
      'python',
      '',
      '',
      'python',
    ]);
  });

  it('writes a superscript as a power, not as digits run on', () => {
    // As python-cryptography-doc: `2<sup>64</sup> - 1` read "264 - 1".
    const page = parsedPage(
      'aead.html',
      '<div role="main"><h1>AEAD</h1><p>The nonce can be up to 2<sup>64</sup> - 1 bits; q<sup>-1</sup> mod p is the coefficient.<sup><a href="#fn1">1</a></sup></p></div>',
    );
    expect(page.markdown).toContain('up to 2^64 - 1 bits; q^-1 mod p is the coefficient.');
  });

  it('keeps a page marked noindex out of the search, unless every page is', () => {
    const built = (file: string, robots?: string) => {
      const page = parsedPage(
        file,
        `<html><head>${robots ? `<meta name="robots" content="${robots}">` : ''}</head>
        <body><main><h1>${file}</h1><p>The gauge widget draws a dial.</p></main></body></html>`,
      );
      return page;
    };
    const site = createSite([built('gauge.html'), built('notes.html', 'noindex, nofollow')]);
    const hits = createRetriever(site).search('gauge widget dial', { limit: 5 }).hits;
    expect(hits.map((hit) => hit.section.pagePath)).toEqual(['/gauge']);
    // A build that tells search engines to skip every page (Docusaurus's `noIndex`) is searched whole.
    const hidden = createSite([built('gauge.html', 'noindex'), built('notes.html', 'NOINDEX')]);
    const all = createRetriever(hidden).search('gauge widget dial', { limit: 5 }).hits;
    expect(all.map((hit) => hit.section.pagePath).sort()).toEqual(['/gauge', '/notes']);
  });

  it('puts the pages a contents page lists right after it, in its order, before the home page’s prose links', async () => {
    // As Debian's python-aiohttp-doc: the sidebar lists Client and Server, each page only a
    // sentence over its toctree (pages and their sections); the home page's prose names the
    // server's quickstart first.
    const dir = await tempDir();
    const page = (title: string, body = '<p>Text.</p>') =>
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    const contents = (sentence: string, files: string[]) =>
      `<p>${sentence}</p><div class="toctree-wrapper compound"><ul>${files
        .map(
          (file) =>
            `<li class="toctree-l1"><a href="${file}.html">${file}</a><ul>` +
            `<li class="toctree-l2"><a href="${file}.html#make-a-request">Make a request</a></li>` +
            `<li class="toctree-l2"><a href="${file}.html#passing-parameters">Passing parameters</a></li></ul></li>`,
        )
        .join('')}</ul></div>`;
    await writeFile(
      join(dir, 'index.html'),
      page(
        'Welcome',
        `<p>Start with the <a href="web_quickstart.html">server</a> or the <a href="client_quickstart.html">client</a>.</p>
        <ul><li><a href="client.html">Client</a></li><li><a href="web.html">Server</a></li></ul>`,
      ),
    );
    await writeFile(
      join(dir, 'client.html'),
      page('Client', contents('All about the client:', ['client_quickstart', 'client_reference'])),
    );
    await writeFile(
      join(dir, 'web.html'),
      page('Server', contents('All about the server:', ['web_quickstart'])),
    );
    for (const file of ['client_quickstart', 'client_reference', 'web_quickstart'])
      await writeFile(join(dir, `${file}.html`), page(file));
    const { site } = await loadHtmlSite(dir);
    expect(site.pages.map((p) => p.path)).toEqual([
      '/',
      '/client',
      '/client_quickstart',
      '/client_reference',
      '/web',
      '/web_quickstart',
    ]);
  });

  it('lists the pages in the order of the home page’s table of contents, before its prose’s links', async () => {
    // As Flask's home page: an intro naming Quickstart and API, then the toctree.
    const dir = await tempDir();
    const page = (title: string, body = '<p>Text.</p>') =>
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    await writeFile(
      join(dir, 'index.html'),
      page(
        'Welcome',
        `<p>Get an overview with the <a href="quickstart.html">Quickstart</a>; the <a href="api.html">API</a> has the rest.</p>
        <ul><li><a href="install.html">Install</a></li><li><a href="quickstart.html">Quickstart</a></li>
        <li><a href="templates.html">Templates</a></li><li><a href="api.html">API</a></li></ul>`,
      ),
    );
    for (const title of ['API', 'Install', 'Quickstart', 'Templates'])
      await writeFile(join(dir, `${title.toLowerCase()}.html`), page(title));
    const { site } = await loadHtmlSite(dir);
    expect(sidebarGroups(site)[0]![1].map((p) => p.title)).toEqual([
      'Welcome',
      'Install',
      'Quickstart',
      'Templates',
      'API',
    ]);
  });

  it('lists a folder’s pages in the order its index page lists them, nested folders under theirs', async () => {
    // As Debian's python-celery-doc: the home page links First Steps before the Getting Started
    // index, whose table of contents lists Introduction, Backends and Brokers (with its own pages),
    // then First Steps.
    const dir = await tempDir();
    const page = (title: string, body = '') =>
      `<html><head><title>${title}</title></head><body><div role="main"><h1>${title}</h1><p>Text.</p>${body}</div></body></html>`;
    const files: [string, string, string?][] = [
      [
        'index.html',
        'Home',
        '<p>Start with <a href="start/first-steps.html">First Steps</a>.</p><ul><li><a href="start/index.html">Getting Started</a></li></ul>',
      ],
      [
        'start/index.html',
        'Getting Started',
        '<ul><li><a href="introduction.html">Introduction</a></li><li><a href="brokers/index.html">Backends and Brokers</a></li><li><a href="first-steps.html">First Steps</a></li><li><a href="../index.html">Home</a></li></ul>',
      ],
      ['start/first-steps.html', 'First Steps'],
      ['start/introduction.html', 'Introduction'],
      [
        'start/brokers/index.html',
        'Backends and Brokers',
        '<ul><li><a href="redis.html">Using Redis</a></li><li><a href="amqp.html">Using AMQP</a></li></ul>',
      ],
      ['start/brokers/amqp.html', 'Using AMQP'],
      ['start/brokers/redis.html', 'Using Redis'],
    ];
    for (const [file, title, body] of files) {
      await mkdir(join(dir, file, '..'), { recursive: true });
      await writeFile(join(dir, file), page(title, body));
    }
    const { site } = await loadHtmlSite(dir);
    expect(site.pages.map((p) => p.title)).toEqual([
      'Home',
      'Getting Started',
      'Introduction',
      'Backends and Brokers',
      'Using Redis',
      'Using AMQP',
      'First Steps',
    ]);
  });

  it('lists the pages in the order of the home page’s own navigation first', async () => {
    // As Django REST framework's MkDocs build: a navbar whose menus list Tutorial, then API Guide,
    // while the home page's text links the API guide first.
    const dir = await tempDir();
    const page = (title: string, body = '<p>Text.</p>') =>
      `<html><head><title>${title}</title></head><body>${body}</body></html>`;
    await writeFile(
      join(dir, 'index.html'),
      page(
        'Home',
        `<div class="navbar"><ul><li><a href="./">Home</a></li>
        <li><a href="tutorial/quickstart/">Quickstart</a></li><li><a href="tutorial/serialization/">Serialization</a></li>
        <li><a href="api-guide/requests/">Requests</a></li><li><a href="https://github.com/encode">GitHub</a></li></ul></div>
        <div id="main-content"><h1>Home</h1><ul><li><a href="api-guide/requests/">Requests</a></li>
        <li><a href="tutorial/serialization/">Serialization</a></li></ul></div>`,
      ),
    );
    for (const [folder, title] of [
      ['api-guide/requests', 'Requests'],
      ['tutorial/quickstart', 'Quickstart'],
      ['tutorial/serialization', 'Serialization'],
    ]) {
      await mkdir(join(dir, folder!), { recursive: true });
      await writeFile(
        join(dir, folder!, 'index.html'),
        page(title!, `<main><h1>${title}</h1><p>Text.</p></main>`),
      );
    }
    const { site } = await loadHtmlSite(dir);
    expect(sidebarGroups(site).map(([group, pages]) => [group, pages.map((p) => p.title)])).toEqual(
      [
        ['Overview', ['Home']],
        ['Tutorial', ['Quickstart', 'Serialization']],
        ['Api guide', ['Requests']],
      ],
    );
  });

  it('skips and names redirects and pages without content, and serves the rest', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'old'));
    await writeFile(
      join(dir, 'index.html'),
      '<html><body><main><h1>Home</h1><p>Welcome.</p></main></body></html>',
    );
    await writeFile(
      join(dir, 'old/index.html'),
      '<html><head><meta http-equiv="refresh" content="0; url=/"></head></html>',
    );
    await writeFile(join(dir, 'empty.html'), '<html><body><nav>Only links</nav></body></html>');
    // Texinfo's, one per node and anchor (89 of Diffutils' 112 files), with `Refresh` capitalised.
    await writeFile(
      join(dir, 'moved.html'),
      '<html><head><meta http-equiv="Refresh" content="0; url=index.html#welcome"></head><body><p>The node you are looking for is at <a href="index.html#welcome">Welcome</a>.</p></body></html>',
    );
    const { site, skipped } = await loadHtmlSite(dir);
    expect(site.pages.map((page) => page.path)).toEqual(['/']);
    expect(skipped).toEqual([
      { file: 'empty.html', reason: expect.stringContaining('no headings') },
      { file: 'moved.html', reason: 'a redirect' },
      { file: 'old/index.html', reason: 'a redirect' },
    ]);
  });

  it('skips and names a fragment in a folder the build keeps apart (_snippets/), and serves its images', async () => {
    // As Debian's python-aiohttp-doc: a fragment its pages include, built as a page of its own.
    const dir = await tempDir();
    await writeFile(join(dir, 'index.html'), '<main><h1>Home</h1><p>Welcome.</p></main>');
    await mkdir(join(dir, '_snippets'));
    await writeFile(
      join(dir, '_snippets', 'cchardet-unmaintained-admonition.html'),
      '<main><div class="admonition warning"><p>cchardet is unmaintained.</p></div></main>',
    );
    await mkdir(join(dir, '_images'));
    await writeFile(join(dir, '_images', 'logo.png'), Buffer.from([137, 80, 78, 71]));
    const { site, skipped } = await loadHtmlSite(dir);
    expect(site.pages.map((page) => page.path)).toEqual(['/']);
    expect(skipped).toEqual([
      {
        file: '_snippets/cchardet-unmaintained-admonition.html',
        reason: 'a fragment in _snippets/, which the build keeps apart: not a page',
      },
    ]);
    expect(site.files).toContain('/_images/logo.png');
  });

  it('serves a page the build moved as a redirect to where it went, and resolves links to it there', async () => {
    // As Debian's mkdocs-doc: user-guide/plugins.html is a redirect page to dev-guide/plugins/,
    // and another page still links to the old address.
    const dir = await tempDir();
    await mkdir(join(dir, 'user-guide'));
    await mkdir(join(dir, 'dev-guide'));
    await writeFile(
      join(dir, 'index.html'),
      '<main><h1>Home</h1><p>Write <a href="user-guide/plugins.html">plugins</a> and <a href="user-guide/gone.html">more</a>.</p></main>',
    );
    await writeFile(
      join(dir, 'dev-guide', 'plugins.html'),
      '<main><h1>Plugins</h1><h2 id="events">Events</h2><p>Plugins hook events.</p></main>',
    );
    for (const [file, url] of [
      ['plugins.html', '../dev-guide/plugins.html#events'],
      ['gone.html', '../nowhere.html'],
      ['away.html', 'https://example.com/'],
    ])
      await writeFile(
        join(dir, 'user-guide', file!),
        `<html><head><meta http-equiv="refresh" content="0; url=${url}"></head></html>`,
      );
    const { site, skipped } = await loadHtmlSite(dir);
    expect(skipped.map((page) => page.reason)).toEqual(['a redirect', 'a redirect', 'a redirect']);
    // Only a redirect to a page served is kept.
    expect([...(site.redirects ?? [])]).toEqual([
      ['/user-guide/plugins', '/dev-guide/plugins#events'],
    ]);
    const home = site.byPath.get('/')!;
    const [plugins, gone] = home.sections.flatMap((s) => s.blocks).flatMap((b) => b.links ?? []);
    expect(docLinkTarget(plugins!.url, home, site)).toEqual({
      kind: 'page',
      pagePath: '/dev-guide/plugins',
      anchor: 'events',
    });
    // A redirect to a page the build does not hold leads nowhere: the link keeps its words only.
    expect(docLinkTarget(gone!.url, home, site)).toMatchObject({ kind: 'missing' });
    const app = await demoApp({
      orgs: [{ id: 'o', plan: 'free', keys: ['svc_dsc_o'] }],
      sites: [{ domain: 'demo', org: 'o', docs: site }],
    });
    const moved = await app.request('http://test/docs/user-guide/plugins.html');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/docs/dev-guide/plugins#events');
    expect((await app.request('http://test/docs/user-guide/gone.html')).status).toBe(404);

    // An exported bundle: the link leads to the new place, and the old address still opens it.
    const out = await tempDir();
    await exportSite(site, { outDir: out });
    const exportedHome = readFileSync(join(out, 'index.html'), 'utf8');
    expect(exportedHome).toContain('href="dev-guide/plugins.html#events"');
    expect(exportedHome).not.toContain('href="user-guide/plugins.html"');
    expect(readFileSync(join(out, 'index.md'), 'utf8')).toContain(
      '[plugins](dev-guide/plugins.html#events)',
    );
    expect(readFileSync(join(out, 'user-guide', 'plugins.html'), 'utf8')).toMatch(
      /<meta http-equiv="refresh" content="0; url=..\/dev-guide\/plugins.html#events"/,
    );
    // A partial export leaves out the redirect whose page it leaves out.
    const partial = await tempDir();
    await exportSite(site, { outDir: partial, paths: ['/'] });
    expect(() => statSync(join(partial, 'user-guide', 'plugins.html'))).toThrow();
  });

  it('groups the sidebar under the home page’s headed tables of contents, a folder with its index', async () => {
    // As python-werkzeug-doc's index: "Getting Started", "Reference" and "Deployment", each over a
    // toctree; the deployment pages sit in a folder whose index the toctree lists.
    const dir = await tempDir();
    await mkdir(join(dir, 'deployment'));
    await mkdir(join(dir, 'middleware'));
    await writeFile(
      join(dir, 'middleware', 'index.html'),
      '<div role="main"><h1>Middleware</h1><p>Wrap an application.</p><ul><li><a href="profiler.html">Profiler</a></li></ul></div>',
    );
    await writeFile(
      join(dir, 'middleware', 'profiler.html'),
      '<div role="main"><h1>Application Profiler</h1><p>Find slow code.</p></div>',
    );
    const toc = (id: string, title: string, links: string[]) =>
      `<section id="${id}"><h2>${title}</h2><div class="toctree-wrapper compound"><ul>${links
        .map((link) => `<li class="toctree-l1"><a href="${link}.html">${link}</a></li>`)
        .join('')}</ul></div></section>`;
    await writeFile(
      join(dir, 'index.html'),
      `<div role="main"><section id="werkzeug"><h1>Werkzeug</h1><p>A WSGI library.</p>
      ${toc('getting-started', 'Getting Started', ['quickstart'])}
      ${toc('reference', 'Reference', ['routing', 'middleware/index', 'local'])}
      ${toc('deployment', 'Deployment', ['deployment/index'])}</section></div>`,
    );
    await writeBuiltPages(dir, [
      ['quickstart.html', 'Quickstart'],
      ['routing.html', 'URL Routing'],
      ['local.html', 'Context Locals'],
      ['terms.html', 'Important Terms'],
      ['deployment/nginx.html', 'nginx'],
    ]);
    await writeFile(
      join(dir, 'deployment', 'index.html'),
      '<div role="main"><h1>Deploying to Production</h1><p>Pick a server.</p><ul><li><a href="nginx.html">nginx</a></li></ul></div>',
    );
    const { site } = await loadHtmlSite(dir);
    expect(groupLines(site)).toEqual([
      'Overview: Werkzeug, Important Terms',
      'Getting Started: Quickstart',
      'Reference: URL Routing, Middleware, Application Profiler, Context Locals',
      'Deployment: Deploying to Production, nginx',
    ]);
    // llms.txt and an export bundle's sidebar follow the same groups.
    const app = await demoApp({
      orgs: [{ id: 'o', plan: 'free', keys: ['svc_dsc_o'] }],
      sites: [{ domain: 'demo', org: 'o', docs: site }],
    });
    expect(await (await app.request('http://test/llms.txt')).text()).toMatch(
      /## Getting Started\n[^#]*Quickstart[^#]*## Reference\n[^#]*URL Routing/,
    );
    const out = await tempDir();
    await exportSite(site, { outDir: out });
    expect(readFileSync(join(out, 'routing.html'), 'utf8')).toMatch(
      /<h2>Reference<\/h2>\s*<ul>\s*<li><a href="routing\.html" aria-current="page">URL Routing/,
    );
  });

  it('groups the sidebar under headed tables of contents that a sentence introduces', async () => {
    // As python-babel-doc's index: "The user documentation explains…" above each toctree.
    const dir = await tempDir();
    const toc = (id: string, title: string, links: string[]) =>
      `<section id="${id}"><h2>${title}</h2><p>The ${title.toLowerCase()} explains some core concepts of the library and how to use them in an application.</p><div class="toctree-wrapper compound"><ul>${links
        .map((link) => `<li class="toctree-l1"><a href="${link}.html">${link}</a></li>`)
        .join('')}</ul></div></section>`;
    await writeFile(
      join(dir, 'index.html'),
      `<div role="main"><section id="babel"><h1>Babel</h1><p>Internationalization utilities.</p>
      ${toc('user-documentation', 'User Documentation', ['intro', 'dates'])}
      ${toc('additional-notes', 'Additional Notes', ['changelog'])}</section></div>`,
    );
    await writeBuiltPages(dir, [
      ['intro.html', 'Introduction'],
      ['dates.html', 'Date and Time'],
      ['changelog.html', 'Babel Changelog'],
    ]);
    const { site } = await loadHtmlSite(dir);
    expect(groupLines(site)).toEqual([
      'Overview: Babel',
      'User Documentation: Introduction, Date and Time',
      'Additional Notes: Babel Changelog',
    ]);
  });

  it('groups the sidebar under the items of the home page’s nested table of contents', async () => {
    // As python-aiohttp-doc's index: one "Table Of Contents", whose Client and Server pages each
    // list their own pages under them, and a FAQ that lists only its own sections.
    const dir = await tempDir();
    const item = (href: string, text: string, children: [string, string][] = []) =>
      `<li class="toctree-l1"><a href="${href}">${text}</a>${
        children.length
          ? `<ul>${children.map(([child, label]) => `<li class="toctree-l2"><a href="${child}">${label}</a></li>`).join('')}</ul>`
          : ''
      }</li>`;
    await writeFile(
      join(dir, 'index.html'),
      `<div role="main"><section id="aiohttp"><h1>Welcome to AIOHTTP</h1><p>Asynchronous HTTP.</p>
      <section id="table-of-contents"><h2>Table Of Contents</h2><div class="toctree-wrapper compound"><ul>
      ${item('client.html', 'Client', [
        ['client_quickstart.html', 'Quickstart'],
        ['client_reference.html', 'Reference'],
      ])}
      ${item('web.html', 'Server', [['web_quickstart.html', 'Quickstart']])}
      ${item('faq.html', 'FAQ', [
        ['faq.html#blueprints', 'Blueprints?'],
        ['faq.html#gzip', 'Gzip?'],
      ])}
      </ul></div></section></section></div>`,
    );
    await writeBuiltPages(dir, [
      ['client.html', 'Client'],
      ['client_quickstart.html', 'Client Quickstart'],
      ['client_reference.html', 'Client Reference'],
      ['web.html', 'Server'],
      ['web_quickstart.html', 'Web Server Quickstart'],
      ['faq.html', 'FAQ'],
      ['whats_new.html', 'What’s new'],
    ]);
    const { site } = await loadHtmlSite(dir);
    expect(groupLines(site)).toEqual([
      'Overview: Welcome to AIOHTTP, FAQ, What’s new',
      'Client: Client, Client Quickstart, Client Reference',
      'Server: Server, Web Server Quickstart',
    ]);
  });

  it('keeps folder groups when the home page has fewer than two headed tables of contents', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'guide'));
    await writeFile(
      join(dir, 'index.html'),
      '<div role="main"><h1>Home</h1><section id="features"><h2>Features</h2><ul><li><a href="guide/start.html">Fast</a></li></ul></section></div>',
    );
    await writeFile(
      join(dir, 'guide', 'start.html'),
      '<div role="main"><h1>Start</h1><p>Begin here.</p></div>',
    );
    const { site } = await loadHtmlSite(dir);
    expect(site.groups).toBeUndefined();
    expect(sidebarGroups(site).map(([name]) => name)).toEqual(['Overview', 'Guide']);
  });

  it('keeps the words of a link to a path the build does not hold, in pages, Markdown and answers', async () => {
    // As Debian's builds of attrs, Click and Tornado: Python's own docs at /usr/share/doc/python3-doc.
    const dir = await tempDir();
    await mkdir(join(dir, '_images'));
    await writeFile(
      join(dir, '_images', 'flow.png'),
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    );
    await writeFile(
      join(dir, 'index.html'),
      `<div role="main"><h1>Validators</h1><section id="validators"><h2>Validators</h2>
      <p>A validator raises <a class="reference external" href="/usr/share/doc/python3-doc/html/library/exceptions.html#ValueError" title="(in Python v3.10)"><code>ValueError</code></a>
      when the value is out of range, as the <a href="_images/flow.png">flow chart</a> shows.</p></section></div>`,
    );
    const { site } = await loadHtmlSite(dir);
    const app = await demoApp({
      orgs: [{ id: 'o', plan: 'free', keys: ['svc_dsc_o'] }],
      sites: [{ domain: 'demo', org: 'o', docs: site }],
    });
    const html = await (await app.request('http://test/docs/')).text();
    expect(html).not.toContain('/usr/share/doc');
    expect(html).toMatch(/<span title="\(in Python v3\.10\)"><code>ValueError<\/code><\/span>/);
    expect(html).toContain('href="/docs/_images/flow.png"');
    const markdown = await (await app.request('http://test/docs/index.md')).text();
    expect(markdown).toContain('A validator raises `ValueError` when');
    expect(markdown).toContain('[flow chart](');
    const response = await app.request('http://test/discovery/v1/assistant/demo/message', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer svc_dsc_o' },
      body: JSON.stringify(askBody('Which error does a validator raise?')),
    });
    const answer = textOf(await readStream(response));
    expect(answer).toContain('`ValueError`');
    expect(answer).not.toContain('/usr/share/doc');
    // And an export bundle of the build.
    const out = await tempDir();
    await exportSite(site, { outDir: out });
    const exported = readFileSync(join(out, 'index.html'), 'utf8');
    expect(exported).not.toContain('/usr/share/doc');
    expect(exported).toContain('<span title="(in Python v3.10)"><code>ValueError</code></span>');
  });

  it('leaves out a link title that only repeats the link’s words, and keeps one that says more', () => {
    // As Sphinx writes references (python-tornado-doc, python-flask-doc).
    const page = parsedPage(
      'guide.html',
      '<div role="main"><h1>Guide</h1><p>See <a class="reference internal" href="web.html#module-tornado.web" title="tornado.web"><code>tornado.web</code></a> and <a class="reference internal" href="api.html#flask.Flask.route" title="flask.Flask.route"><code>route()</code></a>.</p></div>',
    );
    expect(page.markdown).toContain('[`tornado.web`](web.html#module-tornado.web)');
    expect(page.markdown).toContain('[`route()`](api.html#flask.Flask.route "flask.Flask.route")');
  });

  it('keeps a definition’s classifier apart from its term, as docutils shows it', () => {
    // As python-pygments-doc's filter options: "casestring The casing to convert keywords to."
    const page = parsedPage(
      'filters.html',
      '<div role="main"><h1>Filters</h1><p>Options accepted:</p><dl class="simple"><dt><cite>case</cite><span class="classifier">string</span></dt><dd><p>The casing to convert keywords to.</p></dd></dl></div>',
    );
    expect(page.markdown).toContain('case : string');
    expect(page.sections[0]!.text).toContain('case : string – The casing to convert keywords to.');
  });

  it('leaves out the `__weakref__` autodoc gives every class, and keeps a member that says more', () => {
    // As pyparsing's API page (Debian's python-pyparsing-doc): ten of them, each a section.
    const member = (name: string, text: string) =>
      `<dl class="py attribute"><dt class="sig sig-object py" id="pyparsing.Forward.${name}"><span class="sig-name descname">${name}</span></dt><dd><p>${text}</p></dd></dl>`;
    const page = parsedPage(
      'pyparsing.html',
      '<div role="main"><h1>pyparsing</h1><dl class="py class"><dt class="sig sig-object py" id="pyparsing.Forward"><span class="sig-name descname">Forward</span></dt><dd><p>Forward declaration of an expression.</p>' +
        member('__weakref__', 'list of weak references to the object (if defined)') +
        member('__dict__', 'The names this grammar defines, for its recursive parts.') +
        '</dd></dl></div>',
    );
    expect(page.markdown).not.toContain('weak references');
    expect(page.sections.map((section) => section.heading)).toEqual([
      'pyparsing.Forward',
      'pyparsing.Forward.__dict__',
    ]);
  });

  it('takes a headerless table’s first row of labels as its header, and no row of entries', () => {
    // As kombu's transport table and pyparsing's Unicode sets: docutils writes their header as the
    // body's first row, and the page Markdown opened each on an empty header row.
    const table = (first: string) =>
      '<table class="docutils"><tbody>' +
      `<tr>${first}</tr><tr><td><p><em>amqp</em></p></td><td><p>Native</p></td></tr></tbody></table>`;
    const page = parsedPage(
      'connections.html',
      '<div role="main"><h1>Connections</h1>' +
        table('<td><p><strong>Client</strong></p></td><td><p><strong>Type</strong></p></td>') +
        table('<td><p>Windows</p></td><td><p><code>%SystemRoot%\\hosts</code></p></td>') +
        '</div>',
    );
    expect(page.markdown).toMatch(
      /^\| \*\*Client\*\* \| \*\*Type\*\* \|\n\| -+ \| -+ \|\n\| \*amqp\* +\| Native +\|$/m,
    );
    // A first row that is an entry (code, a link, a sentence) is no header.
    expect(page.markdown).toMatch(
      /^\| +\| +\|\n\| -+ \| -+ \|\n\| Windows +\| `%SystemRoot%\\hosts` \|$/m,
    );
  });

  it('keeps a table row on one line when its cells hold lists and paragraphs', () => {
    // As python-bs4-doc's parser table: a list of advantages in each cell broke each row apart.
    const page = parsedPage(
      'index.html',
      '<div role="main"><h1>Parsers</h1><table class="docutils"><tbody>' +
        '<tr><td><p>Parser</p></td><td><p>Advantages</p></td></tr>' +
        '<tr><td><p>html.parser</p></td><td><ul class="simple"><li><p>Batteries included</p></li>\n<li><p>Decent speed</p></li></ul></td></tr>' +
        '<tr><td><p>lxml</p><p>(C)</p></td><td><ul class="simple"><li><p>Very fast</p></li></ul></td></tr>' +
        '</tbody></table></div>',
    );
    const rows = page.markdown.split('\n').filter((line) => line.startsWith('|'));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/^\| Parser +\| Advantages +\|$/);
    expect(rows[2]).toMatch(/^\| html\.parser +\| Batteries included; Decent speed +\|$/);
    expect(rows[3]).toMatch(/^\| lxml \(C\) +\| Very fast +\|$/);
  });

  it('reads a paragraph of keyboard input alone as a command to type', () => {
    // As python-bs4-doc: `$ pip install beautifulsoup4` is a <kbd> paragraph.
    const page = parsedPage(
      'index.html',
      '<div role="main"><h1>Installing</h1><p>Install it with pip:</p>' +
        '<p><kbd class="kbd compound docutils literal notranslate"><kbd class="kbd docutils literal notranslate">$</kbd> <kbd class="kbd docutils literal notranslate">pip</kbd> <kbd class="kbd docutils literal notranslate">install</kbd> <kbd class="kbd docutils literal notranslate">beautifulsoup4</kbd></kbd></p>' +
        '<p>Press <kbd>Ctrl</kbd> to stop.</p></div>',
    );
    expect(page.markdown).toContain('```console\n$ pip install beautifulsoup4\n```');
    expect(page.sections[0]!.blocks.map((block) => block.kind)).toEqual([
      'paragraph',
      'code',
      'paragraph',
    ]);
    expect(page.markdown).toContain('Press `Ctrl` to stop.');
  });

  it('keeps footnotes as paragraphs that open on their label, as both docutils write them', () => {
    // As python-structlog-doc (asides, which went as chrome) and python-arrow-doc (a definition
    // list whose terms ran the label into its back-links: "1(1,2)").
    const page = parsedPage(
      'console-output.html',
      '<div role="main"><h1>Console Output</h1><p>Colorful<a class="footnote-reference brackets" href="#win" id="id1">[1]</a> output.</p>' +
        '<aside class="footnote-list brackets"><aside class="footnote brackets" id="win" role="note"><span class="label"><span class="fn-bracket">[</span><a role="doc-backlink" href="#id1">1</a><span class="fn-bracket">]</span></span><p>Requires the Colorama package on Windows.</p></aside>' +
        '<aside class="footnote brackets" id="glob" role="note"><span class="label"><span class="fn-bracket">[</span>4<span class="fn-bracket">]</span></span><span class="backrefs">(<a role="doc-backlink" href="#id4">1</a>,<a role="doc-backlink" href="#id5">2</a>)</span><p>A note on globbing.</p></aside></aside>' +
        '<dl class="footnote brackets"><dt class="label" id="t1"><span class="brackets">2</span><span class="fn-backref">(<a href="#id2">1</a>,<a href="#id3">2</a>)</span></dt><dd><p>localization support for parsing and formatting</p></dd>' +
        '<dt class="label" id="t3"><span class="brackets"><a class="fn-backref" href="#id7">3</a></span></dt><dd><p>the result is truncated to microseconds</p></dd></dl></div>',
    );
    expect(page.markdown).toContain('\\[1] Requires the Colorama package on Windows.');
    expect(page.markdown).toContain('\\[2] localization support for parsing and formatting');
    expect(page.markdown).toContain('\\[3] the result is truncated to microseconds');
    expect(page.markdown).toContain('\\[4] A note on globbing.');
    expect(page.markdown).not.toMatch(/\(1,2\)|\[1\]\(#id[245]\)/);
  });

  it('reads a table that lays out one column of API entries as the entries, each a section', () => {
    // As python-asyncssh-doc: each class's methods in a table, a header cell over one entry per
    // row, the second column empty. The entries' signatures and text ran together in one row
    // ("connection_made(conn)Called when a connection is madeThis method…"), and the headings
    // after the table took the anchors of entries ("Logging" at `#…connection_lost`).
    const entry = (name: string, text: string) =>
      `<tr><td><dl class="py method"><dt class="sig sig-object py" id="asyncssh.SSHClient.${name}"><span class="sig-name descname"><span class="pre">${name}</span></span><span class="sig-paren">(</span><em class="sig-param">conn</em><span class="sig-paren">)</span></dt>` +
      `<dd><p>${text}</p><p>This method is called as soon as the TCP connection completes.</p></dd></dl></td><td></td></tr>`;
    const page = parsedPage(
      'api.html',
      '<div role="main"><section id="api"><h1>API</h1><dl class="py class"><dt class="sig sig-object py" id="asyncssh.SSHClient"><em class="property">class </em><span class="sig-prename descclassname">asyncssh.</span><span class="sig-name descname">SSHClient</span></dt><dd><p>SSH client protocol handler</p>' +
        '<table class="docutils align-default"><thead><tr><th class="head"><p>General connection handlers</p></th><th class="head"></th></tr></thead><tbody>' +
        entry('connection_made', 'Called when a connection is made') +
        entry('connection_lost', 'Called when a connection is lost or closed') +
        '</tbody></table></dd></dl>' +
        '<section id="options"><h2>Options</h2><table class="docutils"><thead><tr><th>Option</th><th>Meaning</th></tr></thead><tbody><tr><td><p>Port</p></td><td><p>The port</p></td></tr></tbody></table></section>' +
        '<section id="logging"><h2>Logging</h2><p>AsyncSSH supports logging through the standard Python logging package.</p></section></section></div>',
    );
    const anchors = Object.fromEntries(
      page.sections.map((section) => [section.heading, section.anchor]),
    );
    expect(anchors).toMatchObject({
      'asyncssh.SSHClient.connection_made': 'asyncssh.SSHClient.connection_made',
      'asyncssh.SSHClient.connection_lost': 'asyncssh.SSHClient.connection_lost',
      Logging: 'logging',
    });
    expect(page.markdown).toContain('General connection handlers');
    expect(page.markdown).toContain(
      '`connection_made(conn)`\n\nCalled when a connection is made\n\nThis method',
    );
    expect(page.markdown).not.toMatch(/madeThis|\| *#/);
    // A table of two filled columns stays a table.
    expect(page.markdown).toMatch(/\| Option +\| Meaning +\|/);
  });

  it('reads a table with code in a cell as a list, so the code stays a block and the headings after it stay headings', () => {
    // As python-pyqtgraph-doc's `AxisItem.setStyle`: a keyword's row shows an example. In a
    // Markdown row the code fence ran on through the page, the entries after it were no
    // headings, and `tickStrings` was cited at the anchor of `setTicks`.
    const page = parsedPage(
      'axisitem.html',
      '<div role="main"><section id="axisitem"><h1>AxisItem</h1>' +
        '<dl class="py method"><dt class="sig sig-object py" id="pyqtgraph.AxisItem.setStyle"><span class="sig-name descname"><span class="pre">setStyle</span></span></dt><dd><p>Set various style options.</p>' +
        '<table class="docutils align-default"><tbody>' +
        '<tr><td><p>tickLength</p></td><td><p>(int) The maximum length of ticks in pixels.</p></td></tr>' +
        '<tr><td><p>textFillLimits</p></td><td><p>(list of tuples). For example:</p><div class="highlight-default"><pre>[(0, 0.8), # Never fill more than 80%\n (2, 0.6)]</pre></div></td></tr>' +
        '</tbody></table></dd></dl>' +
        '<dl class="py method"><dt class="sig sig-object py" id="pyqtgraph.AxisItem.setTicks"><span class="sig-name descname"><span class="pre">setTicks</span></span></dt><dd><p>Explicitly determine which ticks to display.</p></dd></dl>' +
        '<dl class="py method"><dt class="sig sig-object py" id="pyqtgraph.AxisItem.tickStrings"><span class="sig-name descname"><span class="pre">tickStrings</span></span></dt><dd><p>Return the strings that should be placed next to ticks.</p></dd></dl>' +
        '</section></div>',
    );
    expect(page.markdown).toContain(
      '* **textFillLimits**\n\n  (list of tuples). For example:\n\n  ```\n  [(0, 0.8), # Never fill more than 80%\n   (2, 0.6)]\n  ```',
    );
    expect(page.markdown).toContain(
      '* **tickLength**\n\n  (int) The maximum length of ticks in pixels.',
    );
    const anchors = Object.fromEntries(
      page.sections.map((section) => [section.heading, section.anchor]),
    );
    expect(anchors).toMatchObject({
      'pyqtgraph.AxisItem.setTicks': 'pyqtgraph.AxisItem.setTicks',
      'pyqtgraph.AxisItem.tickStrings': 'pyqtgraph.AxisItem.tickStrings',
    });
  });

  it('leaves out a site menu above the title and a contents list of the page’s own sections', () => {
    // As python-lxml-doc (docutils, no landmark): every page opened with the whole site's menu and
    // a donation banner, 200 lines above the page's text and the first words of its description.
    const page = parsedPage(
      'resolvers.html',
      '<body><div class="document" id="document-loading"><div class="sidemenu" id="sidemenu"><div class="menutrigger">Menu</div><div class="menu"><div class="banner"><a href="index.html#support">Like the tool? <br />Help making it better! <br />Your donation helps!</a></div>' +
        '<ul><li><span class="section title">lxml</span><ul><li><a href="index.html">lxml</a><ul><li><a href="index.html#introduction">Introduction</a></li><li><a href="index.html#download">Download</a></li></ul></li><li><a href="intro.html">Why lxml?</a></li><li><a href="resolvers.html">Document loading and URL resolving</a></li></ul></li></ul></div></div>' +
        '<h1 class="title">Document loading and URL resolving</h1><div class="contents topic" id="contents"><p class="topic-title">Contents</p><ul class="simple"><li><a class="reference internal" href="#xml-catalogs" id="id1">XML Catalogs</a></li></ul></div>' +
        '<p>The normal way to load external entities is by using XML catalogs.</p><div class="section" id="xml-catalogs"><h1><a class="toc-backref" href="#id1">XML Catalogs</a></h1><p>When loading an external entity, the parser is configured to prevent network access.</p></div></div></body>',
    );
    expect(page.markdown.trimStart()).toMatch(
      /^# Document loading and URL resolving\n\nThe normal way to load external entities/,
    );
    expect(page.markdown).not.toMatch(/Menu|donation|Why lxml|Contents|\(#xml-catalogs\)/);
    expect(page.sections.map((section) => section.heading)).toEqual([
      'Document loading and URL resolving',
      'XML Catalogs',
    ]);
  });

  it('leaves out what the page hides, a notebook’s table of contents and its heading, and a theme’s footer', () => {
    // As python-xarray-doc's notebooks: each dataset printed twice, as text and as an HTML view
    // kept `display:none` (80 nested bullets); Jupyter's toc2 "Table of Contents" heading titled a
    // page; Alabaster's `div.footer` was the whole text of a page with an empty body.
    const page = parsedPage(
      'examples/weighted.html',
      '<div class="body" role="main"><h1><p>Table of Contents</p></h1><div class="toc"><ul class="toc-item"><li><p>1  Compare weighted and unweighted mean temperature</p></li></ul></div>' +
        '<section id="Compare"><h1>Compare weighted and unweighted mean temperature</h1><p>Weights are the cosine of the latitude.</p>' +
        '<div class="output_area"><pre class="xr-text-repr-fallback">&lt;xarray.Dataset&gt; Dimensions: (time: 731)</pre><div class="xr-wrap" style="display:none"><ul><li>Dimensions:<ul><li>time: 731</li></ul></li></ul></div></div></section></div>' +
        '<div class="footer">©2014-2023, xarray Developers. | Powered by Sphinx</div>',
    );
    expect(page.title).toBe('Compare weighted and unweighted mean temperature');
    expect(page.markdown.trimStart()).toMatch(
      /^# Compare weighted and unweighted mean temperature\n\nWeights are the cosine/,
    );
    expect(page.markdown).toContain('<xarray.Dataset> Dimensions: (time: 731)');
    expect(page.markdown).not.toMatch(/Table of Contents|1 {2}Compare|\* Dimensions|Powered by/);
    // A page whose body is empty has no text: not its footer.
    const empty = parseHtmlPage(
      'api-hidden.html',
      '<body><div class="body" role="main"></div><div class="footer"><p>©2014-2023, xarray Developers. | Powered by Sphinx</p></div></body>',
    );
    expect(isPage(empty) ? empty.markdown : '').not.toContain('Powered by');
  });

  it('leaves out a notebook cell’s execution count, which nbsphinx writes as code of its own', () => {
    // As python-pint-doc's NumPy page: 18 code blocks of "[1]:", "[2]:", … each before its cell.
    const page = parsedPage(
      'numpy.html',
      '<div role="main"><h1>NumPy Support</h1><p>First, we import the relevant packages:</p><div class="nbinput docutils container"><div class="prompt highlight-none notranslate"><div class="highlight"><pre><span></span>[1]:\n</pre></div></div>' +
        '<div class="input_area highlight-ipython3 notranslate"><div class="highlight"><pre><span></span>import pint\n</pre></div></div></div>' +
        '<div class="nboutput nblast docutils container"><div class="prompt empty docutils container"></div><div class="output_area docutils container"><div class="highlight"><pre>ok\n</pre></div></div></div></div>',
    );
    expect(page.markdown).toContain('```ipython3\nimport pint\n```');
    expect(page.markdown).not.toContain('[1]:');
  });

  it('puts a glossary entry’s terms on one line, and reads a list item of one item as that item', () => {
    // As SQLAlchemy's glossary ("* * ACID" then "  * ACID model" over the definition), Celery's
    // result backends (each a definition list of one term in an item: "* * `rpc` – Send…") and
    // pytest's contributors, where docutils read "R. Alex" as a list of letters from R.
    const page = parsedPage(
      'glossary.html',
      '<div role="main"><h1>Glossary</h1><dl class="glossary simple"><dt id="term-ACID">ACID</dt><dt id="term-ACID-model">ACID model</dt><dd><p>An acronym for Atomicity, Consistency, Isolation, Durability.</p></dd></dl>' +
        '<p>Can be one of the following:</p><ul class="simple"><li><dl class="simple"><dt><code>rpc</code></dt><dd><p>Send results back as AMQP messages.</p></dd></dl></li><li><dl class="simple"><dt><code>redis</code></dt><dd><p>Use Redis.</p></dd></dl></li></ul>' +
        '<p>Thanks to:</p><ul class="simple"><li><p>Anthony Sottile</p></li><li><ol class="upperalpha simple" start="18"><li><p>Alex Matevish</p></li></ol></li></ul></div>',
    );
    expect(page.markdown).toMatch(/\* ACID, ACID model\n\n +An acronym/);
    expect(page.markdown).toContain(
      '* `rpc` – Send results back as AMQP messages.\n* `redis` – Use Redis.',
    );
    expect(page.markdown).toMatch(/[*-] R\. Alex Matevish/);
    expect(page.markdown).not.toMatch(/[*-] [*-] /);
  });

  it('reads a Sphinx theme without landmarks from its body, without line numbers or the next-page link', () => {
    // As python-gevent-doc: the site name in an <h1> above the page's own titled every page
    // "gevent", the site's tabs and sidebar were the page's text, Pygments' line numbers ran into
    // the code ("1#!/usr/bin/env python"), and every page ended on "Next page: …".
    const page = parsedPage(
      'examples/echoserver.html',
      '<html><head><title>Example echoserver.py — gevent 22.10.2 documentation</title></head><body><div id="header"><h1><a id="title" href="/index.html">gevent</a></h1><ul class="tabbed"><li><a href="http://blog.gevent.org">Blog</a></li></ul></div>' +
        '<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body"><section id="example-echoserver-py"><h1>Example echoserver.py</h1>' +
        '<div class="highlight-python notranslate"><div class="highlight"><pre><span></span><span class="linenos">1</span><span class="ch">#!/usr/bin/env python</span>\n<span class="linenos">2</span><span class="kn">from</span> gevent.server <span class="kn">import</span> StreamServer\n</pre></div></div></section>' +
        '<p><strong>Next page: <a href="processes.html" title="next chapter">Example processes.py</a></strong></p></div></div></div></div>' +
        '<div class="body"><div class="sphinxsidebar"><h4><a href="contents.html">Table Of Contents</a></h4></div></div></body></html>',
    );
    expect(page.title).toBe('Example echoserver.py');
    expect(page.markdown).toContain(
      '```python\n#!/usr/bin/env python\nfrom gevent.server import StreamServer\n```',
    );
    expect(page.markdown).not.toMatch(/Blog|Next page|Table Of Contents|gevent\]/);
  });

  it('reads an openstackdocstheme page from its docs body, without the theme around it', () => {
    // As python-oslo.config-doc: no landmark, so the whole <body> was the page. Every page opened on
    // its title twice, empty prev/next arrows and "updated: 2022-09-27 08:34" (the description of
    // all 30 pages in llms.txt), and ended on the licence and the site's menus.
    const page = parsedPage(
      'reference/locations.html',
      '<html><body><nav class="navbar navbar-default" role="navigation"><a href="https://docs.openstack.org/">Docs</a></nav><div class="container docs-book-wrapper"><div class="row"><div class="col-lg-9"><div class="row"><div class="col-lg-8"><h2>Option Setting Locations</h2></div></div>' +
        '<div class="docs-actions"><a href="mutable.html"><i class="fa fa-angle-double-left"></i></a><a href="sphinxext.html"><i class="fa fa-angle-double-right"></i></a></div><div class="row docs-byline"><div class="docs-updated">updated: 2022-09-27 08:34</div></div>' +
        '<div class="row"><div class="col-lg-12"><div class="docs-body"><section id="option-setting-locations"><h1>Option Setting Locations</h1><p>The <code>get_location()</code> method can be used to determine where the value for an option was set.</p></section></div>' +
        '<div class="row docs-byline bottom"><div class="docs-updated">updated: 2022-09-27 08:34</div></div><div class="row"><div class="col-lg-8 docs-license"><p>Except where otherwise noted, this document is licensed under Creative Commons Attribution 3.0 License.</p></div></div></div></div></div>' +
        '<div class="col-lg-3 docs-sidebar"><div class="docs-sidebar-toc"><ul><li role="presentation"><a href="http://docs.openstack.org/index.html#configuration-guides">Configuration Guides</a></li></ul></div></div></div></div></body></html>',
    );
    expect(page.title).toBe('Option Setting Locations');
    expect(page.markdown).toMatch(
      /^\s*# Option Setting Locations\n\nThe `get_location\(\)` method/,
    );
    expect(page.markdown).not.toMatch(/updated:|licensed|Configuration Guides|\[\]/);
  });

  it('leaves out the top bar, contents and previous/next links sphinx-book-theme keeps in <main>', () => {
    // As python-dask-doc: every page opened on "[](_sources/install.rst.txt)", an empty link and
    // "Contents", and ended on six previous/next lines, which an entry with no text quoted.
    const page = parsedPage(
      'install.html',
      '<main class="col bd-content" role="main"><div class="topbar container-xl fixed-top"><div class="topbar-contents row"><div class="col pl-md-4 topbar-main"><div class="dropdown-buttons-trigger"><div class="dropdown-buttons"><a class="dropdown-buttons" href="_sources/install.rst.txt"><span class="fa fa-file"></span></a></div></div><a class="full-screen-button"><i class="fas fa-expand"></i></a></div>' +
        '<div class="d-none d-md-block col-md-2 bd-toc show"><div class="tocsection onthispage pt-5 pb-3"><i class="fas fa-list"></i> Contents</div><nav id="bd-toc-nav"><ul><li><a class="reference internal nav-link" href="#pip">Pip</a></li></ul></nav></div></div></div>' +
        '<div id="main-content" class="row"><div class="col-12 col-md-9"><div><section id="dask-installation"><h1>Dask Installation</h1><p>Dask currently supports Linux, macOS, and Windows.</p><section id="pip"><h2>Pip</h2><p>You can install everything required for most common uses of Dask with pip.</p></section></section></div>' +
        '<div class=\'prev-next-area\'><a class=\'left-prev\' id="prev-link" href="index.html" title="previous page"><i class="fas fa-angle-left"></i><div class="prev-next-info"><p class="prev-next-subtitle">previous</p><p class="prev-next-title">Dask</p></div></a></div></div></div></main>',
    );
    expect(page.markdown).toMatch(/^\s*# Dask Installation\n\nDask currently supports/);
    expect(page.markdown).toMatch(/with pip\.\s*$/);
    expect(page.markdown).not.toMatch(/_sources|Contents|previous|\[\]/);
  });

  it('reads the undescribed variants of a call with the entry that describes them', () => {
    // As python-ldap-doc: `delete`, `delete_s` and `delete_ext` each an entry with an empty <dd>,
    // the text under `delete_ext_s` only; "How do I delete an entry?" was answered "sure" with
    // `delete_s`'s signature alone. An undescribed entry of another name stays its own, and so does
    // one autodoc wrote with its "[source]" (Celery's `Step.include`, before `include_if`).
    const entry = (name: string, returns: string, text = '', source = '') =>
      `<dl class="py method"><dt class="sig sig-object py" id="ldap.LDAPObject.${name}"><span class="sig-prename descclassname"><span class="pre">LDAPObject.</span></span><span class="sig-name descname"><span class="pre">${name}</span></span><span class="sig-paren">(</span><em class="sig-param">dn</em><span class="sig-paren">)</span> → ${returns}${source}</dt><dd>${text}</dd></dl>`;
    const source =
      '<a class="reference internal" href="../_modules/ldap.html"><span class="viewcode-link"><span class="pre">[source]</span></span></a>';
    const page = parsedPage(
      'reference/ldap.html',
      '<div role="main"><section id="ldap-objects"><h1>LDAP objects</h1>' +
        entry('delete', 'int') +
        entry('delete_s', 'None') +
        entry('delete_ext_s', 'tuple', '<p>Performs an LDAP delete operation on <em>dn</em>.</p>') +
        entry('fileno', 'int') +
        entry('msgid', 'int', '<p>Returns the id of the next message.</p>') +
        entry('include', 'int', '', source) +
        entry('include_if', 'bool', '<p>Return true if the entry should be included.</p>', source) +
        '</section></div>',
    );
    expect(page.markdown).toContain(
      '#### ldap.LDAPObject.delete\n\n`LDAPObject.delete(dn) → int`\n\n`LDAPObject.delete_s(dn) → None`\n\n`LDAPObject.delete_ext_s(dn) → tuple`\n\nPerforms an LDAP delete operation',
    );
    expect(page.markdown).toMatch(/#### ldap\.LDAPObject\.fileno\n\n`[^`]+`\n\n####/);
    expect(page.markdown).toMatch(
      /#### ldap\.LDAPObject\.include\n\n`[^`]+`\n\n#### ldap\.LDAPObject\.include_if\n/,
    );
  });

  it('reads a texi2html chapter without its navigation bars, its headings’ links to the contents and its generator stamp', () => {
    // As gettext-doc (texi2html 1.78a): an eleven-column table of "[ << ]", "[ >> ]" … "[ ? ]"
    // links above and below each chapter, the title read twice (a link to its line in the
    // contents, after a rule), and "This document was generated by …" as the index pages' text.
    const bar =
      '<table cellpadding="1" cellspacing="1" border="0"><tr><td valign="middle" align="left">[<a href="gettext_10.html#SEC172" title="Beginning of this chapter or previous chapter"> &lt;&lt; </a>]</td>' +
      '<td valign="middle" align="left">[<a href="gettext_12.html#SEC216" title="Next chapter"> &gt;&gt; </a>]</td><td> &nbsp; </td>' +
      '<td valign="middle" align="left">[<a href="gettext_toc.html#SEC_Contents" title="Table of contents">Contents</a>]</td><td valign="middle" align="left">[<a href="gettext_abt.html#SEC_About" title="About (help)"> ? </a>]</td></tr></table>';
    const page = parsedPage(
      'gettext_11.html',
      '<html><head><title>GNU gettext utilities: 11. The Programmer&#39;s View</title></head><body>' +
        `<a name="SEC190"></a>\n<hr size="6">\n${bar}\n<hr size="6">\n` +
        '<h1 class="chapter"> <a href="gettext_toc.html#TOC190">11. The Programmer&#39;s View</a> </h1>\n<p>One aim of the current message catalog implementation was to use the system&#39;s handling.</p>\n' +
        '<a name="SEC191"></a>\n<h2 class="section"> <a href="gettext_toc.html#TOC191">11.1 About <code>catgets</code></a> </h2>\n<p>The <code>catgets</code> implementation is defined in the X/Open Portability Guide.</p>\n' +
        `<hr size="6">\n${bar}\n<p>\n <font size="-1">\n  This document was generated by <em>Bruno Haible</em> on <em>July, 26 2020</em> using <a href="https://www.nongnu.org/texi2html/"><em>texi2html 1.78a</em></a>.\n </font>\n <br>\n</p></body></html>`,
    );
    expect(page.markdown.trim()).toMatch(/^# 11\. The Programmer's View\n\nOne aim/);
    expect(page.markdown).toContain('## 11.1 About `catgets`\n');
    expect(page.markdown).not.toMatch(/<<|>>|\[Contents\]|TOC19|generated by|texi2html/);
    expect(page.sections.map((section) => section.heading)).toEqual([
      "11. The Programmer's View",
      '11.1 About catgets',
    ]);
  });

  it('reads a manual page groff wrote without its list of links to its own sections', () => {
    // As gettext-doc's msgfmt.1.html: the list was the page's first paragraph, and `llms.txt`
    // described each manual page as "NAMESYNOPSISDESCRIPTIONAUTHOR…".
    const page = parsedPage(
      'msgfmt.1.html',
      '<html><head><meta name="generator" content="groff -Thtml, see www.gnu.org"><title>MSGFMT</title></head><body>' +
        '<h1 align="center">MSGFMT</h1>\n<a href="#NAME">NAME</a><br>\n<a href="#SYNOPSIS">SYNOPSIS</a><br>\n<a href="#SEE ALSO">SEE ALSO</a><br>\n<hr>\n' +
        '<h2>NAME\n<a name="NAME"></a>\n</h2>\n<p style="margin-left:11%; margin-top: 1em">msgfmt - compile message catalog to binary format</p>\n' +
        '<h2>SEE ALSO\n<a name="SEE ALSO"></a>\n</h2>\n<p>The full documentation for <b>msgfmt</b> is maintained as a Texinfo manual; see <a href="#NAME">above</a>.</p></body></html>',
    );
    // Titled as manual pages are named: gettext's ngettext.1 and ngettext.3 were both "NGETTEXT".
    expect(page.title).toBe('msgfmt(1)');
    expect(page.markdown).not.toMatch(/\[SYNOPSIS\]|\[NAME\]/);
    expect(page.markdown.trim()).toMatch(/^# MSGFMT\n+(?:\*\*\*\n+)?## NAME\n+msgfmt - compile/);
    // A link to the page's own section in its text stays.
    expect(page.markdown).toContain('[above](');
  });

  it('reads a Texinfo node without its navigation bar, titled by its node, its labels at its headings', () => {
    // As debian's diffutils-doc (makeinfo 6.8): "Next: …, Previous: …, Up: … [Contents][Index]"
    // above each node ran on from the section before, was every page's llms.txt line, and took
    // the node's label (`#Binary`) to the section above; every page was titled "Comparison
    // (Comparing and Merging Files)".
    const nav = (next: string) =>
      `<div class="header"><p>Next: <a href="${next}.html" accesskey="n" rel="next">${next}</a>, Up: <a href="index.html" accesskey="u" rel="up">Top</a> &nbsp; [<a href="index.html#SEC_Contents" rel="contents">Contents</a>]</p></div>`;
    const page = parsedPage(
      'Comparison.html',
      '<html><head><title>Comparison (Comparing and Merging Files)</title><meta name="Generator" content="makeinfo"></head><body lang="en">' +
        `<div class="chapter" id="Comparison">${nav('Output-Formats')}<span id="What-Comparison-Means"></span><h2 class="chapter">1 What Comparison Means</h2>` +
        '<p>There are several ways to think about the differences between two files.</p>' +
        `<div class="section" id="Binary">${nav('Brief')}<h3 class="section">1.7 Binary Files</h3><p>Use the <code>--text</code> option.</p></div></div>` +
        `<hr>${nav('Output-Formats')}</body></html>`,
    );
    expect(page.title).toBe('Comparison');
    expect(page.frontmatter?.siteName).toBe('Comparing and Merging Files');
    expect(page.markdown).not.toMatch(/Next:|Contents/);
    expect(page.sections.map((section) => section.heading)).toContain('1.7 Binary Files');
    // Each heading at its node's label, the manual's links' targets.
    expect(page.sections.map((section) => section.anchor)).toEqual(['Comparison', 'Binary']);
    expect(page.frontmatter?.anchorAliases).toMatchObject({
      'What-Comparison-Means': 'Comparison',
    });
  });

  it('reads a link that leads nowhere as the target it is, in DocBook, AsciiDoc and Node.js headings', () => {
    // As git-doc: `<a name>` and `<a id>` without href wrote "[]()" and the page's URL into 206
    // headings of the user manual ("## OPTIONS[]()http://…"); the manual's links to its sections
    // (`#reverting-a-commit`) led nowhere.
    const page = parsedPage(
      'user-manual.html',
      '<div role="main"><h1>Git User Manual</h1><div class="section"><div class="titlepage"><h2 class="title"><a name="reverting-a-commit"></a>Fixing a mistake with a new commit</h2></div><p>Use <a href="#def_revert">git revert</a>.</p></div>' +
        '<h2 id="_options">OPTIONS<a id="OPTIONS"></a></h2><p>--all</p>' +
        '<h2>Buffer<span><a class="mark" href="#buffer" id="buffer">#</a></span><a aria-hidden="true" class="legacy" id="buffer_buffer"></a></h2><p>Bytes.</p>' +
        '<dl><dt><a name="def_revert"></a>revert</dt><dd><p>Undo a commit.</p></dd></dl></div>',
    );
    expect(page.markdown).not.toContain('[]');
    expect(page.markdown).toContain('## OPTIONS\n');
    expect(page.sections.map((section) => section.anchor)).toEqual([
      'reverting-a-commit',
      '_options',
      'buffer',
    ]);
    expect(page.frontmatter?.anchorAliases).toMatchObject({
      OPTIONS: '_options',
      buffer_buffer: 'buffer',
    });
  });

  it('reads a Node.js API page from #apicontent, titled by the page, not the site', () => {
    // As nodejs-doc: every page was titled "Node.js v18.20.4 documentation" (the header's <h1>) and
    // opened on the menus of every page and every version.
    const page = parsedPage(
      'buffer.html',
      '<html><head><title>Buffer | Node.js v18.20.4 Documentation</title></head><body class="alt apidoc" id="api-section-buffer"><div id="content" class="clearfix"><div id="column2" class="interior"><ul><li><a href="fs.html">File system</a></li></ul></div>' +
        '<div id="column1" data-id="buffer" class="interior"><header class="header"><div class="header-container"><h1>Node.js v18.20.4 documentation</h1></div><div id="gtoc"><ul><li class="picker-header"><a href="#">Other versions</a><div class="picker"><ol><li><a href="https://nodejs.org/docs/latest-v19.x/api/buffer.html">19.x</a></li></ol></div></li></ul></div></header>' +
        '<details id="toc" open><summary>Table of contents</summary><ul><li><a href="#buffer">Buffer</a></li></ul></details>' +
        '<div id="apicontent"><section><h2>Buffer<span><a class="mark" href="#buffer" id="buffer">#</a></span></h2><p><code>Buffer</code> objects are used to represent a fixed-length sequence of bytes.</p></section></div></div></div></body></html>',
    );
    expect(page.title).toBe('Buffer');
    expect(page.markdown).toContain('objects are used to represent');
    expect(page.markdown).not.toMatch(/Other versions|documentation|Table of contents|File system/);
    // The whole manual again on one page is no page of its own.
    expect(
      parseHtmlPage(
        'all.html',
        '<html><body class="alt apidoc" id="api-section-all"><div id="apicontent"><h2>Assert</h2><p>The assert module.</p></div></body></html>',
      ),
    ).toEqual({ skipped: 'every page again on one page' });
  });

  it('reads an AsciiDoc admonition table as the note it is', () => {
    // As git-doc: 898 notes were written as a table of one row, "Note" in one cell and the text in
    // the other, and read as Markdown tables with an empty header row.
    const page = parsedPage(
      'gitattributes.html',
      '<div id="content"><h1>gitattributes</h1><div class="admonitionblock"><table><tr><td class="icon"><div class="title">Note</div></td><td class="content">When <code>text=auto</code> conversion is enabled the text files should be normalized.</td></tr></table></div>' +
        '<div class="admonitionblock"><table><tr><td class="icon"><div class="title">Warning</div></td><td class="content"><div class="paragraph"><p>First.</p></div><div class="paragraph"><p>Second.</p></div></td></tr></table></div></div>',
    );
    expect(page.markdown).toContain(
      '**Note:** When `text=auto` conversion is enabled the text files should be normalized.',
    );
    expect(page.markdown).toContain('**Warning:** First.\n\nSecond.');
    expect(page.markdown).not.toContain('|');
  });

  it('writes the several names of one definition on one line, as options lists give them', () => {
    // As diffutils-doc (Texinfo) and git-doc (AsciiDoc): `-b` and `--print-bytes` over one
    // definition read "* * `-b`" then "  * `--print-bytes`".
    const page = parsedPage(
      'Invoking-cmp.html',
      '<div role="main"><h1>Invoking cmp</h1><dl compact="compact"><dt><span><samp>-b</samp></span></dt><dt><span><samp>--print-bytes</samp></span></dt><dd><p>Print the differing bytes.</p></dd></dl>' +
        '<div class="dlist"><dl><dt class="hdlist1">-a\n</dt><dt class="hdlist1">--all\n</dt><dd><p>All untracked files are also stashed.</p></dd></dl></div></div>',
    );
    expect(page.markdown).toContain('* `-b`, `--print-bytes` – Print the differing bytes.');
    expect(page.markdown).toMatch(/[*-] -a, --all – All untracked files/);
  });

  it('keeps each signature of an overloaded API entry', () => {
    // As python-scrapy-doc's `Selector.re_first`: its second signature was lost.
    const page = parsedPage(
      'selectors.html',
      '<div role="main"><section id="selectors"><h1>Selectors</h1><dl class="py method"><dt class="sig sig-object py" id="scrapy.selector.Selector.re_first"><span class="sig-name descname"><span class="pre">re_first</span></span><span class="sig-paren">(</span><em class="sig-param">regex</em>, <em class="sig-param">default: None = None</em><span class="sig-paren">)</span></dt>' +
        '<dt class="sig sig-object py"><span class="sig-name descname"><span class="pre">re_first</span></span><span class="sig-paren">(</span><em class="sig-param">regex</em>, <em class="sig-param">default: str</em><span class="sig-paren">)</span></dt><dd><p>Apply the regex and return the first string which matches.</p></dd></dl></section></div>',
    );
    expect(page.markdown).toContain(
      '`re_first(regex, default: None = None)`\n\n`re_first(regex, default: str)`\n\nApply the regex',
    );
  });

  it('leaves out the links to the index and search pages Sphinx generates, and their heading', () => {
    // As python-factory-boy-doc's home page, which ended on the bare words "Index", "Module
    // Index" and "Search Page" once their links (to pages not served) went.
    const page = parsedPage(
      'index.html',
      '<div role="main"><section id="factory-boy"><h1>factory_boy</h1><p>Fixtures for tests.</p><ul><li><p><a href="intro.html">Introduction</a></p></li></ul></section>' +
        '<section id="indices-and-tables"><h1>Indices and tables</h1><ul><li><p><a class="reference internal" href="genindex.html"><span class="std std-ref">Index</span></a></p></li>' +
        '<li><p><a href="py-modindex.html"><span>Module Index</span></a></p></li><li><p><a href="search.html">Search Page</a></p></li></ul></section></div>',
    );
    expect(page.markdown).toContain('[Introduction](intro.html)');
    expect(page.markdown).not.toMatch(/Index|Search Page|Indices/);
  });

  it('reads a Mermaid diagram as a code block of its source, not as prose', () => {
    // As python-structlog-doc's flowcharts (sphinxcontrib-mermaid): they ran into one paragraph.
    const page = parsedPage(
      'standard-library.html',
      '<div role="main"><h1>Standard Library</h1><div align="center" class="mermaid align-center">\n            flowchart TD\n   User\n   User --&gt; |&quot;info(&#39;foo&#39;)&quot;| stdlib\n        </div><p>A basic configuration.</p></div>',
    );
    expect(page.markdown).toContain(
      '```mermaid\nflowchart TD\nUser\nUser --> |"info(\'foo\')"| stdlib\n```',
    );
    expect(page.sections[0]!.blocks.map((block) => block.kind)).toEqual(['code', 'paragraph']);
  });

  it('leaves a script’s toggle link out of code', () => {
    // As python-sqlalchemy-doc: its "sql" toggle before a prompt read `sql>>> result = …`.
    const page = parsedPage(
      'queryguide.html',
      `<div role="main"><h1>Queries</h1><div class="highlight-pycon notranslate"><div class="highlight"><pre><span></span><a href='#' class='sql_link'>sql</a><span class="gp">&gt;&gt;&gt; </span><span class="n">result</span> = <a href="api.html#run">run</a>(stmt)</pre></div></div></div>`,
    );
    expect(page.markdown).toContain('>>> result = run(stmt)');
    expect(page.markdown).not.toContain('sql>>>');
  });

  it('titles a page with one space where its heading has a run of them', () => {
    // As python-sqlalchemy-doc's "Appendix:  Copyright", listed so in llms.txt and the sidebar.
    expect(builtPage('copyright.html', 'Appendix:  Copyright').title).toBe('Appendix: Copyright');
  });

  it('reads a title that is only a logo as the logo’s words', () => {
    // As python-tornado-doc's index: its /docs page had no title at all.
    const page = parsedPage(
      'index.html',
      '<div role="main"><section id="tornado-web-server"><h1><img alt="Tornado Web Server" src="_images/tornado.png" /><a class="headerlink" href="#tornado-web-server">¶</a></h1><p>Tornado is a Python web framework.</p></section></div>',
    );
    expect(page.title).toBe('Tornado Web Server');
    expect(page.markdown.trimStart()).toMatch(/^# Tornado Web Server\n/);
  });

  it('names a binary page and a link out of the site folder as skipped, and serves a link inside it', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.html'), '<main><h1>Secret</h1><p>Keys.</p></main>');
    const dir = await tempDir();
    await writeFile(join(dir, 'index.html'), '<main><h1>Home</h1><p>Welcome.</p></main>');
    await mkdir(join(dir, 'shared'));
    await writeFile(join(dir, 'shared', 'faq.html'), '<main><h1>FAQ</h1><p>Answers.</p></main>');
    await symlink(join(dir, 'shared', 'faq.html'), join(dir, 'faq.html'));
    await symlink(join(outside, 'secret.html'), join(dir, 'secret.html'));
    await symlink(join(outside, 'gone.html'), join(dir, 'gone.html'));
    // Debian links a build's scripts and styles to shared copies: never read, so not named.
    await mkdir(join(dir, '_static'));
    await symlink(join(outside, 'secret.html'), join(dir, '_static', 'jquery.js'));
    await mkdir(join(dir, 'css'));
    await symlink(join(outside, 'secret.html'), join(dir, 'css', 'base.css'));
    // And a theme's fonts (MkDocs' `fonts/fontawesome-webfont.svg`, though SVG is an image too).
    await mkdir(join(dir, 'fonts'));
    await symlink(join(outside, 'gone.svg'), join(dir, 'fonts', 'fontawesome-webfont.svg'));
    // A PNG's first bytes, saved under a page's name.
    await writeFile(join(dir, 'logo.html'), Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0]));
    const { site, skipped } = await loadHtmlSite(dir);
    expect(site.pages.map((page) => page.path).sort()).toEqual(['/', '/faq', '/shared/faq']);
    expect(site.pages.map((page) => page.markdown).join()).not.toContain('Keys');
    expect(skipped).toEqual(
      expect.arrayContaining([
        {
          file: 'secret.html',
          reason: expect.stringMatching(
            /^a link to .*secret\.html, outside the site folder, not read$/,
          ),
        },
        { file: 'gone.html', reason: 'a link to nothing' },
        { file: 'logo.html', reason: 'not HTML text (it holds binary bytes)' },
      ]),
    );
    expect(skipped.map((page) => page.file)).not.toContain('_static/jquery.js');
    expect(skipped.map((page) => page.file)).not.toContain('css/base.css');
    expect(skipped.map((page) => page.file)).not.toContain('fonts/fontawesome-webfont.svg');
  });

  it('reads a page the build compressed (.html.gz, as Debian ships long pages) at the URL its links name', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, 'index.html'),
      '<main><h1>Home</h1><p>See the <a href="changelog.html#version-2-0">changes</a>.</p></main>',
    );
    await writeFile(
      join(dir, 'changelog.html.gz'),
      gzipSync(
        '<main><h1>Changelog</h1><h2 id="version-2-0">Version 2.0</h2><p>Dropped support for Python 3.7.</p></main>',
      ),
    );
    // Bytes that are not gzip, under a compressed page's name.
    await writeFile(join(dir, 'broken.html.gz'), '<main><h1>Not packed</h1></main>');
    const { site, skipped } = await loadHtmlSite(dir);
    expect(site.pages.map((page) => page.path).sort()).toEqual(['/', '/changelog']);
    const changelog = site.pages.find((page) => page.path === '/changelog')!;
    expect(changelog.frontmatter?.permalink).toBe('/changelog.html');
    expect(changelog.sections.map((s) => [s.heading, s.anchor])).toContainEqual([
      'Version 2.0',
      'version-2-0',
    ]);
    const home = site.pages.find((page) => page.path === '/')!;
    const link = home.sections.flatMap((s) => s.blocks).flatMap((b) => b.links ?? [])[0]!;
    expect(docLinkTarget(link.url, home, site)).toMatchObject({
      kind: 'page',
      pagePath: '/changelog',
      anchor: 'version-2-0',
    });
    expect(skipped).toEqual([
      { file: 'broken.html', reason: expect.stringMatching(/^not a readable \.gz file/) },
    ]);
    // The question finds it.
    const hits = createRetriever(site).search('Which release dropped Python 3.7?', {
      limit: 3,
    }).hits;
    expect(hits[0]?.section.pagePath).toBe('/changelog');
  });

  it('reads an older MkDocs theme’s #main-content, and never gives two sections one id', async () => {
    // As Debian's python-djangorestframework-doc: a navbar and a search dialog in the body, the
    // page in `#main-content` under a hidden id-less <h1> after a logo, and an id used twice.
    const dir = await tempDir();
    await writeFile(
      join(dir, 'index.html'),
      `<html><head><title>Home - Django REST framework</title></head><body>
      <div class="navbar"><a href="#">Django REST framework</a><ul><li><a href="tutorial/">Tutorial</a></li></ul></div>
      <div class="modal"><h3 id="myModalLabel">Documentation search</h3><p>From here you can search.</p></div>
      <div id="main-content" class="span9"><p><img alt="Logo" src="logo.png"></p>
      <h1 style="position: absolute">Django REST Framework</h1><p>A toolkit for building Web APIs.</p>
      <h2 id="install"><a class="toclink" href="#install">Installation</a></h2><p>Install using pip.</p>
      <h2 id="install">Installing from source</h2><p>Clone the project.</p></div></body></html>`,
    );
    const { site } = await loadHtmlSite(dir);
    const [page] = site.pages;
    expect(page!.markdown).not.toMatch(/Documentation search|From here you can search|Tutorial/);
    const ids = page!.sections.map((section) => section.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(page!.sections.map((section) => section.heading)).toEqual([
      'Django REST Framework',
      'Installation',
      'Installing from source',
    ]);
    // A heading that is its own link (Python-Markdown's `anchorlink`) is text, at its anchor.
    expect(page!.markdown).toContain('## Installation\n');
    expect(page!.sections[1]!.anchor).toBe('install');
    // The site is searchable: a shared id had stopped the index ("duplicate ID").
    const hits = createRetriever(site).search('install from source', { limit: 3 }).hits;
    expect(hits[0]!.section.heading).toBe('Installing from source');
  });

  it('leaves out Sphinx’s highlighted source files, a theme’s version notice and an icon font’s self-link glyph', async () => {
    // As Debian's python-cookiecutter-doc: `_modules/` (viewcode), and headings whose self-link
    // shows Font Awesome's link icon, a private-use character (U+F0C1); as python-celery-doc, the
    // sphinx_celery theme's version notice over every page.
    const dir = await tempDir();
    await writeFile(
      join(dir, 'index.html'),
      `<main><div class="deck"><p>This document describes the current stable version of Acme (5.2).
      For development docs, <a href="http://example.com/dev/">go here</a>.</p></div>
      <h1>Installation<a class="headerlink" href="#installation">\uf0c1</a></h1><p>Run pip.</p>
      <h2>Windows<a class="headerlink" href="#windows">\uf0c1</a></h2><p>Use py.</p></main>`,
    );
    await mkdir(join(dir, '_modules', 'acme'), { recursive: true });
    await writeFile(
      join(dir, '_modules', 'acme', 'cli.html'),
      '<main><h1>Source code for acme.cli</h1><pre>def main(): pass</pre></main>',
    );
    const { site } = await loadHtmlSite(dir);
    expect(site.pages.map((page) => page.path)).toEqual(['/']);
    expect(site.pages[0]!.title).toBe('Installation');
    expect(site.pages[0]!.sections.map((section) => section.heading)).toContain('Windows');
    expect(site.pages[0]!.markdown).not.toContain('\uf0c1');
    expect(site.pages[0]!.markdown).not.toContain('stable version');
  });

  it('leaves out a field list that stamps the build, so the contents under it are navigation, and keeps other field lists', () => {
    // As python-celery-doc's index pages: "Release: 5.2, Date: Jan 22, 2023" over a toctree.
    const field = (name: string, value: string) =>
      `<dt class="field-odd">${name}<span class="colon">:</span></dt><dd class="field-odd"><p>${value}</p></dd>`;
    const parsed = parsedPage(
      'django/index.html',
      `<main><section id="django"><h1>Django</h1>
      <dl class="field-list simple">${field('Release', '5.2')}${field('Date', 'Jan 22, 2023')}</dl>
      <div class="toctree-wrapper compound"><ul>
      <li class="toctree-l1"><a href="first-steps.html">First steps with Django</a><ul>
      <li class="toctree-l2"><a href="first-steps.html#using-celery">Using Celery with Django</a></li>
      <li class="toctree-l2"><a href="first-steps.html#extensions">Extensions</a></li></ul></li></ul></div>
      <h2>Settings</h2><dl class="field-list simple">${field('Default', '4')}${field('Version', '5.1')}</dl>
      </section></main>`,
    );
    expect(parsed.markdown).not.toContain('Jan 22, 2023');
    expect(isNavigation(parsed.sections[0]!)).toBe(true);
    // A field list with any other field is the page's own.
    expect(parsed.sections[1]!.blocks.map((b) => b.text).join(' ')).toMatch(
      /Default.*4.*Version.*5\.1/s,
    );
  });

  it('opens a page with its title when a box stands above it, and keeps the title’s anchors', () => {
    // As python3-marshmallow-doc's changelog: a "See also" box, then the section of the <h1>.
    const page = parsedPage(
      'changelog.html',
      `<div class="body" role="main"><div class="admonition seealso"><p class="admonition-title">See also</p>
      <p>Need help upgrading? Check out the <a href="upgrading.html">upgrading guide</a>.</p></div>
      <span id="changes"></span><section id="changelog"><h1>Changelog</h1>
      <section id="v3"><h2>3.18.0</h2><p>Add Enum field.</p></section></section></div>`,
    );
    expect(page.markdown.trim()).toMatch(
      /^# Changelog\n\n\*\*See also:\*\* Need help upgrading\? Check out the \[upgrading guide\]\(upgrading\.html\)\.\n\n## 3\.18\.0/,
    );
    expect(page.sections[0]!.heading).toBe('Changelog');
    expect(page.sections[0]!.text).toContain('Need help upgrading?');
    // Its Markdown for agents has one title, not one above the box and the page's own below it.
    const agents = pageMarkdown(page, createSite([page]), {
      page: (path) => path,
      file: (path) => path,
      markdown: (path) => `${path}.md`,
      pathOf: () => undefined,
    });
    expect(agents.match(/^# /gm)).toHaveLength(1);
    // Content above a heading that is no title stays where it is.
    const untitled = parsedPage(
      'notes.html',
      '<main><p>Intro words.</p><h2>Part</h2><p>More.</p></main>',
    );
    expect(untitled.markdown.trim()).toMatch(/^Intro words\.\n\n## Part/);
  });

  it('reads a callout’s title as the label of its first paragraph, as each generator writes callouts', () => {
    const page = (body: string) =>
      parsedPage('guide.html', `<main><h1>Guide</h1><p>Intro.</p>${body}</main>`).markdown;
    // Sphinx and MkDocs (Debian's python-click-doc), with a custom title.
    expect(
      page(
        '<div class="admonition note"><p class="admonition-title">Note</p><p>Chains cannot be nested.</p></div>',
      ),
    ).toContain('**Note:** Chains cannot be nested.');
    expect(
      page(
        '<div class="admonition-callback admonition"><p class="admonition-title">Callback Signature Changes</p><p>In 2.0 it changed.</p></div>',
      ),
    ).toContain('**Callback Signature Changes:** In 2.0 it changed.');
    // Sphinx's "See also" over a list: the label stands alone, as the list's lead-in.
    expect(
      page(
        '<div class="admonition seealso"><p class="admonition-title">See also</p><ul><li><p><a href="a.html">About fixtures</a></p></li></ul></div>',
      ),
    ).toMatch(/\*\*See also:\*\*\n\n\* \[About fixtures\]\(a\.html\)/);
    // VitePress's custom block.
    expect(
      page(
        '<div class="tip custom-block"><p class="custom-block-title">TIP</p><p>Run it twice.</p></div>',
      ),
    ).toContain('**Tip:** Run it twice.');
    // Docusaurus 3's admonition (its heading as the fixture's unlisted banner has it).
    expect(
      page(
        '<div class="theme-admonition theme-admonition-note admonition_xJq3 alert alert--secondary"><div class="admonitionHeading_Gvgb"><span class="admonitionIcon_Rf37"><svg viewBox="0 0 14 16"><path d="M0 0"></path></svg></span>note</div><div class="admonitionContent_BuS1"><p>Keys are secret.</p></div></div>',
      ),
    ).toContain('**Note:** Keys are secret.');
    // MkDocs' own docs (Debian's mkdocs-doc): a collapsible example, and a "Block" box around
    // each headed option, whose title labels nothing.
    expect(
      page(
        '<details class="example"><summary>Example</summary><p><pre><code class="language-python">x = 1</code></pre></p></details>',
      ),
    ).toMatch(/\*\*Example:\*\*\n\n```python\nx = 1\n```/);
    const block = page(
      '<div class="admonition block"><p class="admonition-title">Block</p><h4 id="name">name</h4><p>The theme’s name.</p></div>',
    );
    expect(block).not.toContain('Block');
    expect(block).toContain('#### name\n\nThe theme’s name.');
    // Starlight's aside (as its remark plugin documents it): kept, not dropped as a sidebar.
    expect(
      page(
        '<aside class="starlight-aside starlight-aside--tip" aria-label="Did you know?"><p class="starlight-aside__title" aria-hidden="true">Did you know?</p><div class="starlight-aside__content"><p>Islands load fast.</p></div></aside>',
      ),
    ).toContain('**Did you know?** Islands load fast.');
  });

  it('says what to give --site when the folder holds no HTML', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'readme.md'), '# Not built\n');
    await expect(loadHtmlSite(dir)).rejects.toThrow(
      /No HTML pages .* found in .*--site the folder/,
    );
    const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_acme' });
    expect(await runCli(['serve', '--port', '0', '--site', dir], run.io)).toBe(1);
    expect(run.err).toMatch(/No HTML pages/);
    const both = captureIo();
    expect(await runCli(['serve', '--site', dir, '--docs', dir], both.io)).toBe(2);
    expect(both.err).toMatch(/--docs \(Markdown\) or --site \(built HTML\), not both/);
  });
});

describe('a Docusaurus build’s unlisted page', () => {
  // `unlisted: true` in e2e/sites/docusaurus/docs/guides/upgrade-notes.md: Docusaurus builds the
  // page with <meta name="robots" content="noindex, nofollow"> and leaves it out of its sidebar.
  it('is served but never listed, searched, quoted or cited', async () => {
    const { site } = await loadHtmlSite(BUILDS.Docusaurus);
    expect(site.byPath.get('/docs/guides/upgrade-notes')?.title).toBe('Upgrade notes');
    const retriever = createRetriever(site);
    const found = retriever.search('What happened to the odometer widget?', { limit: 5 });
    expect(found.hits.map((hit) => hit.section.pagePath)).not.toContain(
      '/docs/guides/upgrade-notes',
    );
    // Only that page says "odometer": for the assistant, the docs never do.
    expect(found.unknown).toContain('odometer');
    // Nor listed: Docusaurus leaves it out of its sidebar, and so does ours (and llms.txt).
    const listed = sidebarGroups(site).flatMap(([, pages]) => pages.map((page) => page.title));
    expect(listed).toContain('Widget setup');
    expect(listed).not.toContain('Upgrade notes');
    // Docusaurus's own banner over the page ("Search engines will not index it") is chrome.
    expect(site.byPath.get('/docs/guides/upgrade-notes')?.markdown).not.toMatch(/search engines/i);
    expect(retriever.search('refresh interval', { limit: 5 }).hits[0]?.section.pagePath).toBe(
      '/docs/guides/setup',
    );
  });
});

describe('a TypeDoc API reference read with --site', () => {
  // Built from the typedoc npm package by `node e2e/sites/build.mjs static` (checked in).
  const dir = 'e2e/sites/typedoc/docs';

  it('keeps members under their own anchors and examples as code, without breadcrumbs', async () => {
    const { site } = await loadHtmlSite(dir);
    const options = site.byPath.get('/interfaces/DashboardOptions' as never)!;
    expect(options.frontmatter?.permalink).toBe('/interfaces/DashboardOptions.html');
    const html = readFileSync(join(dir, 'interfaces/DashboardOptions.html'), 'utf8');
    const refresh = options.sections.find((s) => s.anchor === 'refreshseconds')!;
    expect(refresh.text).toContain('Seconds between two polls');
    expect(html).toContain('id="refreshseconds"');
    const create = site.byPath.get('/functions/createDashboard' as never)!;
    // TypeDoc puts the example inside the signature's list item: a fence within the list block.
    expect(create.markdown).toMatch(
      /```ts\n\s*const dashboard = createDashboard\(\{ refreshSeconds: 15 \}\);\n\s*dashboard\.start\(\);\n\s*```/,
    );
    expect(create.markdown).not.toMatch(/^\* \[createDashboard\]/m);
    // A relative link between built pages resolves to the page it names, so answers can rewrite it.
    const link = options.sections.flatMap((s) => s.blocks).flatMap((b) => b.links ?? [])[0]!;
    expect(link.url).toBe('../functions/createDashboard.html');
    expect(docLinkTarget(link.url, options, site)).toMatchObject({
      kind: 'page',
      pagePath: '/functions/createDashboard',
    });
  });
});

describe("a site's name", () => {
  it("comes from the package.json above an npm package's docs before the folder's name", async () => {
    const pkg = join(await tempDir(), 'package');
    await mkdir(join(pkg, 'docs'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'acme-gauges' }));
    await writeFile(join(pkg, 'docs', 'index.md'), 'Welcome.\n');
    expect(siteNameOf(await loadDocsSite(join(pkg, 'docs')))).toBe('acme-gauges');
    await writeFile(join(pkg, 'docs', 'index.md'), '# Gauges for Acme\n\nWelcome.\n');
    expect(siteNameOf(await loadDocsSite(join(pkg, 'docs')))).toBe('Gauges for Acme');
  });

  it('comes from the root page’s front matter before its heading and the package’s name', async () => {
    const pkg = join(await tempDir(), 'package');
    await mkdir(join(pkg, 'docs'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'acme-gauges' }));
    await writeFile(
      join(pkg, 'docs', 'index.md'),
      '---\nsiteName: Acme Gauges\n---\n# Introduction\n\nWelcome.\n',
    );
    expect(siteNameOf(await loadDocsSite(join(pkg, 'docs')))).toBe('Acme Gauges');
  });

  it.each([
    ['og:site_name', '<meta property="og:site_name" content="Acme Gauges">', 'Introduction'],
    ['the <title> after the page’s own name', '', 'Introduction | Acme Gauges'],
    ['Sphinx’s <title>', '', 'Introduction — Acme Gauges  documentation'],
    ['the root page’s <title> when it is only the name', '', 'Acme Gauges'],
  ])("comes from a built root page's %s", async (_source, meta, title) => {
    const dir = join(await tempDir(), 'build');
    await mkdir(dir);
    await writeFile(
      join(dir, 'index.html'),
      `<html><head><title>${title}</title>${meta}</head><body><main><p>Welcome to the gauges.</p></main></body></html>`,
    );
    expect(siteNameOf((await loadHtmlSite(dir)).site)).toBe('Acme Gauges');
  });

  it("comes from a built site's root page, not its build folder", async () => {
    const { site } = await loadHtmlSite(BUILDS.Docusaurus);
    expect(siteNameOf(site)).toBe('Acme Widgets');
  });
});

describe('docs-assistant serve --site', () => {
  it('serves a Sphinx build: its pages under /docs and answers citing the build’s URLs', async () => {
    const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_acme' });
    const exit = runCli(
      [
        'serve',
        '--site',
        BUILDS.Sphinx,
        '--domain',
        'acme',
        '--public-url',
        'https://docs.acme.dev',
        '--port',
        '0',
        '--data',
        await tempDir(),
      ],
      run.io,
    );
    const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
    const page = await fetch(`${url}/docs/getting-started`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Render a first widget');
    const answer = await fetch(`${url}/discovery/v1/assistant/acme/message`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer svc_dsc_acme' },
      body: JSON.stringify(askBody('How do I install Acme Widgets?')),
    });
    const cited = searchResultsOf(await readStream(answer)).map((r) => r.url);
    expect(cited).toContain('https://docs.acme.dev/getting-started.html#install');
    run.interrupt();
    expect(await exit).toBe(0);
  });

  it('exports a VitePress build as a static bundle whose pages and links work like --docs', async () => {
    const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_acme,svc_acme_admin' });
    const exit = runCli(
      ['serve', '--site', BUILDS.VitePress, '--domain', 'acme', '--port', '0'].concat(
        '--data',
        await tempDir(),
      ),
      run.io,
    );
    const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
    const out = await tempDir();
    const exporting = captureIo({ DOCS_ASSISTANT_ADMIN_KEY: 'svc_acme_admin' });
    const args = ['export', '--domain', 'acme', '--base-url', url!, '--interval-ms', '20'];
    expect(
      await runCli([...args, '--out', join(out, 'bundle.tar.gz')], exporting.io),
      exporting.err,
    ).toBe(0);
    run.interrupt();
    expect(await exit).toBe(0);

    const site = join(out, 'site');
    await mkdir(site);
    await extract({ file: join(out, 'bundle.tar.gz'), cwd: site });
    const { site: built } = await loadHtmlSite(BUILDS.VitePress);
    let links = 0;
    for (const page of built.pages) {
      const file = join(site, page.path === '/' ? 'index.html' : `${page.path.slice(1)}.html`);
      const html = readFileSync(file, 'utf8');
      expect(html).toContain(
        `<title>${page.title === 'Acme Widgets' ? '' : `${page.title} · `}Acme Widgets</title>`,
      );
      // Every link between pages points at a file of the bundle.
      const main = /<main>([\s\S]*)<\/main>/.exec(html)![1]!;
      for (const [, href] of main.matchAll(/href="([^"#:]+)(#[^"]*)?"/g)) {
        links++;
        expect(statSync(join(file, '..', href!), { throwIfNoEntry: false })?.isFile(), href).toBe(
          true,
        );
      }
    }
    expect(links).toBeGreaterThan(0);
    const setup = readFileSync(join(site, 'getting-started.html'), 'utf8');
    expect(setup).toMatch(/npm.*install.*acme-widgets/);
  });
});
