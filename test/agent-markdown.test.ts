import { describe, expect, it } from 'vitest';
import { createSite, parsePage } from '../src/server/site/docs.js';
import { parseHtmlPage } from '../src/server/site/html.js';
import { demoApp, fastifyDocs } from './helpers/server.js';

async function fastifyApp(fullTextMaxBytes?: number) {
  const docs = await fastifyDocs();
  return demoApp({
    orgs: [{ id: 'fastify', plan: 'enterprise', keys: ['svc_dsc_fastify'] }],
    sites: [{ domain: 'fastify', org: 'fastify', docs }],
    ...(fullTextMaxBytes ? { fullTextMaxBytes } : {}),
  });
}

/** The llms.txt of a site of these pages. */
async function llmsTxtOf(...pages: ReturnType<typeof parsePage>[]) {
  const app = await demoApp({
    orgs: [{ id: 'o', plan: 'free', keys: ['svc_dsc_o'] }],
    sites: [{ domain: 'demo', org: 'o', docs: createSite(pages) }],
  });
  return (await app.request('http://test/llms.txt')).text();
}

/** The links of an llms.txt, in order. */
const linksOf = (index: string) =>
  [...index.matchAll(/^- \[[^\]]*\]\(([^)]+)\)/gm)].map((match) => match[1]!);

