import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { createApp, type SiteConfig } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { createSite, parsePage } from '../src/server/site/docs.js';
import {
  askBody,
  demoApp,
  fastifyDocs,
  post,
  readStream,
  textOf,
  type TestApp,
} from './helpers/server.js';

// Pages laid out as a docs repository is (Fastify's: Guides/ and Reference/ linking each other
// with relative `.md` paths), so a quoted passage carries every kind of link a page can hold.
const GUIDE = `# Getting Started

## Teleporting visitors

To teleport a visitor, call [\`reply.redirect()\`](../Reference/Reply.md#redirect) as
[the reply docs](../Reference/Reply.md) explain, or read [the next section](#hooks-and-teleports),
the [plugins guide](./Plugins-Guide.md), [the home page](/) and [the reply page](/Reference/Reply).
It predates [CGI gateways][cgi]; the code is [on GitHub](https://github.com/fastify/fastify).
![Teleport diagram](../resources/teleport.svg) [![build badge](../resources/badge.svg)](./Plugins-Guide.md)

## Hooks and teleports

Hooks run before every teleport.

[cgi]: https://en.wikipedia.org/wiki/Common_Gateway_Interface
`;
const HOSTILE = `# Kraken

To summon the kraken, [click here](javascript:alert(1)), [ask nicely][k],
[open this](data:text/html,<script>alert(2)</script>) or ![kraken picture](javascript:alert(3)).

[k]: java\tscript:alert(4)
`;
const pages = [
  parsePage('index.md', '---\ntitle: Home\n---\n# Home\n\nWelcome.\n'),
  parsePage('Guides/Getting-Started.md', GUIDE),
  parsePage('Guides/Plugins-Guide.md', '# Plugins Guide\n\nPlugins extend the server.\n'),
  parsePage('Reference/Reply.md', '# Reply\n\n## Redirect\n\nSends a 302 to another URL.\n'),
  parsePage('Guides/Kraken.md', HOSTILE),
];

function appWith(site: Partial<SiteConfig> = {}) {
  return createApp({
    orgs: [{ id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey] }],
    sites: [{ domain: DEMO.domain, org: DEMO.org, docs: createSite(pages), ...site }],
  });
}

/** Every link and image of an answer as the widget's Markdown parser (marked) reads them. */
function linksOf(markdown: string): { text: string; href: string; image: boolean }[] {
  const links: { text: string; href: string; image: boolean }[] = [];
  const walk = (tokens: Token[] | undefined) => {
    for (const token of tokens ?? []) {
      if (token.type === 'link' || token.type === 'image')
        links.push({ text: token.text, href: token.href, image: token.type === 'image' });
      if ('tokens' in token) walk(token.tokens);
      if (token.type === 'list') for (const item of token.items) walk(item.tokens);
    }
  };
  walk(new Lexer().lex(markdown));
  return links;
}

const answerText = async (app: TestApp, question: string) =>
  textOf(await readStream(await post(app, askBody(question))));

