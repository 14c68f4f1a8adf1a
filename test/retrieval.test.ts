import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { createSite, isNavigation, loadDocsSite, parsePage } from '../src/server/site/docs.js';
import { parseHtmlPage } from '../src/server/site/html.js';
import { caseContrasts, createRetriever, memberNames } from '../src/server/answering/retrieval.js';
import {
  askBody,
  demoApp,
  fastifyDocs,
  post,
  readStream,
  sourcesOf,
  textOf,
  userMessage,
} from './helpers/server.js';

/**
 * A small reference site shaped like real ones: one big page of server options (each option a
 * section, many of them mentioning requests, responses and headers in passing), a page of reply
 * methods, and release notes per major version. Written for these tests, not copied from any eval.
 */
const PAGES = {
  'reference/server.md': `# Server

## onSend

A hook that runs just before the response is sent: it may add a header to the response, remove a
response header, or change the payload.

## keepAliveTimeout

How long an idle connection stays open after a response, in milliseconds. Add a few seconds when
a load balancer sits in front.

## maxHeaderSize

The largest request header the server accepts, in bytes. A request with a bigger header gets a
431 response.

## trustProxy

Whether to trust the X-Forwarded-For header of a request that comes through a proxy, which adds the
client's address to it.

## bodyLimit

The largest payload the server reads, in bytes. Default: \`1048576\` (1MiB).
`,
  'reference/reply.md': `# Reply

The reply object is the second argument of every handler. Its methods add to what is sent and can
be chained: add them in any order.

## .code(statusCode)

Sets the status code of the response.

## .header(key, value)

Sets a response header. A value that is omitted becomes an empty string.

## .type(contentType)

Sets the content type of the response; add a charset to it when it is not UTF-8.
`,
  'guides/upgrading-to-v3.md': `# Upgrading to v3

Widget v3 needs Node.js 20 or later; Node.js 18 is no longer supported.
`,
  'guides/benchmarks.md': `# Benchmarks

Run the benchmarks against several Node.js versions to compare them: each Node.js version is
started in turn and its results are printed side by side. Add your own benchmark to the folder.
`,
  'guides/upgrading-to-v2.md': `# Upgrading to v2

Widget v2 needs Node.js 14 or later and adds a plugin API.
`,
};

function app() {
  const pages = Object.entries(PAGES).map(([file, source]) => parsePage(file, source));
  return createApp({
    orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
    sites: [{ domain: DEMO.domain, org: 'o', docs: createSite(pages) }],
  });
}

const firstCited = async (question: string) => {
  const parts = await readStream(await post(app(), askBody(question)));
  return { page: sourcesOf(parts)[0]?.id, text: textOf(parts) };
};

/** A retriever over pages given as file → Markdown source. */
const retrieverOf = (pages: Record<string, string>) =>
  createRetriever(
    createSite(Object.entries(pages).map(([file, source]) => parsePage(file, source))),
  );

describe('reference pages', () => {
  it('answers from the section named after what the question asks about, not from a long options page that mentions it', async () => {
    const { page, text } = await firstCited('How do I add a header to the response?');
    expect(page).toBe('/reference/reply');
    expect(text).toContain('.header(key, value)');
    expect(text).toContain('Sets a response header.');
  });

  it('still answers a question about an option from the options page', async () => {
    const { page, text } = await firstCited(
      'What is the biggest request header the server accepts?',
    );
    expect(page).toBe('/reference/server');
    expect(text).toContain('maxHeaderSize');
  });
});

describe('sizes written the way people write them', () => {
  it('reads "MB", "MiB" and "megabytes" as one unit, also when written next to the number', async () => {
    for (const question of ['Can it read a 5 MB upload?', 'Can it read uploads of 5 megabytes?']) {
      const { page, text } = await firstCited(question);
      expect(page, question).toBe('/reference/server');
      expect(text, question).toContain('bodyLimit');
    }
  });
});

describe('protocols written with their version', () => {
  it('reads "HTTP/2" in the docs as http2, and finds it from the word a reader types', () => {
    const retriever = createRetriever(
      createSite(
        Object.entries({
          'protocols.md':
            '# Protocols\n\n## Newer connections\n\nServe over HTTP/2 when `secure` is on.\n',
          'http.md':
            '# HTTP\n\n## Requests\n\nEvery HTTP request and HTTP response goes through HTTP hooks, 2 at a time.\n',
        }).map(([file, source]) => parsePage(file, source)),
      ),
    );
    for (const question of ['Can it serve http2?', 'Does it speak HTTP/2?']) {
      const { hits } = retriever.search(question, { limit: 3 });
      expect(hits[0]?.section.pagePath, question).toBe('/protocols');
    }
  });
});