describe('Markdown for agents on the served site', () => {
  it('lists every page in llms.txt, and every link there is a 200 text/markdown page', async () => {
    const app = await fastifyApp();
    const docs = await fastifyDocs();
    const response = await app.request('http://test/llms.txt');
    expect(response.status).toBe(200);
    const index = await response.text();
    expect(index).toMatch(/^# Fastify/);
    expect(index).toContain('## Guides');
    const links = linksOf(index);
    expect(links).toHaveLength(docs.pages.length);
    for (const link of links) {
      const page = await app.request(link);
      expect(page.status, link).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/markdown/);
    }
    expect(await (await app.request('http://test/.well-known/llms.txt')).text()).toBe(index);
  }, 120_000);

  it("describes a page of members alone by nothing rather than by its first member's text", async () => {
    // As Asciidoctor's RDoc build (Debian's asciidoctor-doc): a class without a description was
    // described by its first attribute ("Public: Get the Array of {AbstractBlock} child blocks…")
    // or an alias line ("Also aliased as: to_s").
    const index = await llmsTxtOf(
      parsePage(
        'AbstractBlock.md',
        '# class AbstractBlock\n\n### Attributes\n\n#### blocks[R]\n\nPublic: Get the Array of child blocks.\n\n' +
          '### Public Instance Methods\n\n#### <<(block)\n\nPublic: Append a content block.\n\n#### find_by(selector = {}) { |block| ... }\n\nPublic: Walk the tree.\n',
      ),
      parsePage(
        'Section.md',
        '# class Section\n\nPublic: Methods for managing sections of AsciiDoc content.\n\n#### generate_id(title)\n\nGenerate an id.\n',
      ),
    );
    expect(index).toContain('- [class AbstractBlock](http://test/docs/AbstractBlock.md)\n');
    expect(index).toContain(
      '- [class Section](http://test/docs/Section.md): Public: Methods for managing sections of AsciiDoc content.\n',
    );
  });

  it('writes the tags a title or description shows as text as text, not as HTML', async () => {
    // As json-c's Doxygen build, whose README headings print their HTML as text: an agent's
    // renderer that allows HTML opened a real <a> from "Linking to <tt>libjson-c</tt> <a name=…>".
    const index = await llmsTxtOf(
      parsePage(
        'linking.md',
        '# Linking to &lt;tt&gt;libjson-c&lt;/tt&gt; &lt;a name="linking"&gt;\n\nBuild with `-ljson-c`: it links with &lt;b&gt;cmake&lt;/b&gt; too, as long as 1 < 2.\n',
      ),
    );
    expect(index).toContain(
      '- [Linking to \\<tt>libjson-c\\</tt> \\<a name="linking">](http://test/docs/linking.md): Build with -ljson-c: it links with \\<b>cmake\\</b> too, as long as 1 < 2.\n',
    );
  });

  it('names a group of pages after its folder in words (Sphinx builds use snake_case folders)', async () => {
    const index = await llmsTxtOf(
      parsePage('the_black_code_style/current_style.md', '# The code style\n\nLines stay short.\n'),
    );
    expect(index).toContain('## The black code style\n');
  });

  it('describes a page in llms.txt by its first whole sentence, not cut after "e.g."', async () => {
    // As marshmallow's nesting page, which llms.txt described as "… between objects (e.g.".
    const index = await llmsTxtOf(
      parsePage(
        'nesting.md',
        '# Nesting Schemas\n\nSchemas can be nested to represent relationships between objects (e.g. foreign key relationships). For example, a Blog may have an author.\n',
      ),
    );
    expect(index).toContain(
      '): Schemas can be nested to represent relationships between objects (e.g. foreign key relationships).\n',
    );
  });

  it('describes a page in llms.txt by a sentence, not by a version note it opens with', async () => {
    // As python-tornado-doc's locks page, which llms.txt described as "New in version 4.2.".
    const index = await llmsTxtOf(
      parsePage(
        'locks.md',
        '# Synchronization primitives\n\nNew in version 4.2.\n\nCoordinate coroutines with synchronization primitives analogous to those the standard library provides to threads.\n',
      ),
    );
    expect(index).toContain('): Coordinate coroutines with synchronization primitives analogous');
    // And the site's summary: python-requests-doc's home page opens with "Release v2.28.1.".
    const home = await llmsTxtOf(
      parsePage(
        'index.md',
        '# Requests: HTTP for Humans\n\nRelease v2.28.1.\n\nRequests is an elegant and simple HTTP library for Python, built for human beings.\n',
      ),
    );
    expect(home).toContain('\n> Requests is an elegant and simple HTTP library for Python');
  });

  it('describes a page in llms.txt by a sentence, not by the label over its contents', async () => {
    // As python-flask-doc's tutorial, which llms.txt described as "Contents:".
    const index = await llmsTxtOf(
      parsePage(
        'tutorial.md',
        '# Tutorial\n\nContents:\n\n- [Project Layout](./layout.md)\n- [Application Setup](./factory.md)\n\n' +
          'This tutorial will walk you through creating a basic blog application called Flaskr. Users will be able to register.\n',
      ),
    );
    expect(index).toContain(
      '): This tutorial will walk you through creating a basic blog application called Flaskr.\n',
    );
  });

  it('describes a page in llms.txt by its prose, not by an API signature it opens with', async () => {
    // As python-werkzeug-doc's middleware pages, which open with their class's entry.
    const index = await llmsTxtOf(
      parsePage(
        'shared_data.md',
        '# Serve Shared Static Files\n\n#### werkzeug.middleware.shared_data.SharedDataMiddleware\n\n' +
          '`class werkzeug.middleware.shared_data.SharedDataMiddleware(app, exports, disallow=None)`\n\n' +
          'A WSGI middleware which provides static content for development environments. Its usage is quite simple.\n',
      ),
    );
    expect(index).toContain(
      '): A WSGI middleware which provides static content for development environments.\n',
    );
  });

  it('describes a page in llms.txt by prose, not by an author line, a rubric, an admonition, a word or two or its title', async () => {
    // As Debian's sphinx-doc and python-pytest-doc: extensions described as "Module author: Georg
    // Brandl", the Builder API as "Todo: Expand this.", the contents page as "Get started", the
    // fixtures guide as "See also: About fixtures", the sphinx-quickstart page by its own name.
    const index = await llmsTxtOf(
      parsePage(
        'extlinks.md',
        '# extlinks\n\n*Module author: Georg Brandl*\n\nThis extension shortens links that point to one site.\n',
      ),
      parsePage(
        'builders.md',
        '# Builder API\n\n**Todo:** Expand this.\n\n**Attributes**\n\nThis is the base class for all builders.\n',
      ),
      parsePage('contents.md', '# Contents\n\nGet started\n\nThe pages of this site, in order.\n'),
      parsePage(
        'fixtures.md',
        '# How to use fixtures\n\n**See also:** About fixtures\n\nTest functions request fixtures by naming them as arguments.\n',
      ),
      parsePage(
        'quickstart.md',
        '# quickstart\n\nquickstart\n\nquickstart asks some questions about your project and writes a docs folder.\n',
      ),
      // Two words that make a sentence stay: Celery's modules are described by such.
      parsePage('backends.md', '# celery.app.backends\n\nBackend selection.\n\nMore text.\n'),
    );
    expect(index).toContain(
      'extlinks.md): This extension shortens links that point to one site.\n',
    );
    expect(index).toContain('builders.md): This is the base class for all builders.\n');
    expect(index).toContain('contents.md): The pages of this site, in order.\n');
    expect(index).toContain(
      'fixtures.md): Test functions request fixtures by naming them as arguments.\n',
    );
    expect(index).toContain('quickstart.md): quickstart asks some questions about your project');
    expect(index).toContain('backends.md): Backend selection.');
  });

  it('describes a page in llms.txt by the page, not by a release’s entry or an FAQ’s answer, whole sentences and a lead-in as one', async () => {
    // As the Debian builds of structlog ("You can install structlog from PyPI using pip:", "Release
    // 22.3.0 (What's new?)"), factory_boy (its changelog by an old release's note) and kombu (its
    // FAQ by "Answer: Earlier versions of RabbitMQ…").
    const index = await llmsTxtOf(
      parsePage(
        'index.md',
        '# structlog\n\nRelease 22.3.0 ([What’s new?](./changelog.md))\n\nstructlog makes logging in Python faster, less painful, and more powerful.\n',
      ),
      parsePage(
        'getting-started.md',
        '# Getting Started\n\nYou can install structlog from PyPI using pip:\n\n```\npip install structlog\n```\n',
      ),
      // A lead-in that is half a sentence is passed over (python-cmd2-doc's "cmd2 allows a
      // developer to:").
      parsePage(
        'disable.md',
        '# Disabling Commands\n\ncmd2 allows a developer to:\n\n- remove commands\n- hide commands\n\nHidden commands are still run.\n',
      ),
      // And so is one that ends on "when:" (python-greenlet-doc's "Switches between greenlets
      // occur when:", described as "Switches between greenlets occur when.").
      parsePage(
        'switching.md',
        '# Switching\n\nSwitches between greenlets occur when:\n\n- a greenlet switches\n- a greenlet dies\n\nDuring a switch, an object is sent to the target greenlet.\n',
      ),
      parsePage(
        'changelog.md',
        '# Changelog\n\n## 2.1.0 (2018-05-05)\n\n- Add support for Django 2.0.\n\n## 2.0.0 (2013-04-15)\n\nThis version brings massive changes to the core engine.\n',
      ),
      parsePage(
        'faq.md',
        '# FAQ\n\n## Q: Message.reject doesn’t work?\n\n**Answer**: Earlier versions of RabbitMQ did not implement it.\n\n## Q: Message.requeue doesn’t work?\n\nThe same.\n\n' +
          // A question asked without its "?" (python-pymongo-doc's) is one too.
          '## When I query by ObjectId I get no result\n\nYour web framework will pass the ObjectId as a string.\n',
      ),
      // A page about one question is described by its answer.
      parsePage(
        'why.md',
        '# Why structlog?\n\n## Why structlog?\n\nBecause structured logs are easy to parse.\n',
      ),
      parsePage('long.md', `# Long\n\n${'word '.repeat(40)}ends here.\n`),
      // Release notes whose releases are headed by the project's name (python-scrapy-doc), and a
      // home page that opens on a label and a link (python-typer-doc).
      parsePage(
        'news.md',
        '# Release notes\n\n## Scrapy 2.8.0 (2023-02-02)\n\nThis is a maintenance release, with minor features.\n',
      ),
      // A page about one release is described by its opening (Celery's "What's new" pages).
      parsePage(
        'whatsnew-5.2.md',
        '# What’s new in Celery 5.2\n\nCelery is a simple, flexible, and reliable task queue.\n\n## Celery 5.2 highlights\n\nFaster.\n',
      ),
      parsePage(
        'typer.md',
        '# Typer\n\n**Source Code**: <https://github.com/tiangolo/typer>\n\nTyper is a library for building CLI applications.\n',
      ),
      // A sentence ends before a name in lower case: cut there, not after it (python-cattrs-doc's
      // "…the data you want out.…").
      parsePage(
        'structuring.md',
        '# Structuring\n\nThe philosophy of `cattrs` structuring is simple: give it built-in types and collections, and a type describing the data you want out. `cattrs` will convert the input data.\n',
      ),
      // Not cut at a name's initial (python-hypothesis-doc: "… managed by David R.").
      parsePage(
        'development.md',
        '# Development\n\nHypothesis development is managed by David R. MacIver. Others help.\n',
      ),
    );
    expect(index).toContain(
      '\n> structlog makes logging in Python faster, less painful, and more powerful.\n',
    );
    expect(index).toContain(
      'getting-started.md): You can install structlog from PyPI using pip.\n',
    );
    expect(index).toContain('disable.md): Hidden commands are still run.\n');
    expect(index).toContain(
      'switching.md): During a switch, an object is sent to the target greenlet.\n',
    );
    expect(index).toMatch(/changelog\.md\)\n/);
    expect(index).toMatch(/faq\.md\)\n/);
    expect(index).toContain('why.md): Because structured logs are easy to parse.\n');
    expect(index).toContain(`long.md): ${'word '.repeat(30)}word…\n`);
    expect(index).toMatch(/news\.md\)\n/);
    expect(index).toContain(
      'whatsnew-5.2.md): Celery is a simple, flexible, and reliable task queue.',
    );
    expect(index).toContain('typer.md): Typer is a library for building CLI applications.\n');
    expect(index).toContain(
      'structuring.md): The philosophy of cattrs structuring is simple: give it built-in types and collections, and a type describing the data you want out.\n',
    );
    expect(index).toContain(
      'development.md): Hypothesis development is managed by David R. MacIver.\n',
    );
  });

  it('describes a page in llms.txt by a class it opens with, not by a function, nor by a placeholder', async () => {
    // As the Debian builds of structlog (its API reference as `get_logger`'s "Convenience function
    // that returns a logger according to configuration."), werkzeug (a middleware's page by its
    // class) and Whoosh ("TBD.").
    const entry = (kind: string, name: string, text: string) =>
      `<dl class="py ${kind}"><dt class="sig sig-object py" id="${name}"><em class="property"><span class="pre">${kind}</span><span class="w"> </span></em><span class="sig-name descname"><span class="pre">${name}</span></span></dt><dd><p>${text}</p></dd></dl>`;
    const built = (file: string, body: string) => {
      const page = parseHtmlPage(file, `<div role="main">${body}</div>`);
      if ('skipped' in page) throw new Error(page.skipped);
      return page;
    };
    const index = await llmsTxtOf(
      built(
        'api.html',
        '<section id="api"><h1>API Reference</h1>' +
          entry('function', 'structlog.get_logger', 'Convenience function that returns a logger.') +
          '</section>',
      ),
      built(
        'shared_data.html',
        '<section id="shared"><h1>Serve Shared Static Files</h1>' +
          entry(
            'class',
            'werkzeug.SharedDataMiddleware',
            'A WSGI middleware which provides static content.',
          ) +
          '</section>',
      ),
      parsePage('filedb.md', '# filedb notes\n\nTBD.\n'),
      // Nor by a stability note (Node.js's pages open on one).
      parsePage(
        'fs.md',
        '# File system\n\n> Stability: 2 - Stable\n\nThe fs module enables interacting with the file system.\n',
      ),
      // A page of one function, titled by it, is about it (Dask's 910 autosummary stubs had none).
      built(
        'generated/dask.array.Array.all.html',
        '<section id="all"><h1>dask.array.Array.all</h1>' +
          entry(
            'method',
            'dask.array.Array.all',
            'Returns True if all elements evaluate to True.',
          ) +
          '</section>',
      ),
      // A page of its title alone is not listed (cmd2's API pages in Debian's build, where autodoc
      // found no module).
      parsePage('ansi.md', '# cmd2.ansi\n'),
      // Nor by an exception (lxml's `formfill` module was "Raised when no form can be found").
      built(
        'formfill.html',
        '<section id="formfill"><h1>lxml.html.formfill module</h1>' +
          entry(
            'exception',
            'lxml.html.formfill.FormNotFound',
            'Raised when no form can be found',
          ) +
          entry('function', 'lxml.html.formfill.fill_form', 'Fill a form.') +
          '</section>',
      ),
      // sphinx-apidoc's package page: its submodules' text is not the package's (cattrs'
      // `preconf` was "Preconfigured converters for bson.").
      built(
        'preconf.html',
        '<section id="preconf"><h1>cattrs.preconf package</h1><section id="submodules"><h2>Submodules</h2></section>' +
          '<section id="bson"><h2>cattrs.preconf.bson module</h2><p>Preconfigured converters for bson.</p></section>' +
          '<section id="contents"><h2>Module contents</h2><p>Converters set up for common formats.</p></section></section>',
      ),
    );
    expect(index).toMatch(/formfill\.md\)\n/);
    expect(index).not.toContain('ansi.md');
    expect(index).toContain('preconf.md): Converters set up for common formats.\n');
    expect(index).toMatch(/api\.md\)\n/);
    expect(index).toContain('shared_data.md): A WSGI middleware which provides static content.\n');
    expect(index).toMatch(/filedb\.md\)\n/);
    expect(index).toContain(
      'dask.array.Array.all.md): Returns True if all elements evaluate to True.\n',
    );
    expect(index).toContain('fs.md): The fs module enables interacting with the file system.\n');
  });

  it('describes a page in llms.txt by the one-paragraph quote it opens with', async () => {
    // As sphinx-doc's home page, described as "Here are some of Sphinx's major features:".
    const home = await llmsTxtOf(
      parsePage(
        'index.md',
        '# Welcome\n\n> Sphinx makes it easy to create intelligent and beautiful documentation.\n\nHere are some of its major features:\n\n- Output formats\n- Cross-references\n',
      ),
      // One of several paragraphs is not: its text runs them together ("objects.Tornado").
      parsePage(
        'concurrent.md',
        '# tornado.concurrent\n\n> Utilities for working with Future objects.\n>\n> Tornado now uses asyncio.\n\nFuture is an alias for asyncio.Future.\n',
      ),
    );
    expect(home).toContain(
      'index.md): Sphinx makes it easy to create intelligent and beautiful documentation.\n',
    );
    expect(home).toContain('concurrent.md): Future is an alias for asyncio.Future.');
  });

  it('titles a page once when it opens on a lower heading of its title', async () => {
    // As nodejs-doc: each page opens on "## Buffer" (its `<title>` is "Buffer | Node.js …"), and
    // its Markdown read "# Buffer" then "## Buffer".
    const page = parseHtmlPage(
      'buffer.html',
      '<html><head><title>Buffer | Node.js v18.20.4 Documentation</title></head><body><div id="apicontent"><section><h2>Buffer</h2><p>Bytes of fixed length.</p><h3>Buffers and character encodings</h3><p>UTF-8 by default.</p></section></div></body></html>',
    );
    if ('skipped' in page) throw new Error(page.skipped);
    const app = await demoApp({
      orgs: [{ id: 'o', plan: 'free', keys: ['svc_dsc_o'] }],
      sites: [{ domain: 'demo', org: 'o', docs: createSite([page]) }],
    });
    const markdown = await (await app.request('http://test/docs/buffer.md')).text();
    expect(markdown).toMatch(
      /^# Buffer\n\nBytes of fixed length\.\n\n### Buffers and character encodings/,
    );
  });

  it('serves a page at its URL plus .md with links resolved to the site and no front matter', async () => {
    const app = await fastifyApp();
    const page = await (await app.request('http://test/docs/Guides/Getting-Started.md')).text();
    expect(page).toContain('](http://test/docs/Reference/Routes)');
    expect(page).toContain('](http://test/docs/Reference/Plugins#handle-the-scope)');
    expect(page).not.toContain('](../Reference');
    expect(page).toContain('Source: http://test/docs/Guides/Getting-Started');
    expect(page).not.toMatch(/^---\n/);
  });

  it('keeps the blank lines inside code in a page’s .md, and runs of them outside as one', async () => {
    // As pytest's tmp_path page: two blank lines between a constant and a function (PEP 8).
    const docs = createSite([
      parsePage(
        'tmp.md',
        '# tmp_path\n\nUse it:\n\n\n\nIn a test:\n\n```python\nCONTENT = "content"\n\n\ndef test_create_file(tmp_path):\n    pass\n```\n\n~~~\na\n\n\nb\n~~~\n',
      ),
    ]);
    const app = await demoApp({
      orgs: [{ id: 'o', plan: 'free', keys: ['svc_dsc_o'] }],
      sites: [{ domain: 'demo', org: 'o', docs }],
    });
    const page = await (await app.request('http://test/docs/tmp.md')).text();
    expect(page).toContain('```python\nCONTENT = "content"\n\n\ndef test_create_file(tmp_path):');
    expect(page).toContain('~~~\na\n\n\nb\n~~~');
    expect(page).toContain('Use it:\n\nIn a test:');
  });

  it('advertises the Markdown on every HTML page with a link element and a Link header', async () => {
    const app = await fastifyApp();
    const response = await app.request('http://test/docs/Guides/Getting-Started');
    expect(response.headers.get('link')).toContain(
      '<http://test/docs/Guides/Getting-Started.md>; rel="alternate"; type="text/markdown"',
    );
    expect(response.headers.get('link')).toContain('<http://test/llms.txt>; rel="llms-txt"');
    expect(await response.text()).toContain(
      '<link rel="alternate" type="text/markdown" href="http://test/docs/Guides/Getting-Started.md"',
    );
  });

  it('streams every page into llms-full.txt in sidebar order', async () => {
    const app = await fastifyApp();
    const full = await (await app.request('http://test/llms-full.txt')).text();
    const docs = await fastifyDocs();
    for (const page of docs.pages)
      expect(full).toContain(`Source: http://test/docs${page.path === '/' ? '' : page.path}\n`);
    expect(full.indexOf('Source: http://test/docs\n')).toBeLessThan(
      full.indexOf('Source: http://test/docs/Guides/Getting-Started\n'),
    );
  });

  it('splits llms-full.txt by section above the size cap, and the index points at the parts', async () => {
    const app = await fastifyApp(10_000);
    const index = await (await app.request('http://test/llms.txt')).text();
    const parts = [...index.matchAll(/http:\/\/test\/(llms-full-\d+\.txt) \(([^)]+)\)/g)];
    expect(parts.map((part) => part[2])).toEqual(expect.arrayContaining(['Guides', 'Reference']));
    const guides = parts.find((part) => part[2] === 'Guides')![1]!;
    const text = await (await app.request(`http://test/${guides}`)).text();
    expect(text).toContain('Source: http://test/docs/Guides/Getting-Started');
    expect(text).not.toContain('Source: http://test/docs/Reference/Routes');
    expect((await app.request('http://test/llms-full.txt')).status).toBe(404);
  });

  it('reduces MDX components to their text and drops script links', async () => {
    const docs = createSite([
      parsePage(
        'index.mdx',
        [
          '---',
          'title: Home',
          '---',
          "import { Tabs } from './tabs'",
          '',
          '# Home',
          '',
          '<Tabs>',
          '<Tab label="npm">Install with npm.</Tab>',
          '</Tabs>',
          '',
          'Read [the guide](./guide.md#setup) or [this](javascript:alert(1)).',
          '',
          '![The *architecture*](javascript:alert(2))',
          '',
          'Sponsors: [![](javascript:alert(3)) ](https://example.com/sponsor)',
        ].join('\n'),
      ),
      parsePage('guide.md', '# Guide\n\n## Setup\n\nText.'),
    ]);
    const app = await demoApp({
      sites: [{ domain: 'demo', org: 'demo', docs }],
    });
    const page = await (await app.request('http://test/docs/index.md')).text();
    expect(page).toContain('Install with npm.');
    expect(page).not.toMatch(/<\/?Tabs?/);
    expect(page).not.toContain('import {');
    expect(page).toContain('[the guide](http://test/docs/guide#setup)');
    expect(page).not.toContain('javascript:');
    expect(page).toContain('this');
    // An image that leads nowhere (a script URL; in a build, a file it does not hold) is its words.
    expect(page).toContain('\nThe architecture\n');
    expect(page).not.toContain('![');
    // A link around such images and nothing else goes whole (attrs' sponsors read "[ ](…)").
    expect(page).toMatch(/\nSponsors:\n/);
  });
});

