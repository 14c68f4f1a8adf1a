import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { createSite, parsePage, type DocPage } from '../src/server/site/docs.js';
import {
  askBody,
  demoApp,
  post,
  readStream,
  searchResultsOf,
  sourcesOf,
  textOf,
  userMessage,
  type StreamPart,
} from './helpers/server.js';

const reasoningOf = (parts: StreamPart[]) =>
  String(parts.find((p) => p.type === 'reasoning')?.value ?? '');
const ask = async (question: string, extra: Record<string, unknown> = {}) =>
  readStream(await post(await demoApp(), askBody(question, extra)));
/** A one-organisation app serving just these pages as the demo domain. */
const appOf = (...pages: DocPage[]) =>
  createApp({
    orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
    sites: [{ domain: DEMO.domain, org: 'o', docs: createSite(pages) }],
  });

describe('retrieval keeps to the reader’s language and version', () => {
  it('answers an English question from English pages and a French one from French pages', async () => {
    const english = await ask('How do I install it?');
    expect(sourcesOf(english)[0]!.id).toBe('/installation');
    expect(searchResultsOf(english).every((hit) => !hit.path.startsWith('/fr/'))).toBe(true);
    const french = await ask("Comment installer l'assistant ?");
    expect(sourcesOf(french)[0]!.id).toBe('/fr/installation');
    expect(searchResultsOf(french).every((hit) => hit.path.startsWith('/fr/'))).toBe(true);
  });

  it('lets filter.language override the question’s language', async () => {
    const parts = await ask('How do I install it?', { filter: { language: 'fr' } });
    expect(searchResultsOf(parts).length).toBeGreaterThan(0);
    expect(searchResultsOf(parts).every((hit) => hit.path.startsWith('/fr/'))).toBe(true);
  });

  it('answers from the newest version unless the request or the question names another', async () => {
    const newest = await ask('How do I set retrieval filters?');
    expect(searchResultsOf(newest).map((hit) => hit.path)).not.toContain(
      '/v1/guides/configuration',
    );
    const pinned = await ask('How do I set retrieval filters?', { filter: { version: 'v1' } });
    expect(sourcesOf(pinned)[0]!.id).toBe('/v1/guides/configuration');
    const named = await ask('How is the retrieval option called in v1?');
    expect(sourcesOf(named)[0]!.id).toBe('/v1/guides/configuration');
  });

  it('tells same-titled pages of different versions apart in citations', async () => {
    const parts = await ask('retrieval filters', { filter: { version: 'v1' } });
    expect(sourcesOf(parts)[0]).toMatchObject({
      id: '/v1/guides/configuration',
      title: 'Configuration (v1)',
    });
    expect(searchResultsOf(parts)[0]).toMatchObject({ title: 'Configuration (v1)' });
  });
});