describe('words of a list item’s paragraphs and nested items', () => {
  it('finds a word that a list item’s second paragraph or nested item starts with', () => {
    // As Sphinx's field lists (python-pygments-doc): "Name" over "keywordcase" was indexed as
    // "Namekeywordcase", and a nested item's first word ran into its parent's last.
    const retriever = createRetriever(
      createSite(
        Object.entries({
          'filters.md':
            '# Filters\n\n## Keyword case\n\n- Name\n\n  keywordcase\n\n- Options\n  - uppercase keywords\n',
          'styles.md':
            '# Styles\n\n## Choosing a style\n\nA style sets the colours of keywords and names.\n',
        }).map(([file, source]) => parsePage(file, source)),
      ),
    );
    for (const question of ['What is the keywordcase filter?', 'Can it make uppercase keywords?']) {
      const { hits } = retriever.search(question, { limit: 3 });
      expect(hits[0]?.section.pagePath, question).toBe('/filters');
      expect(hits[0]?.terms.join(), question).toMatch(/keywordcas|uppercas/);
    }
  });
});

describe('versions named the way people say them', () => {
  it('reads "Widget 3" as version 3', async () => {
    const { page, text } = await firstCited('Which Node.js version does Widget 3 need?');
    expect(page).toBe('/guides/upgrading-to-v3');
    expect(text).toContain('Node.js 20 or later');
  });

  it('does not read a number after a lower-case word as a version', async () => {
    const { page } = await firstCited('Which Node.js version does it need for 2 workers?');
    expect(page).not.toBe('/guides/upgrading-to-v2');
  });
});