describe('links inside quoted passages', () => {
  it('point at the pages this server serves, resolved against the quoted page, anchors kept', async () => {
    const text = await answerText(await appWith(), 'How do I teleport a visitor?');
    const links = linksOf(text);
    expect(links).toEqual(
      expect.arrayContaining([
        {
          text: '`reply.redirect()`',
          href: 'http://test/docs/Reference/Reply#redirect',
          image: false,
        },
        { text: 'the reply docs', href: 'http://test/docs/Reference/Reply', image: false },
        {
          text: 'the next section',
          href: 'http://test/docs/Guides/Getting-Started#hooks-and-teleports',
          image: false,
        },
        { text: 'plugins guide', href: 'http://test/docs/Guides/Plugins-Guide', image: false },
        { text: 'the home page', href: 'http://test/docs', image: false },
        { text: 'the reply page', href: 'http://test/docs/Reference/Reply', image: false },
        {
          text: 'CGI gateways',
          href: 'https://en.wikipedia.org/wiki/Common_Gateway_Interface',
          image: false,
        },
        { text: 'on GitHub', href: 'https://github.com/fastify/fastify', image: false },
        {
          text: 'Teleport diagram',
          href: 'http://test/docs/resources/teleport.svg',
          image: true,
        },
        { text: 'build badge', href: 'http://test/docs/resources/badge.svg', image: true },
        {
          text: '![build badge](http://test/docs/resources/badge.svg)',
          href: 'http://test/docs/Guides/Plugins-Guide',
          image: false,
        },
      ]),
    );
  });

  it('open pages that exist, at anchors those pages have', async () => {
    const app = await appWith();
    const text = await answerText(app, 'How do I teleport a visitor?');
    const internal = linksOf(text).filter((l) => l.href.startsWith('http://test/') && !l.image);
    expect(internal.length).toBeGreaterThan(5);
    for (const link of internal) {
      const [url, anchor] = link.href.split('#');
      const page = await app.request(url!);
      expect(page.status, link.href).toBe(200);
      if (anchor) expect(await page.text(), link.href).toContain(`id="${anchor}"`);
    }
  });

  it('use the site’s own URLs when it has a URL style', async () => {
    const text = await answerText(
      await appWith({
        pageUrls: { style: 'docusaurus' },
        publicUrl: 'https://fastify.dev/docs/latest',
      }),
      'How do I teleport a visitor?',
    );
    const hrefs = linksOf(text).map((l) => l.href);
    expect(hrefs).toEqual(
      expect.arrayContaining([
        'https://fastify.dev/docs/latest/Reference/Reply#redirect',
        'https://fastify.dev/docs/latest/Guides/Getting-Started#hooks-and-teleports',
        'https://fastify.dev/docs/latest/Guides/Plugins-Guide',
        'https://fastify.dev/docs/latest/',
        'https://github.com/fastify/fastify',
      ]),
    );
  });

  it('never carry a link that runs script, and keep its words', async () => {
    const text = await answerText(await appWith(), 'How do I summon the kraken?');
    expect(text).toContain('click here');
    expect(text).toContain('ask nicely');
    expect(text).toContain('open this');
    expect(text).toContain('kraken picture');
    const scriptLike = (href: string) =>
      /^(javascript|vbscript|data):/i.test(href.replace(/[\u0000-\u0020]/g, ''));
    expect(linksOf(text).filter((l) => scriptLike(l.href))).toEqual([]);
    expect(text).not.toMatch(/java\s*script:|data:text/i);
  });

  it('in the Fastify corpus are never left relative or pointing at .md files', async () => {
    const docs = await fastifyDocs();
    const app = createApp({
      orgs: [{ id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey] }],
      sites: [{ domain: DEMO.domain, org: DEMO.org, docs }],
    });
    const questions = [
      'How do I decorate the request?',
      'What is encapsulation?',
      'Should I use a reverse proxy?',
      'How do I redirect a reply?',
      'What does the custom AJV configuration change?',
    ];
    const hrefs: string[] = [];
    for (const question of questions)
      hrefs.push(...linksOf(await answerText(app, question)).map((l) => l.href));
    expect(hrefs.length).toBeGreaterThan(20);
    expect(hrefs.filter((href) => !/^https?:\/\//.test(href))).toEqual([]);
    expect(hrefs.filter((href) => /\.mdx?(#|$)/.test(href))).toEqual([]);
  });
});

describe('links in the sample docs’ quoted passages', () => {
  it('open the sample site’s pages under /docs', async () => {
    const app = await demoApp();
    const links = linksOf(await answerText(app, 'How do I install it?'));
    expect(links).toContainEqual({
      text: 'React guide',
      href: 'http://test/docs/guides/react',
      image: false,
    });
    expect((await app.request('http://test/docs/guides/react')).status).toBe(200);
  });
});