describe("Markdown for agents with the site's own page URLs", () => {
  const docs = () =>
    createSite([
      parsePage('index.md', '# Acme\n\nAcme makes rockets. See [setup](./guides/setup.md).'),
      parsePage(
        'guides/setup.md',
        '# Setup\n\nFuel the rocket, then read [the API](../reference/api.md#launch).\n\n![plan](../img/plan.png)',
      ),
      parsePage('reference/api.md', '# API\n\n## Launch\n\nCall launch().'),
    ]);
  const vitepressApp = async (publicUrl: { site?: string; server?: string }) =>
    demoApp({
      orgs: [{ id: 'acme', plan: 'enterprise', keys: ['svc_dsc_acme'] }],
      sites: [
        {
          domain: 'acme',
          org: 'acme',
          docs: docs(),
          pageUrls: { style: 'vitepress' },
          openToAgents: true,
          ...(publicUrl.site ? { publicUrl: publicUrl.site } : {}),
        },
      ],
      ...(publicUrl.server ? { publicUrl: publicUrl.server } : {}),
    });

  it('points Source lines and page links at the URLs the site publishes, and llms.txt at Markdown this server serves', async () => {
    for (const publicUrl of [
      { site: 'https://acme.dev/guide', server: 'https://assistant.acme.dev' },
      // `serve --public-url https://acme.dev/guide --url-style vitepress`: one URL, the docs' root.
      { server: 'https://acme.dev/guide' },
    ]) {
      const app = await vitepressApp(publicUrl);
      const own = publicUrl.site ? 'https://assistant.acme.dev' : 'http://test';
      const index = await (await app.request('http://test/llms.txt')).text();
      const links = linksOf(index);
      expect(links).toEqual([
        `${own}/docs/index.md`,
        `${own}/docs/guides/setup.md`,
        `${own}/docs/reference/api.md`,
      ]);
      for (const link of links) {
        const response = await app.request(link.replace(own, 'http://test'));
        expect(response.status, link).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
      }
      const setup = await (await app.request('http://test/docs/guides/setup.md')).text();
      expect(setup).toContain('Source: https://acme.dev/guide/guides/setup.html');
      expect(setup).toContain('[the API](https://acme.dev/guide/reference/api.html#launch)');
      expect(setup).toContain('![plan](https://acme.dev/guide/img/plan.png)');
      const html = await app.request('http://test/docs/guides/setup');
      expect(html.headers.get('link')).toContain(`<${own}/docs/guides/setup.md>; rel="alternate"`);
      expect(html.headers.get('link')).toContain(`<${own}/llms.txt>; rel="llms-txt"`);
    }
  });

  it("gives agents the site's own URLs in search hits and finds a page by its public URL", async () => {
    const app = await vitepressApp({ site: 'https://acme.dev/guide' });
    const post = (path: string, body: unknown) =>
      app.request(`http://test/discovery/v1/${path}/acme`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const hits = await (await post('search', { query: 'launch' })).json();
    expect(hits[0].metadata.url).toBe('https://acme.dev/guide/reference/api.html#launch');
    for (const url of [
      'https://acme.dev/guide/reference/api.html',
      'http://test/docs/reference/api.md',
      '/reference/api',
    ]) {
      const page = await post('page', { path: url });
      expect(page.status, url).toBe(200);
      expect((await page.json()).path).toBe('/reference/api');
    }
    expect(
      (await post('page', { path: 'https://elsewhere.dev/guide/reference/api.html' })).status,
    ).toBe(404);
  });
});