describe('words the docs write differently', () => {
  const site = createSite(
    Object.entries({
      'i18n.md': `# Locales

Pass one of the bundled locales:

\`\`\`js
format(new Date(), 'PPPP', { locale: de })
\`\`\`
`,
      'currency.md': `# Currencies

\`\`\`python
format_currency(1099.98, 'EUR', locale='fr_FR')
\`\`\`
`,
      'options.md': `# Options

## max_retry_count

How often a failed request is tried again before it gives up.
`,
      'install.md': `# Install

Install the package with npm and import it where you format dates.

## Time zones

A date is formatted in the reader's time zone.
`,
    }).map(([file, source]) => parsePage(file, source)),
  );
  const retriever = createRetriever(site);

  it('finds a page that names a locale by its code when the question names the language', () => {
    const { hits } = retriever.search('How do I format a date in German?', { limit: 3 });
    expect(hits[0]?.section.pagePath).toBe('/i18n');
  });

  it('finds a page that names a currency by its code when the question names the currency', () => {
    const { hits } = retriever.search('How do I show a price in euros?', { limit: 3 });
    expect(hits[0]?.section.pagePath).toBe('/currency');
  });

  it('finds a snake_case option from the plain words of its name', () => {
    const { hits } = retriever.search('How do I change the retry count?', { limit: 3 });
    expect(hits[0]?.section.heading).toBe('max_retry_count');
  });

  it('names the words of the question the docs never use, rather than dropping them silently', () => {
    const result = retriever.search('How do I format a date as a zeitstempel?', { limit: 3 });
    expect(result.unknown).toEqual(['zeitstempel']);
  });

  it('does not name a word the docs use as unknown when its stem would shorten again (database)', () => {
    const stored = createRetriever(
      createSite([parsePage('storage.md', '# Storage\n\nThreads are kept in a database.\n')]),
    );
    const result = stored.search('Are threads kept in a database or a zeitstempel?', {
      limit: 3,
    });
    expect(result.unknown).toEqual(['zeitstempel']);
  });

  it('ranks a page that opens by saying it is deprecated below the page that replaces it', () => {
    // As python-pymongo-doc: the deprecated MongoReplicaSetClient's reference, a copy of
    // MongoClient's, was first for seven of a newcomer's twenty questions.
    const entry = (name: string, more = '') =>
      `## ${name}.max_pool_size\n\nThe maximum allowable number of concurrent connections to each connected server. Pass \`maxPoolSize\` to \`${name}\`.${more}\n`;
    const client = retrieverOf({
      'replica_set_client.md': `# Replica set client\n\nDeprecated. See the replica set guide.\n\n${entry('MongoReplicaSetClient', ' Each server has its own pool of connections.')}`,
      'client.md': `# Client\n\nTools for connecting to MongoDB.\n\n${entry('MongoClient')}`,
    });
    const pool = client.search('What is the maximum number of connections to each server?', {
      limit: 3,
    });
    expect(pool.hits[0]?.section.pagePath).toBe('/client');
    // Asked about what is deprecated, the deprecated page is ranked as any other.
    const asked = client.search('Is the replica set client deprecated?', { limit: 3 });
    expect(asked.hits[0]?.section.pagePath).toBe('/replica_set_client');
  });

  it('reads an acronym’s plural as the acronym (IDs: span_id)', () => {
    // As structlog's OpenTelemetry section: the question was told the docs never mention "IDs".
    const traced = retrieverOf({
      'otel.md':
        '# OpenTelemetry\n\nAdd the span to every log entry:\n\n```python\nevent_dict["span_id"] = format(ctx.span_id, "016x")\n```\n',
    });
    const result = traced.search('How do I add span IDs to my logs?', { limit: 3 });
    expect(result.unknown).toEqual([]);
    expect(result.unknownNames).toEqual([]);
  });

  it('reads a snake_case name’s letters and number apart (FORMAT_RFC2822: RFC 2822)', () => {
    // As python-arrow-doc: "the standard ones like RFC 2822" was told the docs never mention them.
    const formats = retrieverOf({
      'formats.md':
        '# Built-in Formats\n\nThere are several formatting standards provided as built-in tokens.\n\n```python\narw.format(arrow.FORMAT_RFC2822)\n```\n',
    });
    const result = formats.search('Which formats are built in, like RFC 2822?', { limit: 3 });
    expect(result.unknown).toEqual([]);
    expect(result.hits[0]?.terms).toEqual(expect.arrayContaining(['rfc', '2822']));
  });

  it('reads any name’s letters and number apart (sha256: SHA-256)', () => {
    // As Node.js's crypto page: `createHash` names its algorithm 'sha256' only, and "a SHA-256
    // hash" was answered from a fingerprint and a webcrypto parameter that spell it "SHA-256".
    const crypto = retrieverOf({
      'hash.md':
        "# Hash\n\n## createHash(algorithm)\n\nCreates a Hash object for the given algorithm.\n\n```js\ncreateHash('sha256').update(text).digest('hex');\n```\n",
      'x509.md':
        '# Certificates\n\n## fingerprint512\n\nThe SHA-512 fingerprint of this certificate, a string of hex pairs.\n',
      'webcrypto.md': '# Web Crypto\n\n## Pbkdf2Params\n\nThe hash: SHA-256, SHA-384 or SHA-512.\n',
    });
    const result = crypto.search('How do I compute a SHA-256 hash of a string?', { limit: 3 });
    expect(result.hits[0]?.section.heading).toBe('createHash(algorithm)');
    expect(result.hits[0]?.terms).toEqual(expect.arrayContaining(['sha', '256']));
  });

  it('reads a word the docs only write as two in a row as those two (whitespace: white space)', () => {
    // As GNU diffutils' manual, which writes "white space" and "white-space", never "whitespace":
    // the question was searched without its subject, and the list of every option came first.
    const diff = retrieverOf({
      'comparison.md':
        '# Comparison\n\n## Suppressing Differences in Blank and Tab Spacing\n\nThe `-b` option ignores changes in the amount of white space. The `-w` option ignores white-space differences entirely.\n\n## Case Folding\n\nThe `-i` option ignores differences in case.\n',
      'options.md':
        '# Options of diff\n\n## Options\n\n- `-i`: ignore case differences in file contents.\n- `-B`: ignore changes whose lines are all blank.\n- `-y`: output in two columns.\n',
      'dump.md': '# Backups\n\n## Saving\n\nA dump of the database, kept by the mongo shell.\n',
    });
    const result = diff.search('How do I make diff ignore whitespace differences?', { limit: 3 });
    expect(result.hits[0]?.section.heading).toBe(
      'Suppressing Differences in Blank and Tab Spacing',
    );
    expect(result.unknown).toEqual([]);
    // Two words the docs use, but never in a row: the word is still one they never use.
    const apart = diff.search('How do I restore a mongodump?', { limit: 3 });
    expect(apart.unknown).toContain('mongodump');
    expect(apart.hits.every((hit) => !hit.terms.includes('mongo'))).toBe(true);
  });

  it('finds a relationship’s kind, though its words are all stop words (many-to-many)', () => {
    // As python-factory-boy-doc's "Simple Many-to-many relationship" and SQLAlchemy's "Many To
    // Many": the question's "many-to-many" was three stop words, and a sessions page came first.
    const orm = retrieverOf({
      'recipes.md':
        '# Recipes\n\n## Simple Many-to-many relationship\n\nBuilding the adequate link between two models depends on the use case.\n\n## Many To One\n\nA foreign key.\n',
      'orms.md':
        '# ORMs\n\n## Managing sessions\n\nSet up the session before the factory runs, and set up each model.\n',
    });
    const result = orm.search('How do I set up a many-to-many relationship?', { limit: 3 });
    expect(result.hits[0]?.section.heading).toBe('Simple Many-to-many relationship');
    expect(result.words).toContain('many-to-many');
    const spaced = orm.search('What about many to many?', { limit: 3 });
    expect(spaced.hits[0]?.section.heading).toBe('Simple Many-to-many relationship');
  });

  it('reads a Latin letter’s accents as the letter (résumé: resume), and no other script’s marks', () => {
    // As python-whoosh-doc's character folding ("resume" and "resumé"): a question that wrote
    // "résumé" found the pages about matched terms instead.
    const folded = retrieverOf({
      'folding.md':
        '# Character folding\n\nSearch for resume and find the documents that say it.\n',
      'kana.md': '# Kana\n\nThe word がっこう is written with marks.\n',
    });
    const accented = folded.search('How do I find a résumé?', { limit: 3 });
    expect(accented.hits[0]?.section.pagePath).toBe('/folding');
    expect(accented.unknown).toEqual([]);
    // A kana's voicing mark is part of the letter: かっこう is another word.
    expect(folded.search('かっこう', { limit: 3 }).unknown).toEqual(['かっこう']);
  });

  it('tells the reader in its reasoning which words found nothing', async () => {
    const parts = await readStream(
      await post(app(), askBody('How do I add a header with a flibbertigibbet?')),
    );
    const reasoning = parts.find((part) => part.type === 'reasoning')?.value;
    expect(reasoning).toContain('The docs never use “flibbertigibbet”');
  });
});

