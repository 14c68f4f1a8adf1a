import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { loadHtmlSite } from '../src/server/site/html.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { diskPageStore } from '../src/server/site/page-cache.js';
import { diskIndexStore } from '../src/server/answering/index-cache.js';
import { createRetriever, type Retriever } from '../src/server/answering/retrieval.js';
import type { DocsSite } from '../src/server/site/docs.js';
import { siteReader } from '../src/server/site/watch.js';
import { captureIo } from './helpers/cli.js';
import { plainPage } from './helpers/sites.js';
import {
  askBody,
  FASTIFY_DOCS_DIR,
  FIXTURE_DOCS_DIR,
  readStream,
  sourcesOf,
  tempDir,
  textOf,
} from './helpers/server.js';

const KEY = 'svc_dsc_warm';
const CACHE_LINE =
  /Cache [^\n]*: (\d+) pages? reused, (\d+) parsed; index (reused|updated|built)\./;

/** `serve` on `args` with the data folder `data`, until it runs: its cache line, and a way to ask. */
async function start(args: string[], data: string) {
  const run = captureIo({ DOCS_ASSISTANT_SERVER_KEYS: KEY });
  const exit = runCli(
    ['serve', ...args, '--domain', 'acme', '--port', '0', '--data', data],
    run.io,
  );
  const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
  const [, reused, parsed, index] = run.out.match(CACHE_LINE) ?? [];
  return {
    run,
    cache: { reused: Number(reused), parsed: Number(parsed), index },
    ask: async (question: string) =>
      readStream(
        await fetch(`${url}/discovery/v1/assistant/acme/message`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` },
          body: JSON.stringify(askBody(question)),
        }),
      ),
    page: async (path: string) => (await fetch(`${url}/docs${path}`)).text(),
    stop: async () => {
      run.interrupt();
      expect(await exit).toBe(0);
    },
  };
}

/** An answer's text without the server's origin (each start listens on another port). */
const answerText = (parts: Awaited<ReturnType<typeof readStream>>) =>
  textOf(parts).replace(/http:\/\/127\.0\.0\.1:\d+/g, '');

/** A copy of the sample docs, so a test may edit it. */
async function sampleCopy(): Promise<{ dir: string; pages: number }> {
  const dir = await tempDir();
  await cp(FIXTURE_DOCS_DIR, dir, { recursive: true });
  return { dir, pages: (await loadDocsSite(dir)).pages.length };
}

/**
 * A copy of the sample docs served once from a new data folder (which then holds its kept pages
 * and index), and that server's answer to a question.
 */
async function answeredOnce() {
  const { dir, pages } = await sampleCopy();
  const data = await tempDir();
  const question = 'How do I install the package?';
  const first = await start(['--docs', dir], data);
  const answer = await first.ask(question);
  await first.stop();
  return { dir, pages, data, question, answer };
}

/** The page lines of a page cache file: the lines after its header, as many as it says it holds. */
async function pageLines(file: string): Promise<string[]> {
  const [header, ...lines] = (await readFile(file, 'utf8')).split('\n');
  return lines.slice(0, (JSON.parse(header!) as { pages: number }).pages);
}

/** Overwrites the kept body of the page `page` with spaces, leaving its file's header and page lines intact. */
async function damageBody(cacheDir: string, page: string) {
  const pageFiles = (await filesUnder(cacheDir)).filter((f) => /[\\/]pages[\\/]/.test(f));
  let damaged = '';
  for (const file of pageFiles) {
    const text = await readFile(file);
    const lines = await pageLines(file);
    const line = lines.find((l) => (JSON.parse(l) as [string])[0] === page);
    if (!line) continue;
    const [, , , at, length] = JSON.parse(line) as [string, string, unknown, number, number];
    const start =
      text.indexOf(10) + 1 + lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
    text.fill(' ', start + at, start + at + length);
    await writeFile(file, text);
    damaged = file;
  }
  expect(damaged, `${page} kept under ${cacheDir}`).not.toBe('');
}

/** The folder-relative files of the pages kept under `data`: the first field of each page line. */
async function keptPages(data: string): Promise<string[]> {
  const files = (await filesUnder(join(data, 'cache'))).filter((f) => /[\\/]pages[\\/]/.test(f));
  const lines = await Promise.all(files.map(pageLines));
  return lines.flat().map((line) => (JSON.parse(line) as [string])[0]);
}

/** Every file under `dir`, recursively, relative to it. */
const filesUnder = async (dir: string) =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

describe('serve keeps parsed pages and the index in its data folder', () => {
  it('parses nothing and builds no index when started again on unchanged pages, and answers the same', async () => {
    const { dir, pages } = await sampleCopy();
    const data = await tempDir();
    const question = 'How do I install the package?';

    const first = await start(['--docs', dir], data);
    expect(first.cache).toEqual({ reused: 0, parsed: pages, index: 'built' });
    const answer = await first.ask(question);
    await first.stop();

    const second = await start(['--docs', dir], data);
    try {
      expect(second.cache).toEqual({ reused: pages, parsed: 0, index: 'reused' });
      const again = await second.ask(question);
      expect(answerText(again)).toBe(answerText(answer));
      expect(sourcesOf(again).map((s) => s.title)).toEqual(sourcesOf(answer).map((s) => s.title));
    } finally {
      await second.stop();
    }
  });

  it('parses an edited and an added page alone, drops a removed one, updates the index, and answers from the new text', async () => {
    const { dir, pages } = await sampleCopy();
    const data = await tempDir();
    await (await start(['--docs', dir], data)).stop();

    const install = join(dir, 'installation.md');
    await writeFile(
      install,
      (await readFile(install, 'utf8')) +
        '\n## Offline mirrors\n\nInstall from an offline mirror with npm install --registry http://mirror.internal.\n',
    );
    await writeFile(
      join(dir, 'themes.md'),
      '# Themes\n\nThe widget takes a dark or light theme.\n',
    );
    await rm(join(dir, 'troubleshooting.md'));

    const server = await start(['--docs', dir], data);
    try {
      expect(server.cache).toEqual({ reused: pages - 2, parsed: 2, index: 'updated' });
      expect(textOf(await server.ask('How do I install from an offline mirror?'))).toContain(
        'mirror.internal',
      );
      // The updated index answers as one built from scratch on these pages.
      const built = await start(['--docs', dir, '--port', '0'], await tempDir());
      try {
        expect(built.cache.index).toBe('built');
        for (const question of [
          'How do I install from an offline mirror?',
          'Which theme does the widget take?',
          'How do I install the package?',
          'Can I use it with React?',
        ])
          expect(answerText(await server.ask(question)), question).toBe(
            answerText(await built.ask(question)),
          );
      } finally {
        await built.stop();
      }
      expect(sourcesOf(await server.ask('Which theme does the widget take?'))[0]?.url).toMatch(
        /\/themes$/,
      );
      expect(
        sourcesOf(await server.ask('troubleshooting')).map((source) => source.url),
      ).not.toContainEqual(expect.stringMatching(/\/troubleshooting$/));
    } finally {
      await server.stop();
    }
    // The removed page went from the kept files: they hold each served page once, and no other.
    const kept = await keptPages(data);
    expect(kept).toHaveLength(pages);
    expect(kept).toContain('themes.md');
    expect(kept).not.toContain('troubleshooting.md');
    const third = await start(['--docs', dir], data);
    expect(third.cache).toEqual({ reused: pages, parsed: 0, index: 'reused' });
    await third.stop();
  });

  it('survives a damaged page cache file and a damaged index: says so, parses that page again and rebuilds', async () => {
    const { dir, pages, data, question, answer } = await answeredOnce();

    const files = await filesUnder(join(data, 'cache'));
    const pageFile = files.find((file) => /[\\/]pages[\\/]/.test(file))!;
    const indexFile = files.find((file) => /[\\/]index[\\/]/.test(file))!;
    // The pages kept in that file are the ones parsed again.
    const held = (await pageLines(pageFile)).length;
    expect(held).toBeGreaterThan(0);
    await writeFile(pageFile, '{"version": "v1-');
    const index = await readFile(indexFile, 'utf8');
    await writeFile(indexFile, index.slice(0, index.length / 2));

    const second = await start(['--docs', dir], data);
    try {
      expect(second.cache).toEqual({ reused: pages - held, parsed: held, index: 'built' });
      expect(second.run.err).toMatch(
        /Ignored 1 unreadable page cache file .*parsed its pages again/,
      );
      expect(second.run.err).toMatch(/Ignored the index cache .*built it again/);
      expect(answerText(await second.ask(question))).toBe(answerText(answer));
    } finally {
      await second.stop();
    }
    const third = await start(['--docs', dir], data);
    expect(third.cache).toEqual({ reused: pages, parsed: 0, index: 'reused' });
    expect(third.run.err).not.toMatch(/Ignored/);
    await third.stop();
  });

  it('reads a page whose kept body was damaged from its file again: says so, answers the same, and keeps it again', async () => {
    const { dir, pages, data, question, answer } = await answeredOnce();

    // The body of installation.md, overwritten in place: its file's header and page lines intact.
    await damageBody(join(data, 'cache'), 'installation.md');

    const second = await start(['--docs', dir], data);
    try {
      expect(second.cache).toEqual({ reused: pages, parsed: 0, index: 'reused' });
      expect(answerText(await second.ask(question))).toBe(answerText(answer));
      expect(second.run.err).toMatch(/Damaged page cache file .*: parsed installation\.md again/);
    } finally {
      await second.stop();
    }
    // Kept again whole: the next start reads it without a word.
    const third = await start(['--docs', dir], data);
    try {
      expect(answerText(await third.ask(question))).toBe(answerText(answer));
      expect(third.run.err).not.toMatch(/Damaged|Ignored/);
    } finally {
      await third.stop();
    }
  });

  it('serves every page with its own text after an edit under --watch rewrote the file it is kept in', async () => {
    // 48 pages of different lengths: each page file holds several, so an edit moves the others.
    const dir = await tempDir();
    const sentence = (n: number, edited = false) =>
      `The gauge number ${n} reads ${'kilo'.repeat(1 + (n % 7))}units${edited ? ' and, since the edit, megaunits from the mirror' : ''}.`;
    const pages = Array.from({ length: 48 }, (_, n) => n);
    for (const n of pages)
      await writeFile(join(dir, `gauge-${n}.md`), `# Gauge ${n}\n\n${sentence(n)}\n`);
    const data = await tempDir();
    await (await start(['--docs', dir], data)).stop();

    const server = await start(['--docs', dir, '--watch'], data);
    try {
      expect(server.cache.index).toBe('reused');
      const from = server.run.out.length;
      await writeFile(join(dir, 'gauge-5.md'), `# Gauge 5\n\n${sentence(5, true)}\n`);
      await server.run.waitFor(/Re-indexed 1 page [^\n]*gauge-5\.md changed/, from);
      // Read only now, from the rewritten files: none of them was read before the edit.
      for (const n of pages)
        expect(await server.page(`/gauge-${n}`), `gauge-${n}`).toContain(sentence(n, n === 5));
      expect(
        textOf(await server.ask('Which units does gauge number 5 read from the mirror?')),
      ).toContain('megaunits from the mirror');
      expect(server.run.err).not.toMatch(/Damaged|Ignored/);
    } finally {
      await server.stop();
    }
  });

  it('does not use pages or an index kept by another version of the code', async () => {
    const { dir, pages } = await sampleCopy();
    const data = await tempDir();
    await (await start(['--docs', dir], data)).stop();
    const [versionDir] = await readdir(join(data, 'cache'));
    // The same files under another version's folder: what an upgrade finds.
    await cp(join(data, 'cache', versionDir!), join(data, 'cache', 'v1-0000000000000000'), {
      recursive: true,
    });
    await rm(join(data, 'cache', versionDir!), { recursive: true });

    const server = await start(['--docs', dir], data);
    expect(server.cache).toEqual({ reused: 0, parsed: pages, index: 'built' });
    await server.stop();
    // The other version's folder is removed; this version's is written again.
    expect(await readdir(join(data, 'cache'))).toEqual([versionDir]);
  });

  it('keeps the pages of a built HTML site (--site) too', async () => {
    const data = await tempDir();
    const built = 'e2e/sites/mkdocs/site';
    const pages = (await loadHtmlSite(built)).site.pages.length;
    const first = await start(['--site', built], data);
    expect(first.cache.parsed).toBeGreaterThanOrEqual(pages);
    expect(first.cache.index).toBe('built');
    await first.stop();
    const second = await start(['--site', built], data);
    expect(second.cache).toEqual({ reused: first.cache.parsed, parsed: 0, index: 'reused' });
    await second.stop();
  });

  it('keeps the pages and index of each site of a --config file, and answers the same from them', async () => {
    const sample = await sampleCopy();
    const fastify = await tempDir();
    await cp(FASTIFY_DOCS_DIR, fastify, { recursive: true });
    const fastifyPages = (await loadDocsSite(fastify)).pages.length;
    const config = join(await tempDir(), 'sites.json');
    await writeFile(
      config,
      JSON.stringify({
        orgs: [{ id: 'acme', keys: [KEY] }],
        sites: [
          { domain: 'acme', org: 'acme', docs: sample.dir },
          { domain: 'fast', org: 'acme', docs: fastify },
        ],
      }),
    );
    const data = await tempDir();
    /** `serve --config` until it runs: its cache line per site, and the sample site's answer. */
    const serve = async () => {
      const run = captureIo({});
      const exit = runCli(['serve', '--config', config, '--port', '0', '--data', data], run.io);
      const [, url] = await run.waitFor(/running at (http:\/\/127\.0\.0\.1:\d+)\//);
      const lines = Object.fromEntries(
        [
          ...run.out.matchAll(
            /Cache [^\n]* \((\w+)\): (\d+) pages? reused, (\d+) parsed; index (\w+)\./g,
          ),
        ].map(([, domain, reused, parsed, index]) => [
          domain,
          { reused: Number(reused), parsed: Number(parsed), index },
        ]),
      );
      const answer = answerText(
        await readStream(
          await fetch(`${url}/discovery/v1/assistant/acme/message`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` },
            body: JSON.stringify(askBody('How do I install the package?')),
          }),
        ),
      );
      run.interrupt();
      expect(await exit).toBe(0);
      return { lines, answer, err: run.err };
    };

    const first = await serve();
    expect(first.lines).toEqual({
      acme: { reused: 0, parsed: sample.pages, index: 'built' },
      fast: { reused: 0, parsed: fastifyPages, index: 'built' },
    });
    const second = await serve();
    expect(second.lines).toEqual({
      acme: { reused: sample.pages, parsed: 0, index: 'reused' },
      fast: { reused: fastifyPages, parsed: 0, index: 'reused' },
    });
    expect(second.answer).toContain('npm install');
    expect(second.answer).toBe(first.answer);
  });

  it('keeps a large folder in a few page files read in one pass, and an edit rewrites only its own', async () => {
    // 20 copies of the sample docs: 400 pages, as many files as a mid-sized site.
    const dir = await tempDir();
    for (let copy = 0; copy < 20; copy++)
      await cp(FIXTURE_DOCS_DIR, join(dir, `copy-${copy}`), { recursive: true });
    const data = await tempDir();
    const warnings: string[] = [];
    const reader = () =>
      siteReader(
        { kind: 'docs', dir },
        diskPageStore(join(data, 'cache'), { kind: 'docs', dir, language: 'en' }, (line) =>
          warnings.push(line),
        ),
      );
    const first = await reader().read();
    const pages = first.site.pages.length;
    expect(pages).toBeGreaterThan(300);
    const pageFiles = async () =>
      (await filesUnder(join(data, 'cache'))).filter((f) => /[\\/]pages[\\/]/.test(f)).sort();
    const files = await pageFiles();
    expect(files.length).toBeLessThanOrEqual(16);
    expect((await keptPages(data)).sort()).toEqual(
      first.site.pages.map((page) => page.file).sort(),
    );
    const before = await Promise.all(files.map((file) => readFile(file, 'utf8')));

    const edited = join(dir, 'copy-7', 'installation.md');
    await writeFile(edited, (await readFile(edited, 'utf8')) + '\nInstall from a mirror too.\n');
    const second = await reader().read();
    expect(second.kept).toEqual({ reused: pages - 1, parsed: 1 });
    expect(second.site.byPath.get('/copy-7/installation')?.markdown).toContain('from a mirror');
    const after = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    expect(await pageFiles()).toEqual(files);
    expect(after.filter((text, i) => text !== before[i])).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('keeps every page when two processes write the same page files at once (--workers)', async () => {
    const { dir, pages } = await sampleCopy();
    const data = await tempDir();
    const warnings: string[] = [];
    const store = () =>
      diskPageStore(join(data, 'cache'), { kind: 'docs', dir, language: 'en' }, (line) =>
        warnings.push(line),
      );
    await Promise.all([
      siteReader({ kind: 'docs', dir }, store()).read(),
      siteReader({ kind: 'docs', dir }, store()).read(),
    ]);
    const again = await siteReader({ kind: 'docs', dir }, store()).read();
    expect(again.kept).toEqual({ reused: pages, parsed: 0 });
    expect(warnings).toEqual([]);
    const files = await filesUnder(join(data, 'cache'));
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('searches a kept index, and one updated after edits and kept again, exactly as one built from the pages', async () => {
    const { dir } = await sampleCopy();
    const data = await tempDir();
    const warnings: string[] = [];
    const read = async () =>
      (
        await siteReader(
          { kind: 'docs', dir },
          diskPageStore(join(data, 'cache'), { kind: 'docs', dir, language: 'en' }, () => {}),
        ).read()
      ).site;
    const keptRetriever = (site: DocsSite) => {
      const store = diskIndexStore(join(data, 'cache'), (line) => warnings.push(line));
      return { retriever: createRetriever(site, { store }), outcome: store.outcome(site) };
    };
    expect(keptRetriever(await read()).outcome).toBe('built');
    const install = join(dir, 'installation.md');
    await writeFile(
      install,
      (await readFile(install, 'utf8')) + '\n## Offline mirrors\n\nInstall from a mirror.\n',
    );
    await writeFile(join(dir, 'themes.md'), '# Themes\n\nThe widget takes a dark theme.\n');
    await rm(join(dir, 'troubleshooting.md'));
    const edited = await read();
    expect(keptRetriever(edited).outcome).toBe('updated');
    const kept = keptRetriever(edited);
    expect(kept.outcome).toBe('reused');
    const built = createRetriever(edited);
    const questions = edited.pages.flatMap((page) => [
      page.title,
      ...page.sections.map((section) => `How do I ${section.heading}?`),
    ]);
    expect(questions.length).toBeGreaterThan(50);
    const searched = (retriever: Retriever, question: string) => {
      const { hits, coverage, unknown } = retriever.search(question, { limit: 5 });
      // An updated index's average field lengths are summed in another order: the last bits differ.
      const round = (score: number) => Number(score.toPrecision(10));
      return {
        hits: hits.map((hit) => [hit.section.id, round(hit.score)]),
        coverage: round(coverage),
        unknown,
      };
    };
    for (const question of questions)
      expect(searched(kept.retriever, question), question).toEqual(searched(built, question));
    expect(warnings).toEqual([]);
  });

  it('searches the Fastify docs from a kept index with the same hits, scores and terms, in the same order, as from one built from the pages', async () => {
    const dir = 'test/fixtures/corpus/fastify';
    const data = await tempDir();
    const warnings: string[] = [];
    const { site } = await siteReader(
      { kind: 'docs', dir },
      diskPageStore(join(data, 'cache'), { kind: 'docs', dir, language: 'en' }, () => {}),
    ).read();
    const keptRetriever = () => {
      const store = diskIndexStore(join(data, 'cache'), (line) => warnings.push(line));
      return { retriever: createRetriever(site, { store }), outcome: store.outcome(site) };
    };
    expect(keptRetriever().outcome).toBe('built');
    const kept = keptRetriever();
    expect(kept.outcome).toBe('reused');
    const built = createRetriever(site);
    // Every page's title and every heading, as a reader would ask, and a few common-word questions
    // that read long postings.
    const questions = [
      ...site.pages.flatMap((page) => [
        page.title,
        ...page.sections.map((section) => `How do I use ${section.heading}?`),
      ]),
      'How do I register a plugin?',
      'What does the request object contain?',
      'How do I handle errors in a route?',
      'Can I validate the response?',
    ];
    expect(questions.length).toBeGreaterThan(500);
    const searched = (retriever: Retriever, question: string) => {
      const { hits, coverage, words, unknown } = retriever.search(question, { limit: 8 });
      // Matched terms come in the order the index's term tree holds them, and a word's prefix and
      // fuzzy matches add up in that order: the kept tree is made in the built one's order, so
      // both are the same to the last bit.
      return {
        hits: hits.map((hit) => ({ id: hit.section.id, score: hit.score, terms: hit.terms })),
        coverage,
        words,
        unknown,
      };
    };
    let hits = 0;
    for (const question of questions) {
      const fromKept = searched(kept.retriever, question);
      expect(fromKept, question).toEqual(searched(built, question));
      hits += fromKept.hits.length;
    }
    expect(hits).toBeGreaterThan(questions.length * 4);
    expect(warnings).toEqual([]);
  });

  it('parses a damaged body of a compressed page (.html.gz) again from its file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.html'), '<main><h1>Home</h1><p>Welcome.</p></main>');
    await writeFile(
      join(dir, 'changelog.html.gz'),
      gzipSync('<main><h1>Changelog</h1><p>Dropped support for Python 3.7.</p></main>'),
    );
    const data = await tempDir();
    const warnings: string[] = [];
    const store = () =>
      diskPageStore(data, { kind: 'site', dir, language: 'en' }, (line) => warnings.push(line));
    await siteReader({ kind: 'site', dir }, store()).read();
    // Served as changelog.html, kept under that name.
    await damageBody(data, 'changelog.html');
    const kept = await siteReader({ kind: 'site', dir }, store()).read();
    expect(kept.kept).toEqual({ reused: 2, parsed: 0 });
    expect(kept.site.byPath.get('/changelog')?.markdown).toContain(
      'Dropped support for Python 3.7',
    );
    expect(warnings).toEqual([
      expect.stringMatching(/^Damaged page cache file .*: parsed changelog\.html again/),
    ]);
  });

  it('orders a built site read from the cache as the first read did, without reading a page’s body', async () => {
    // A folder's index page and a page that is only a table of contents order the pages they
    // list (inReadingOrder); the order comes from their heads, so no body is read at start.
    const dir = await tempDir();
    const page = (title: string, body: string) => `<main><h1>${title}</h1>${body}</main>`;
    const list = (files: string[]) =>
      `<ul>${files.map((file) => `<li><a href="${file}">${file} and its sections</a></li>`).join('')}</ul>`;
    await mkdir(join(dir, 'guide'));
    await writeFile(
      join(dir, 'index.html'),
      page('Home', list(['client.html', 'guide/index.html'])),
    );
    await writeFile(join(dir, 'client.html'), page('Client', list(['quick.html'])));
    await writeFile(join(dir, 'guide', 'index.html'), page('Guide', list(['b.html', 'a.html'])));
    for (const file of ['quick.html', 'guide/a.html', 'guide/b.html'])
      await writeFile(join(dir, file), page(file, '<p>Text.</p>'));
    const data = await tempDir();
    const warnings: string[] = [];
    const store = () =>
      diskPageStore(data, { kind: 'site', dir, language: 'en' }, (line) => warnings.push(line));
    const first = await siteReader({ kind: 'site', dir }, store()).read();
    const order = ['/', '/client', '/quick', '/guide', '/guide/b', '/guide/a'];
    expect(first.site.pages.map((p) => p.path)).toEqual(order);
    // A body read now would be found damaged, and said so.
    await damageBody(data, 'client.html');
    await damageBody(data, 'guide/index.html');
    const kept = await siteReader({ kind: 'site', dir }, store()).read();
    expect(kept.kept).toEqual({ reused: 6, parsed: 0 });
    expect(kept.site.pages.map((p) => p.path)).toEqual(order);
    expect(warnings).toEqual([]);
  });

  it('keeps where a built site’s redirect pages lead, read from the cache as when parsed', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.html'), '<main><h1>Home</h1><p>Welcome.</p></main>');
    await writeFile(join(dir, 'guide.html'), '<main><h1>Guide</h1><p>Steps.</p></main>');
    await writeFile(
      join(dir, 'old.html'),
      '<html><head><meta http-equiv="refresh" content="0; url=guide.html#steps"></head></html>',
    );
    const data = await tempDir();
    const store = () => diskPageStore(data, { kind: 'site', dir, language: 'en' }, () => {});
    const first = await siteReader({ kind: 'site', dir }, store()).read();
    const kept = await siteReader({ kind: 'site', dir }, store()).read();
    expect(kept.kept).toEqual({ reused: 3, parsed: 0 });
    expect([...(kept.site.redirects ?? [])]).toEqual([['/old', '/guide#steps']]);
    expect(kept.site.redirects).toEqual(first.site.redirects);
  });

  it('gives back pages equal to the ones parsed', async () => {
    const data = await tempDir();
    // A heading the page repeats keeps the heading above it (`parent`) through the cache too.
    const repeated = await tempDir();
    await writeFile(
      join(repeated, 'pagination.md'),
      '# Pagination\n\n## PageNumber\n\n### Setup\n\nSet a page size.\n\n' +
        '## LimitOffset\n\n### Setup\n\nSet a limit.\n',
    );
    for (const [kind, dir] of [
      ['docs', FIXTURE_DOCS_DIR],
      ['site', 'e2e/sites/docusaurus/build'],
      ['docs', repeated],
    ] as const) {
      const store = () => diskPageStore(data, { kind, dir, language: 'en' }, () => {});
      const parsed = await siteReader({ kind, dir }, store()).read();
      const kept = await siteReader({ kind, dir }, store()).read();
      expect(kept.kept).toEqual({ reused: parsed.kept!.parsed, parsed: 0 });
      expect(kept.site.pages.map(plainPage)).toEqual(parsed.site.pages.map(plainPage));
      // And equal to the pages a read without the cache parses (plain DocPage objects).
      const fresh =
        kind === 'docs' ? (await loadDocsSite(dir)).pages : (await loadHtmlSite(dir)).site.pages;
      expect(kept.site.pages.map(plainPage)).toEqual(fresh.map(plainPage));
      expect(kept.site.stamp).toBe(parsed.site.stamp);
    }
    const kept = await siteReader(
      { kind: 'docs', dir: repeated },
      diskPageStore(data, { kind: 'docs', dir: repeated, language: 'en' }, () => {}),
    ).read();
    expect(kept.kept).toEqual({ reused: 1, parsed: 0 });
    expect(
      kept.site.pages[0]!.sections.map((section) => [section.heading, section.parent]),
    ).toEqual([
      ['Setup', 'PageNumber'],
      ['Setup', 'LimitOffset'],
    ]);
  });
});
