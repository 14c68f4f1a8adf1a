import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { loadHtmlSite } from '../src/server/site/html.js';

/**
 * A real Javadoc build nobody here wrote: Apache Commons Lang 3.12's API docs as Debian's
 * libcommons-lang3-java-doc ships them (JDK 17's doclet: members as `<ul><li><section>`, source
 * listings in `src-html/`, "Uses of Class" pages). CI installs the package (.ci/run); elsewhere the
 * suite is skipped unless it is installed (`apt-get install libcommons-lang3-java-doc`).
 */
const LANG3 = '/usr/share/doc/libcommons-lang3-java/api';
const available = existsSync(`${LANG3}/org/apache/commons/lang3/StringUtils.html`);
if (!available && process.env.CI)
  throw new Error(
    `${LANG3} is missing: .ci/run installs libcommons-lang3-java-doc for this suite.`,
  );

describe.skipIf(!available)("Debian's built Commons Lang API docs, read with --site", () => {
  const loaded = loadHtmlSite(LANG3);
  const pageOf = async (path: string) => (await loaded).site.byPath.get(path);

  it('reads each member of a class as a section at the anchor Javadoc gives it', async () => {
    const strings = await pageOf('/org/apache/commons/lang3/StringUtils');
    const blank = strings?.sections.find(
      (section) => section.anchor === 'isBlank(java.lang.CharSequence)',
    );
    expect(blank?.heading).toBe('isBlank');
    // Its signature is code, its description the section's text.
    expect(blank?.code[0]?.value).toBe('public static boolean isBlank(CharSequence cs)');
    expect(blank?.text).toMatch(
      /^Checks if a CharSequence is empty \(""\), null or whitespace only\./,
    );
    // One section had held the whole class: 238 members as list items under its title.
    expect(strings?.sections.length).toBeGreaterThan(200);
    expect(strings?.markdown).not.toContain('<!--');
  });

  it('leaves out what Javadoc writes around a class: its package line, superclasses and member summaries', async () => {
    const watch = await pageOf('/org/apache/commons/lang3/time/StopWatch');
    // The page opens on the class's signature and its description, not on "Package …".
    expect(watch?.markdown).toMatch(
      /^\s*# Class StopWatch\n+(?:\*\*\*\n+)?```java\npublic class StopWatch extends Object\n```\n+`StopWatch` provides a convenient API for timings\./,
    );
    // The summaries repeat the details without the members' names; the details stay.
    const headings = watch?.sections.map((section) => section.heading) ?? [];
    expect(headings).not.toContain('Method Summary');
    expect(headings).toEqual(expect.arrayContaining(['createStarted', 'getSplitTime']));
  });

  it('reads a page with a stray NUL in its text, and leaves out the source listings and generated lists', async () => {
    const { site, skipped } = await loaded;
    // CharUtils documents its NUL constant with the character itself, far into the page.
    const chars = await pageOf('/org/apache/commons/lang3/CharUtils');
    expect(chars?.sections.map((section) => section.anchor)).toContain('NUL');
    expect(chars?.markdown).not.toContain('\u0000');
    expect(skipped.map((page) => page.file)).not.toContain(
      'org/apache/commons/lang3/CharUtils.html',
    );
    const paths = site.pages.map((page) => page.path);
    expect(
      paths.filter((path) =>
        /^\/(src-html|index-all|help-doc|allclasses-index)|\/class-use\//.test(path),
      ),
    ).toEqual([]);
    expect(paths).toContain('/org/apache/commons/lang3/package-summary');
  });

  it('finds the member a question describes', async () => {
    const retriever = createRetriever((await loaded).site);
    const first = (question: string) =>
      retriever.search(question, { limit: 3 }).hits[0]?.section.id;
    expect(first('How do I check if a string is blank?')).toBe(
      '/org/apache/commons/lang3/StringUtils#isBlank(java.lang.CharSequence)',
    );
    expect(first('How do I get the root cause of an exception?')).toBe(
      '/org/apache/commons/lang3/exception/ExceptionUtils#getRootCause(java.lang.Throwable)',
    );
  });
});