describe('a question that writes one word in two cases', () => {
  // After date-fns's docs, where `YYYY` (week-numbering year) and `yyyy` (calendar year) differ.
  const site = createSite(
    Object.entries({
      'contributing.md': `# Contributing locales

## Formatting localizers

There is a difference between stand-alone and formatting localizers: the difference matters
between languages. A date format such as yyyy-MM-dd is passed through.
`,
      'tokens.md': `# Unicode tokens

## Popular mistakes

- \`YYYY\` is the local week-numbering year, often confused with \`yyyy\`, the calendar year.
- \`D\` is the day of the year, often confused with \`d\`, the day of the month.
`,
    }).map(([file, source]) => parsePage(file, source)),
  );
  const retriever = createRetriever(site);

  it('ranks first a section that shows both spellings, since the question says case matters', () => {
    const { hits } = retriever.search('What is the difference between yyyy and YYYY?', {
      limit: 3,
    });
    expect(hits[0]?.section.heading).toBe('Popular mistakes');
  });

  it('reads the members a question names with a dot, not its files or products', () => {
    expect(
      memberNames('Does CliRunner.invoke catch errors in package.json or Node.js apps?'),
    ).toEqual(['CliRunner.invoke']);
    expect(memberNames('What does reply.code() return, e.g. in app.ts?')).toEqual(['reply.code']);
  });

  it('ranks first the section headed by the member a question names, in its case', () => {
    const site = createSite([
      parsePage(
        'options.md',
        '# Options\n\n## Basic options\n\nAn option accepts parameters: every option accepts a name, a type and a default, and the parameters of an option are checked.\n',
      ),
      parsePage(
        'api.md',
        '# API\n\n## click.Option\n\nThe class of an option.\n\n## click.option(*decls)\n\nAttaches an option to the command.\n',
      ),
    ]);
    const { hits } = createRetriever(site).search('What parameters does click.option accept?', {
      limit: 3,
    });
    expect(hits[0]?.section.heading).toBe('click.option(*decls)');
  });

  it('reads a capital that starts a sentence as no contrast', () => {
    expect(caseContrasts('Install it. How do I install it?')).toEqual([]);
    expect(caseContrasts('yyyy or YYYY, and D or d?')).toEqual(['yyyy', 'YYYY']);
    expect(caseContrasts('What does parseJSON do, and parsejson?')).toEqual([
      'parseJSON',
      'parsejson',
    ]);
  });
});