describe('the answer’s own words are in the language it answers in', () => {
  const suggestionsOf = (parts: StreamPart[]) =>
    parts
      .filter((p) => p.type === 'message_annotations')
      .flatMap((p) => p.value as { type: string; questions?: string[] }[])
      .find((a) => a.type === 'suggestions')?.questions ?? [];

  it('frames French quotes, follow-ups, refusals and the reasoning in French', async () => {
    const answer = await ask("Comment installer l'assistant ?");
    expect(textOf(answer)).toMatch(/^D’après \*\*\[Installation\]\(/);
    expect(textOf(answer)).not.toMatch(/\b(From|See also)\b/);
    expect(suggestionsOf(answer).length).toBeGreaterThan(0);
    for (const question of suggestionsOf(answer))
      expect(question).toMatch(/^Parlez-moi de « .+ »$/);
    expect(reasoningOf(answer)).toMatch(
      /^J’ai cherché dans la documentation .*« installer ».*dans les pages en fr.*La meilleure correspondance est « Installation »/,
    );

    const refusal = textOf(await ask('Est-ce que ça marche avec SAML ?'));
    expect(refusal).toMatch(/^La documentation ne couvre pas ce sujet\./);
    expect(refusal).toContain('Vous pouvez consulter :');
    expect(refusal).toMatch(/^- \[[^\]]+\]\(http:\/\/test\/docs\/fr\//m);
  });

  it('uses English for a language it has no words for', async () => {
    const page = parsePage(
      'nl/webhooks.md',
      '---\nlanguage: nl\n---\n# Webhooks\n\nWebhooks sturen een bericht naar uw endpoint wanneer een taak klaar is.\n',
    );
    const app = appOf(page);
    const parts = await readStream(
      await post(app, askBody('Wanneer sturen webhooks een bericht?')),
    );
    expect(textOf(parts)).toMatch(/^From \*\*\[Webhooks\]/);
  });
});

describe('currentPath only breaks ties', () => {
  it('does not outrank a clearly better page elsewhere', async () => {
    const parts = await ask('How do I self-host the docs with a static export bundle?', {
      currentPath: '/guides/theming',
    });
    expect(sourcesOf(parts)[0]!.id).not.toBe('/guides/theming');
    const dark = await ask('How do I switch to dark mode?', {
      currentPath: '/guides/self-hosting',
    });
    expect(sourcesOf(dark)[0]!.id).not.toBe('/guides/self-hosting');
  });

  it('decides between two equally good pages', async () => {
    const page = (file: string) =>
      parsePage(
        file,
        '# Webhooks\n\nWebhooks send an event to your endpoint when a job completes.\n',
      );
    const app = appOf(page('a.md'), page('b.md'));
    for (const currentPath of ['/a', '/b']) {
      const parts = await readStream(
        await post(app, askBody('When do webhooks send an event?', { currentPath })),
      );
      expect(sourcesOf(parts)[0]!.id).toBe(currentPath);
    }
  });
});

describe('questions the docs do not cover', () => {
  it('says so, points at the nearest pages, and quotes nothing as an answer', async () => {
    const parts = await ask('Does it support single sign-on with SAML?');
    const text = textOf(parts);
    expect(text).toMatch(/^The docs don't cover this\./);
    expect(text).toContain('You might look at:');
    expect(text).toMatch(/^- \[[^\]]+\]\(http:\/\/test\/docs\//m);
    expect(text).not.toMatch(/^>/m);
    expect(sourcesOf(parts)).toEqual([]);
    expect(reasoningOf(parts)).toContain("docs don't cover it");
  });
});

describe('follow-up questions', () => {
  async function followUp(first: string, second: string) {
    const app = await demoApp();
    const response = await post(app, askBody(first));
    const threadId = response.headers.get('x-thread-id')!;
    await response.text();
    return readStream(
      await post(app, {
        fp: 'anonymous',
        threadId,
        messages: [userMessage(first), userMessage(second)],
      }),
    );
  }

  it('uses the earlier question when the follow-up leans on it', async () => {
    const parts = await followUp(
      'How do I change the colours of the widget?',
      'What about the labels?',
    );
    expect(sourcesOf(parts)[0]!.id).toBe('/guides/theming');
    expect(reasoningOf(parts)).toContain(
      'earlier question “How do I change the colours of the widget?”',
    );
  });

  it('searches a question that stands on its own without the earlier one', async () => {
    const parts = await followUp(
      'Does it support single sign-on with SAML?',
      'Which flags does the export command take?',
    );
    expect(sourcesOf(parts)[0]!.id).toBe('/static-export/cli');
    expect(reasoningOf(parts)).not.toContain('earlier question');
    const call = parts.find((p) => p.type === 'tool_call')!.value as {
      args: Record<string, unknown>;
    };
    expect(call.args).not.toHaveProperty('earlier');
  });
});

describe('extractive answers keep the Markdown they quote', () => {
  it('keeps inline code, the code sample a sentence introduces, and the whole list after it', async () => {
    const text = textOf(await ask('What are the three chart values for static export?'));
    expect(text).toContain(
      '> A self-hosted deployment serves a bundle through three chart values:',
    );
    expect(text).toMatch(/```yaml\nstaticExport:\n {2}enabled: true\n/);
    for (const key of ['staticExport.enabled', 'staticExport.bundleUrl', 'staticExport.version'])
      expect(text).toContain(`> - \`${key}\``);
  });

  it('keeps a whole table', async () => {
    const text = textOf(await ask('Which flags does the export command take?'));
    expect(text).toContain('> | Flag | Meaning |\n> |---|---|');
    for (const flag of [
      '--domain',
      '--version',
      '--paths a,b',
      '--out FILE',
      '--values FILE',
      '--json',
    ])
      expect(text).toContain(`> | \`${flag}\` |`);
  });

  it('keeps a long callout a quote, paragraph by paragraph', async () => {
    const filler =
      'It runs once per request, in the order it was registered with the server. '.repeat(12);
    const page = parsePage(
      'validation.md',
      `# Validation\n\n## Body schemas\n\nA route validates its body against its schema.\n\n` +
        `> ⚠ Warning:\n> When using custom content type parsers, the parsed\n> body is validated **only** ` +
        `when the request content type matches a key in the schema.\n>\n> ${filler}\n> Schema selection uses an ` +
        `exact match on the essence MIME type.\n`,
    );
    const app = appOf(page);
    const text = textOf(
      await readStream(
        await post(app, askBody('Is the body validated with custom content type parsers?')),
      ),
    );
    expect(text).toContain('> > ⚠ Warning:\n> > When using custom content type parsers');
    // Its paragraphs stay apart, and no quote marker is left inside a line of text.
    expect(text).toMatch(/\n> >\n> > [^\n]*Schema selection uses an exact match/);
    for (const line of text.split('\n')) expect(line.replace(/^(> )+/, '')).not.toMatch(/ > /);
  });

  it('does not quote a table of contents, which the page itself still shows', async () => {
    const page = parsePage(
      'hooks.md',
      '# Hooks\n\nHooks let you listen to events of the request lifecycle. There are two kinds of hooks:\n\n' +
        '- [Request hooks](#request-hooks)\n  - [onRequest](#onrequest)\n  - [onSend](#onsend)\n' +
        '- [Application hooks](#application-hooks)\n\n' +
        '## Request hooks\n\nThey run for every request.\n\n## Application hooks\n\nThey run once.\n',
    );
    const app = appOf(page);
    const text = textOf(
      await readStream(await post(app, askBody('What kinds of hooks are there?'))),
    );
    expect(text).toContain('Hooks let you listen to events of the request lifecycle.');
    expect(text).not.toContain('](#');
    const rendered = await (await app.request('http://test/docs/hooks')).text();
    expect(rendered).toContain('href="#onrequest"');
  });

  it('writes reference-style links inline, and keeps the code each introduced step brings', async () => {
    const page = parsePage(
      'pretty.md',
      '# Pretty printing\n\nLog lines are JSON. For reading them during development, use a prettifier ' +
        'like [`acme-pretty`][ap]:\n\n' +
        '1. Install it with `npm install acme-pretty`.\n2. Point the logger at it:\n' +
        "  ```js\n  logger({ transport: 'acme-pretty' })\n  ```\n" +
        '3. Give the prettifier its own options:\n' +
        "  ```js\n  logger({ transport: 'acme-pretty', options: { colorize: true } })\n  ```\n\n" +
        '  [ap]: https://example.com/acme-pretty\n',
    );
    const app = appOf(page);
    const text = textOf(await readStream(await post(app, askBody('How do I pretty print logs?'))));
    expect(text).toContain('[`acme-pretty`](https://example.com/acme-pretty)');
    expect(text).not.toContain('][ap]');
    expect(text).toContain("logger({ transport: 'acme-pretty' })");
    expect(text).toContain('> 3. Give the prettifier its own options:');
    expect(text).toContain('options: { colorize: true }');
  });

  it('cuts a long catalogue to the items that carry the most of the question', async () => {
    const items = Array.from(
      { length: 20 },
      (_, i) => `- [\`plugin-${i}\`](https://example.com/${i}) Connects the server to store ${i}.`,
    );
    items[12] =
      '- [`plugin-static`](https://example.com/static) Serves static files from a folder.';
    const page = parsePage('plugins.md', `# Plugins\n\n## Catalogue\n\n${items.join('\n')}\n`);
    const app = appOf(page);
    const text = textOf(
      await readStream(await post(app, askBody('Which plugin serves static files on my server?'))),
    );
    expect(text).toContain('> - [`plugin-static`](https://example.com/static) Serves static files');
    expect(text).not.toContain('plugin-3');
  });

  it('cites a root page without a title by the site’s name, as the sidebar shows it', async () => {
    const app = appOf(
      parsePage(
        'index.md',
        '<h1 align="center">Acme</h1>\n\nAcme draws charts from spreadsheets in the browser.\n\n' +
          '## Additional documentation\n\nThe charts gallery lists every chart type.\n',
      ),
      parsePage('guides/setup.md', '# Setup\n\nRun the installer.\n'),
    );
    const parts = await readStream(await post(app, askBody('Where is the charts gallery?')));
    expect(sourcesOf(parts)[0]).toMatchObject({ id: '/', title: 'Acme' });
    expect(textOf(parts)).toMatch(/^From \*\*\[Acme › Additional documentation\]/);
  });

  it('shows every way a short page intro promises', async () => {
    const text = textOf(await ask('How do I install it?'));
    expect(text).toContain('There are two ways to install the assistant.');
    expect(text).toContain('```bash\nnpm install docs-assistant react react-dom\n```');
    expect(text).toContain('**With a script tag (any site)**');
  });
});