describe('questions written with contractions', () => {
  // The sample docs' troubleshooting page has "The launcher does not appear"; readers ask "why
  // isn't…". The apostrophe used to split "isn't" into "isn", a word the docs never use.
  it('answers "why isn\u2019t…" from the section about it, rather than refusing it', async () => {
    for (const question of ["Why isn't the launcher shown?", 'Why isn’t the launcher shown?']) {
      const parts = await readStream(await post(await demoApp(), askBody(question)));
      expect(textOf(parts), question).not.toContain("The docs don't cover this.");
      expect(sourcesOf(parts)[0]?.id, question).toBe('/troubleshooting');
      const reasoning = parts.find((part) => part.type === 'reasoning')?.value;
      expect(reasoning, question).not.toContain('“isn”');
    }
  });

  it('searches what a contraction stands for, not its pieces', async () => {
    const retriever = createRetriever(
      createSite([parsePage('threads.md', '# Threads\n\nThe reader’s threads are kept.\n')]),
    );
    const result = retriever.search("Why aren't the reader's threads kept?", { limit: 3 });
    expect(result.words).toEqual(['reader', 'threads', 'kept']);
    expect(result.unknown).toEqual([]);
  });
});

describe('a word that is also its parts (JavaScript: java, script)', () => {
  // Fastify's docs write "JavaScript" on their TypeScript page and nowhere say how to bundle code
  // for a browser. Searched as "java" and "script" at full weight too, the one word counted as three
  // in coverage and the question was answered from the TypeScript page.
  it('refuses a question the docs do not cover rather than answer it from the parts of a word', async () => {
    const app = createApp({
      orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
      sites: [{ domain: DEMO.domain, org: 'o', docs: await fastifyDocs() }],
    });
    const parts = await readStream(
      await post(app, askBody('How do I bundle my JavaScript for the browser?')),
    );
    expect(textOf(parts)).toContain("The docs don't cover this.");
    expect(sourcesOf(parts)).toEqual([]);
  });

  it('still finds an identifier the docs never write whole by its parts', () => {
    const retriever = createRetriever(
      createSite([
        parsePage('options.md', '# Options\n\n## Retry count\n\nHow often a request is tried.\n'),
        parsePage('install.md', '# Install\n\nInstall the package with npm.\n'),
      ]),
    );
    const result = retriever.search('What does retryCount do?', { limit: 3 });
    expect(result.hits[0]?.section.heading).toBe('Retry count');
  });
});

describe('a question longer than the search takes', () => {
  // A reader pastes a long story before the point: 32 distinct terms are searched, and the words
  // past them are named in the reasoning instead of vanishing.
  const story =
    'Our team runs the server behind a load balancer inside containers on three cloud hosts, ' +
    'with nightly deployments, blue green rollouts, canary traffic, structured logging, tracing, ' +
    'metrics dashboards, alerting rules, autoscaling policies and weekly audits. Lately customers ' +
    'complain that idle connections drop after upgrading: which keepAliveTimeout fixes it?';
  const reasoningOf = async (question: string) =>
    (await readStream(await post(app(), askBody(question))))
      .filter((part) => part.type === 'reasoning')
      .map((part) => String(part.value))
      .join('');

  it('tells the reader in its reasoning that it searched only the first words, and names those it left out', async () => {
    const reasoning = await reasoningOf(story);
    expect(reasoning).toContain(
      'The question is long, so I searched only its first 32 words and left out “idle”, “connections”, “drop” and the words after them.',
    );
    // What it names as left out was not searched.
    expect(reasoning.split(' The question is long')[0]).not.toContain('“idle”');
  });

  it('says nothing about left-out words when the whole question was searched', async () => {
    const reasoning = await reasoningOf('How long does an idle connection stay open?');
    expect(reasoning).not.toContain('left out');
    expect(reasoning).not.toContain('The question is long');
  });

  it('names the first three words past the cut, says when more follow, and reads only a bounded stretch past it', () => {
    const retriever = createRetriever(
      createSite(Object.entries(PAGES).map(([file, source]) => parsePage(file, source))),
    );
    // One letter and a number: one term each ("word12" is also word and 12).
    const distinct = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const leftOutOf = (question: string) => retriever.search(question, { limit: 3 }).leftOut;
    expect(leftOutOf(distinct(32))).toEqual({ words: [], more: false });
    expect(leftOutOf(distinct(35))).toEqual({
      words: ['w32', 'w33', 'w34'],
      more: false,
    });
    expect(leftOutOf(distinct(40))).toEqual({
      words: ['w32', 'w33', 'w34'],
      more: true,
    });
    // Past the cut, thousands of words already searched: the search stops reading, and says the
    // rest was left out rather than scan the whole question.
    expect(leftOutOf(`${distinct(32)} ${'w0 '.repeat(5000)} zeppelin`)).toEqual({
      words: [],
      more: true,
    });
  });
});

describe('pages with more than one top-level heading', () => {
  // gyp's Testing.md (node-gyp's gyp/docs) has a second "# …" half-way down; its index used to
  // fail to build (two sections with one id), so the whole site could not be served.
  const page = parsePage(
    'Testing.md',
    '# Testing\n\nHow the tests are laid out.\n\n## Running tests\n\nRun them all with one command.\n\n' +
      '# Specifying the format (build tool) to use\n\nPass the format on the command line.\n',
  );

  it('keeps the later top-level heading as a section of its own that a question finds', () => {
    const site = createSite([page]);
    expect(page.sections.map((section) => section.anchor)).toEqual([
      '',
      'running-tests',
      'specifying-the-format-build-tool-to-use',
    ]);
    const result = createRetriever(site).search('How do I specify the build tool format?', {
      limit: 3,
    });
    expect(result.hits[0]?.section.heading).toBe('Specifying the format (build tool) to use');
  });

  it('keeps text before the title apart from the title’s own section', () => {
    const early = parsePage('Early.md', 'A note first.\n\n# Early\n\nThe page proper.\n');
    expect(() => createRetriever(createSite([early]))).not.toThrow();
    expect(new Set(early.sections.map((section) => section.id)).size).toBe(early.sections.length);
  });
});

describe('pages that all open with the package’s name as their heading', () => {
  // Three pages of mercurius 16.10.1's docs, as its npm package ships them (MIT,
  // test/fixtures/corpus/mercurius/LICENSE): `loaders.md` and `context.md` open with "# mercurius"
  // and nothing under it, then "## Loaders" or "## Context"; `hooks.md` opens with "# Hooks".
  const site = loadDocsSite(resolve(import.meta.dirname, 'fixtures/corpus/mercurius'));

  it('titles each by its first heading, so the sidebar and citations tell them apart', async () => {
    const titles = new Map((await site).pages.map((page) => [page.path, page.title]));
    expect(titles).toEqual(
      new Map([
        ['/context', 'Context'],
        ['/hooks', 'Hooks'],
        ['/loaders', 'Loaders'],
      ]),
    );
    const { hits } = createRetriever(await site).search('How do loaders batch queries?', {
      limit: 3,
    });
    expect(hits[0]?.title).toBe('Loaders');
  });

  it('keeps a title shared with one other page, and one whose next heading is an API entry', () => {
    // As SymPy's docs (Debian's python-sympy-doc): the tensor module's page and its folder's index
    // are both "Tensor"; the page opens on its first API entry, which had become its title.
    const pages = [
      parsePage('tensor/index.md', '# Tensor\n\n* [Tensor](tensor.md)\n* [Array](array.md)\n'),
      parsePage(
        'tensor/tensor.md',
        '# Tensor\n\n#### sympy.tensor.tensor.TensorIndexType\n\nA TensorIndexType is characterized by its name and its metric.\n',
      ),
    ];
    expect(createSite(pages, [], '/docs/sympy').pages.map((page) => page.title)).toEqual([
      'Tensor',
      'Tensor',
    ]);
  });

  it('titles three pages or more that open alike by their first chapter', () => {
    // As gevent's changelogs (Debian's python-gevent-doc): four pages open "# Changelog", then
    // their newest release.
    const pages = ['1.3', '1.4', '1.5'].map((version) =>
      parsePage(
        `changelog_${version.replace('.', '_')}.md`,
        `# Changelog\n\n## ${version}.0\n\nThe release's changes.\n`,
      ),
    );
    expect(createSite(pages, [], '/docs/gevent').pages.map((page) => page.title)).toEqual([
      '1.3.0',
      '1.4.0',
      '1.5.0',
    ]);
  });

  it('keeps a shared title that has text under it', () => {
    const pages = ['a.md', 'b.md'].map((file) =>
      parsePage(file, '# Overview\n\nWhat this part is for.\n\n## Install\n\nRun it.\n'),
    );
    expect(createSite(pages).pages.map((page) => page.title)).toEqual(['Overview', 'Overview']);
  });
});

describe('a table of contents written as a list of links', () => {
  // Shaped like Sphinx's index page (Debian's python-click-doc): one sentence over a toctree that
  // lists every page and its sections, so it held the words of every question.
  const toc = ['Options', 'Arguments', 'Commands', 'Prompts', 'Utilities', 'Testing', 'Changes']
    .map(
      (page) =>
        `* [${page}](${page.toLowerCase()}.html)\n` +
        ['Basics', 'In depth', 'Reference']
          .map((part) => `  * [${page}: ${part}](${page.toLowerCase()}.html#${part})`)
          .join('\n'),
    )
    .join('\n');
  const site = createSite([
    parsePage(
      'index.md',
      `# Welcome\n\n## Documentation\n\nThis part guides you through the library.\n\n${toc}\n`,
    ),
    parsePage(
      'options.md',
      '# Options\n\n## Values from environment variables\n\nAn option can read its value from an environment variable with `envvar`.\n',
    ),
    parsePage(
      'testing.md',
      '# Testing\n\nThere are two ways to test a command:\n\n- [Run it](options.md)\n- [Invoke it in-process](utilities.md)\n',
    ),
  ]);
  const retriever = createRetriever(site);

  it('is never a place an answer shows, since it answers nothing', () => {
    const { hits } = retriever.search('How do options read environment variables in depth?', {
      limit: 5,
    });
    expect(hits.map((hit) => hit.section.pagePath)).toEqual(['/options']);
  });

  it('still shows a lead-in over a few links', () => {
    const { hits } = retriever.search('What are the ways to test a command?', { limit: 5 });
    expect(hits[0]?.section.pagePath).toBe('/testing');
  });
});

describe('a section that only points elsewhere', () => {
  // As Debian's build of pytest's reference: `pytest.raises` holds only "**Tutorial**: [link]", and
  // its title matched questions about raising before the tutorial it links to.
  const site = createSite([
    parsePage(
      'reference.md',
      '# API Reference\n\n## pytest.raises\n\n**Tutorial**: [Assertions about expected exceptions](assert.md#expected-exceptions)\n\n' +
        '## pytest.warns\n\nSee [Asserting warnings](warnings.md).\n\n' +
        '## pytest.approx\n\nAssert that two numbers are equal within a tolerance. See [approx](approx.md).\n',
    ),
    parsePage(
      'assert.md',
      '# How to write assertions\n\n## Expected exceptions\n\nUse `pytest.raises()` as a context manager to check that code raises an exception; `match` checks its message.\n',
    ),
  ]);
  const retriever = createRetriever(site);
  const sectionOf = (heading: string) =>
    site.pages[0]!.sections.find((section) => section.heading === heading)!;

  it('is no place an answer shows; the section it points at is', () => {
    const { hits } = retriever.search('How do I use pytest.raises to check an exception?', {
      limit: 5,
    });
    expect(hits[0]?.section.heading).toBe('Expected exceptions');
    expect(hits.map((hit) => hit.section.heading)).not.toContain('pytest.raises');
    expect(isNavigation(sectionOf('pytest.raises'))).toBe(true);
    expect(isNavigation(sectionOf('pytest.warns'))).toBe(true);
  });

  it('still counts when it says more than where to look', () => {
    expect(isNavigation(sectionOf('pytest.approx'))).toBe(false);
    const { hits } = retriever.search('How do I compare numbers within a tolerance?', { limit: 5 });
    expect(hits[0]?.section.heading).toBe('pytest.approx');
  });
});

describe('hits from docs of few pages', () => {
  // As Beautiful Soup's manual (Debian's python-bs4-doc): one page of 150 sections. Two sections a
  // page left a question about it two places at most, and "Going up" was the third.
  const manual = parsePage(
    'index.md',
    '# Beautiful Soup\n\nBeautiful Soup reads HTML.\n\n' +
      '## find_next()\n\nIterates over the tags and strings that come after an element.\n\n' +
      '## find_previous()\n\nIterates over the tags and strings that come before an element.\n\n' +
      '## Going up\n\nEvery tag has a parent tag that contains it.\n\n' +
      '## .parents\n\nIterates over all of a tag’s parents, the tags that contain it.\n',
  );

  it('are filled from the next sections of the page when the pages are too few', () => {
    const { hits } = createRetriever(createSite([manual])).search(
      'Which tags contain an element?',
      { limit: 5 },
    );
    expect(hits.length).toBeGreaterThan(2);
    expect(hits.map((hit) => hit.section.heading)).toContain('Going up');
    const scores = hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('still name several pages when there are enough of them', () => {
    const other = (name: string) =>
      parsePage(
        `${name}.md`,
        `# ${name}\n\nA tag that contains an element is its parent in ${name}.\n`,
      );
    const site = createSite([manual, other('lxml'), other('html5lib'), other('htmlparser')]);
    const { hits } = createRetriever(site).search('Which tags contain an element?', { limit: 5 });
    expect(hits).toHaveLength(5);
    expect(hits.filter((hit) => hit.section.pagePath === '/').length).toBeLessThanOrEqual(2);
  });
});

describe('a real command reference whose pages are titled by the command alone', () => {
  // Nine pages of npm 10.9.0's docs/content, as its npm package ships them (Artistic License 2.0,
  // test/fixtures/corpus/npm/LICENSE). Each command page is titled with the command's name only
  // (`npm-link`); what it does is in its front matter: `description: Symlink a package folder`.
  const retriever = loadDocsSite(resolve(import.meta.dirname, 'fixtures/corpus/npm')).then(
    createRetriever,
  );
  /** The pages of the best sections, in order: the first three are the places an answer shows. */
  const pagesFor = async (question: string) =>
    (await retriever).search(question, { limit: 5 }).hits.map((hit) => hit.section.pagePath);

  it('finds the command whose description says what the question asks', async () => {
    const pages = await pagesFor('How can I symlink my package folder into another project?');
    expect(pages[0]).toBe('/commands/npm-link');
  });

  it('shows the command among the first three places even when a guide uses the same words', async () => {
    const pages = await pagesFor('How do I remove a package?');
    expect(pages.slice(0, 3)).toContain('/commands/npm-uninstall');
  });

  it('shows an option the reference repeats on each command page once, leaving room for other pages', async () => {
    // `npm-link` and `npm-uninstall` both carry the same `global` section, word for word.
    const { hits } = (await retriever).search('Where do global packages go?', { limit: 5 });
    const places = hits.map((hit) => `${hit.section.pagePath}#${hit.section.anchor}`);
    expect(places.filter((place) => place.endsWith('#global'))).toHaveLength(1);
    expect(places).toHaveLength(5);
  });

  it('answers a follow-up whose own words are a small part of the thread, rather than refusing it', async () => {
    const docs = await loadDocsSite(resolve(import.meta.dirname, 'fixtures/corpus/npm'));
    const app = createApp({
      orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
      sites: [{ domain: DEMO.domain, org: 'o', docs }],
    });
    const parts = await readStream(
      await post(app, {
        fp: 'anonymous',
        messages: [
          userMessage('How do I uninstall a package globally?'),
          userMessage('And does it update the lockfile?'),
        ],
      }),
    );
    expect(textOf(parts)).not.toContain("The docs don't cover this.");
    expect(sourcesOf(parts)[0]?.id).toBe('/commands/npm-uninstall');
  });
});

describe('an API entry documented under two names', () => {
  // As pyparsing's API page (Debian's python-pyparsing-doc): `setDefaultWhitespaceChars` and its
  // alias `set_default_whitespace_chars`, each with the same text, were quoted one after the other.
  const entry = (name: string, text: string) =>
    `<dl class="py method"><dt class="sig sig-object py" id="pyparsing.ParserElement.${name}"><span class="sig-name descname">${name}</span>(<em class="sig-param">chars</em>)</dt><dd><p>${text}</p></dd></dl>`;
  const page = parseHtmlPage(
    'pyparsing.html',
    `<html><body><div role="main"><section id="pyparsing"><h1>pyparsing</h1>
    ${entry('setDefaultWhitespaceChars', 'Overrides the default whitespace chars.')}
    ${entry('set_default_whitespace_chars', 'Overrides the default whitespace chars.')}
    ${entry('set_whitespace_chars', 'Overrides the whitespace chars of this expression alone.')}
    </section></div></body></html>`,
  );

  it('is one hit, at its best name; an entry that says something else is still its own', () => {
    if ('skipped' in page) throw new Error(page.skipped);
    const { hits } = createRetriever(createSite([page])).search(
      'How do I override the default whitespace chars?',
      { limit: 5 },
    );
    const names = hits.map((hit) => hit.section.heading);
    expect(names.filter((name) => /default_?whitespace_?chars$/i.test(name))).toHaveLength(1);
    expect(names).toContain('pyparsing.ParserElement.set_whitespace_chars');
  });
});
