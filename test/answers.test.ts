import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { createSite, loadDocsSite, parsePage, type DocPage } from '../src/server/site/docs.js';
import { parseHtmlPage } from '../src/server/site/html.js';
import {
  askBody,
  demoApp,
  post,
  readStream,
  searchResultsOf,
  sourcesOf,
  textOf,
  userMessage,
  type TestApp,
  type StreamPart,
} from './helpers/server.js';

const reasoningOf = (parts: StreamPart[]) =>
  String(parts.find((p) => p.type === 'reasoning')?.value ?? '');
/** The reply's stream parts to `question` asked of `app`. */
const askIn = async (app: TestApp, question: string, extra: Record<string, unknown> = {}) =>
  readStream(await post(app, askBody(question, extra)));
/** The same, asked of the demo app. */
const ask = async (question: string, extra: Record<string, unknown> = {}) =>
  askIn(await demoApp(), question, extra);
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

/** The answer's "Ask next" questions. */
const suggestionsOf = (parts: StreamPart[]) =>
  parts
    .filter((p) => p.type === 'message_annotations')
    .flatMap((p) => p.value as { type: string; questions?: string[] }[])
    .find((a) => a.type === 'suggestions')?.questions ?? [];

describe('the answer’s own words are in the language it answers in', () => {
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

/** The quoted lines of an unsure answer's places (each place's sentences, under its title). */
/** The quotes of an unsure answer's places, each its lines (`  > …`) joined. */
const placesOf = (parts: StreamPart[]) =>
  [...textOf(parts).matchAll(/^ {2}> .*(?:\n {2}>.*)*/gm)].map((match) => match[0]);

/** The titles of an unsure answer's places, in order (`- **[Page › Heading](url)** [n]`). */
const placeTitlesOf = (text: string) => {
  expect(text).toMatch(/^I'm not sure/);
  return [...text.matchAll(/^- \*\*\[([^\]]+)\]/gm)].map((match) => match[1]!);
};

/** The levels of an answer's confidence annotations (`8:` `{type:'confidence', level}`). */
const levelsOf = (parts: StreamPart[]) =>
  parts
    .filter((p) => p.type === 'message_annotations')
    .flatMap((p) => p.value as { type: string; level?: string }[])
    .filter((a) => a.type === 'confidence')
    .map((a) => a.level);

describe('the answer says how sure it is', () => {
  it('quotes the one section that clearly answers, and says it is sure', async () => {
    const parts = await ask('How do I theme the widget colours?');
    expect(levelsOf(parts)).toEqual(['sure']);
    expect(textOf(parts)).toMatch(/^From \*\*\[Theming and translations › Colours\]/);
  });

  it('is unsure, and says so, when the question names something the docs never mention', async () => {
    // As SQLAlchemy's docs (Debian's python-sqlalchemy-doc) asked about Docker: "sure" before.
    const app = appOf(
      parsePage(
        'dialects/postgresql.md',
        '# PostgreSQL\n\n## Connecting\n\nRun the tests against PostgreSQL with a URL such as ' +
          '`postgresql://scott:tiger@localhost/test`. A container or a local server works.\n',
      ),
      parsePage('core/engines.md', '# Engines\n\nAn engine holds a pool of connections.\n'),
    );
    const docker = await askIn(app, 'How do I run PostgreSQL in a Docker container for my tests?');
    expect(levelsOf(docker)).toEqual(['unsure']);
    expect(textOf(docker).split('\n')[0]).toBe(
      "The docs never mention “Docker”. I'm not sure which part of the docs answers this; these sections come closest:",
    );
    expect(textOf(docker)).toContain('postgresql://scott:tiger@localhost/test');
    // Without the name, the same question is answered; a word the docs lack that only opens the
    // question, capitalised as every first word is, names nothing.
    const plain = await askIn(app, 'How do I run my tests against PostgreSQL in a container?');
    expect(levelsOf(plain)).toEqual(['sure']);
    const opening = await askIn(
      app,
      'Quickly: how do I run my tests against PostgreSQL in a container?',
    );
    expect(levelsOf(opening)).toEqual(['sure']);
  });

  it('takes a mixed-case name the docs never use whole as never mentioned, whatever its parts match', async () => {
    // As psycopg2's docs asked about MySQL: its "SQL" matched, and the home page was quoted "sure".
    const app = appOf(
      parsePage(
        'index.md',
        '# Psycopg\n\nPsycopg is a PostgreSQL database adapter for Python. It sends SQL to the server.\n',
      ),
      parsePage('usage.md', '# Basic module usage\n\nConnect with `psycopg2.connect()`.\n'),
    );
    const mysql = await askIn(app, 'How do I send SQL to a MySQL database from Python?');
    expect(levelsOf(mysql)).toEqual(['unsure']);
    expect(textOf(mysql)).toMatch(/^The docs never mention “MySQL”\./);
    // A name the docs use whole is no such name.
    const postgres = await askIn(app, 'How do I send SQL to a PostgreSQL database from Python?');
    expect(levelsOf(postgres)).toEqual(['sure']);
  });

  it('shows the best places, each with its title path, matching sentences and anchor, when the top hits are close', async () => {
    const app = appOf(
      parsePage(
        'guides/caching.md',
        '# Caching\n\n## Cache lifetime\n\nAnswers are cached for ten minutes. ' +
          'Set `cacheSeconds` to keep cached answers longer. Nothing else is stored.\n',
      ),
      parsePage(
        'reference/options.md',
        '# Options\n\n## cacheSeconds\n\nHow long cached answers are kept, in seconds. ' +
          'The default keeps them ten minutes. It is read once at start.\n',
      ),
      parsePage('guides/setup.md', '# Setup\n\nRun the installer and open the page.\n'),
    );
    const parts = await askIn(app, 'How long are cached answers kept?');
    const text = textOf(parts);
    expect(levelsOf(parts)).toEqual(['unsure']);
    expect(text.split('\n')[0]).toBe(
      "I'm not sure which part of the docs answers this; these sections come closest:",
    );
    const places = [...text.matchAll(/^- \*\*\[([^\]]+)\]\((http[^)]+)\)\*\* \[\d\]$/gm)];
    expect(places.map((m) => m[1])).toEqual(
      expect.arrayContaining(['Caching › Cache lifetime', 'Options › cacheSeconds']),
    );
    expect(places.length).toBeLessThanOrEqual(3);
    expect(places.map((m) => m[2])).toEqual(
      expect.arrayContaining([
        'http://test/docs/guides/caching#cache-lifetime',
        'http://test/docs/reference/options#cacheseconds',
      ]),
    );
    // Each place brings the one or two sentences that match, not its whole section.
    expect(text).toMatch(/^ {2}> [^\n]*Set `cacheSeconds` to keep cached answers longer\./m);
    expect(text).not.toContain('Nothing else is stored.');
    expect(sourcesOf(parts).map((s) => s.id)).toEqual(
      expect.arrayContaining(['/guides/caching', '/reference/options']),
    );
    expect(reasoningOf(parts)).toContain("I'm not sure");
  });

  it('marks the gap between a place’s matching sentences that are apart in the docs', async () => {
    const app = appOf(
      parsePage(
        'guides/caching.md',
        '# Caching\n\n## Cache lifetime\n\nCached answers are kept in memory' +
          ', in one map per worker, keyed by the question and its filter, its current page and its context items, so that two readers asking the same thing on the same page share one entry, while a reader on another page or version gets an answer of their own, which costs more memory but never mixes them. ' +
          'Nothing else is stored. The server restarts clean. Cached answers are kept ten minutes.\n',
      ),
      parsePage(
        'reference/options.md',
        '# Options\n\n## cacheSeconds\n\nHow long cached answers are kept, in seconds. ' +
          'Cached answers are kept ten minutes by default. It is read once at start.\n',
      ),
    );
    const parts = await askIn(app, 'How long are cached answers kept?');
    const text = textOf(parts);
    expect(levelsOf(parts)).toEqual(['unsure']);
    // Apart in the docs: a gap between them. Next to each other: none.
    expect(text).toMatch(
      /> Cached answers are kept in memory, in one map [^\n]* … Cached answers are kept ten minutes\./,
    );
    // A sentence cut short already ends in "…": no second one.
    expect(text).not.toContain('… …');
    expect(text).toContain(
      '> How long cached answers are kept, in seconds. Cached answers are kept ten minutes by default.',
    );
  });

  it('shows a place’s lead-in with the short code it introduces, and the sentence an “It” refers to', async () => {
    const app = appOf(
      parsePage(
        'usage/installation.md',
        '# Installation\n\n## Local installation\n\nWe recommend installing the tool locally and running it with npx:\n\n' +
          '```bash\nnpm install --save-dev tool\n```\n\n' +
          'Then in the CI job:\n\n```bash\nnpx tool\n```\n\n' +
          '**Note:** `npx` comes with npm. It is used to find the installed binary and run it.\n',
      ),
      parsePage(
        'ci.md',
        '# CI\n\n## Installing the tool in CI\n\nInstall the tool in the CI job before running it, so its binary is found. Any CI works.\n',
      ),
    );
    const parts = await readStream(
      await post(app, askBody('How do I install the tool in CI and find its binary?')),
    );
    const text = textOf(parts);
    expect(levelsOf(parts)).toEqual(['unsure']);
    // The lead-in, its code right after it, then the later sentences, in page order.
    expect(text).toContain(
      '  > We recommend installing the tool locally and running it with npx:\n\n' +
        '  ```bash\n  npm install --save-dev tool\n  ```\n\n' +
        '  > … **Note:** `npx` comes with npm. It is used to find the installed binary and run it.',
    );
  });

  it('shows the code right after a place’s sentence, though the sentence ends in a full stop', async () => {
    // As python-tenacity-doc: "…so let's just wait 2 seconds between retries." was the place,
    // without the `@retry(wait=wait_fixed(2))` after it.
    const app = appOf(
      parsePage(
        'index.md',
        '# Tenacity\n\n## Waiting before retrying\n\nMost things do not like to be polled, so just wait 2 seconds between retries.\n\n' +
          '```python\n@retry(wait=wait_fixed(2))\ndef wait_2_s():\n    raise Exception\n```\n',
      ),
      parsePage(
        'api.md',
        '# API\n\n## wait_fixed\n\nWait strategy that waits a fixed amount of time between each retry.\n',
      ),
    );
    const parts = await askIn(app, 'How do I wait a fixed 2 seconds between retries?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    expect(textOf(parts)).toContain(
      '  > Most things do not like to be polled, so just wait 2 seconds between retries.\n\n  ```python\n  @retry(wait=wait_fixed(2))',
    );
  });

  it('shows a lead-in with its code when no sentence of a place holds the question’s words', async () => {
    // As structlog's contextvars page: "This would result among other the following lines to be
    // printed:" stood alone as the place, its output left out.
    const app = appOf(
      parsePage(
        'contextvars.md',
        '# Context Variables\n\n## Example: Flask application and thread-local data\n\nThis would result in the following lines being printed:\n\n' +
          "```text\nevent='user logged in' view='/login'\n```\n",
      ),
      parsePage(
        'frameworks.md',
        '# Frameworks\n\n## Flask\n\nConfigure logging before you create the application.\n',
      ),
    );
    const parts = await askIn(app, 'How do I log in a Flask application?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    expect(textOf(parts)).toContain(
      "  > This would result in the following lines being printed:\n\n  ```text\n  event='user logged in' view='/login'\n  ```",
    );
  });

  it('never shows a place’s second lead-in without the code it introduces', async () => {
    // As xarray's "Dataset contents": one example was shown, and the place went on to "…datasets
    // also store arbitrary metadata in the form of attributes:" with nothing after it.
    const app = appOf(
      parsePage(
        'structures.md',
        '# Data Structures\n\n## Dataset contents\n\nA dataset holds variables, keyed by name:\n\n' +
          '```python\nds["temperature"]\n```\n\n' +
          'Datasets also store arbitrary metadata about the store in the form of attributes:\n\n' +
          '```python\nds.attrs["title"] = "example"\n```\n',
      ),
      parsePage(
        'io.md',
        '# Data files\n\n## Formats\n\nA dataset can be written to a netCDF file.\n',
      ),
    );
    const parts = await askIn(app, 'How does a dataset store metadata for Zarr?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    const places = textOf(parts);
    // Each lead-in shown stands right above its code.
    for (const leadIn of ['keyed by name:', 'in the form of attributes:']) {
      const at = places.indexOf(leadIn);
      if (at >= 0) expect(places.slice(at + leadIn.length)).toMatch(/^\n\n {2}```python\n/);
    }
    expect(places).toMatch(/keyed by name:|in the form of attributes:/);
  });

  it('never ends a place on a sentence labelled “Example:” without its example', async () => {
    // As Celery's periodic tasks guide writes one ("Example: Run the tasks.add task every 30
    // seconds."), before more code than a place shows: six lines of it, "…" for the rest.
    const code = Array.from({ length: 8 }, (_, i) => `schedule.add(${i})`).join('\n');
    const app = appOf(
      parsePage(
        'guides/caching.md',
        '# Caching\n\n## Cache lifetime\n\nAnswers can be cached.\n\n' +
          `Example: cached answers kept for an hour.\n\n\`\`\`python\n${code}\n\`\`\`\n`,
      ),
      parsePage(
        'reference/options.md',
        '# Options\n\n## cacheSeconds\n\nHow long cached answers are kept, in seconds.\n',
      ),
    );
    const parts = await askIn(app, 'How long are cached answers kept?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    const text = textOf(parts);
    expect(text).toContain('[Caching › Cache lifetime]');
    expect(text).toContain(
      '  > Example: cached answers kept for an hour.\n\n  ```python\n  schedule.add(0)\n',
    );
    expect(text).toContain('  schedule.add(5)\n  …\n  ```');
    expect(text).not.toContain('schedule.add(6)');
  });

  it('shows the lines of a place’s long code that hold the question, not its first ones', async () => {
    // As structlog's "Support for contextvars.Token": its example's first six lines stopped
    // before `reset_contextvars(**tokens)`, the call the question named.
    const app = appOf(
      parsePage(
        'contextvars.md',
        '# Context Variables\n\n## Support for tokens\n\nA helper can override context variables and restore them with the tokens that `bind_contextvars()` returns, passed to `reset_contextvars()`:\n\n' +
          '```python\ndef foo():\n    bind_contextvars(a=1)\n    _helper()\n    log.info("a is restored!")\n\n' +
          'def _helper():\n    tokens = bind_contextvars(a=2)\n    log.info("a is overridden")\n    reset_contextvars(**tokens)\n```\n',
      ),
      parsePage(
        'api.md',
        '# API\n\n## bind_contextvars\n\nPut keys and values into the context-local context. Returns the tokens.\n',
      ),
    );
    const parts = await askIn(
      app,
      'How do I use reset_contextvars with the tokens of bind_contextvars?',
    );
    expect(levelsOf(parts)).toEqual(['unsure']);
    const text = textOf(parts);
    expect(text).toContain('passed to `reset_contextvars()`:\n\n  ```python\n  …\n');
    expect(text).toContain('  reset_contextvars(**tokens)\n  ```');
  });

  it('never cuts a place’s long sentence inside inline code or a link', async () => {
    // The code span and the link both straddle the 280th character, where a place's sentence is cut.
    const long = (tail: string) =>
      'Cached answers are kept in memory for a while, and the cache is shared by every worker of the server, ' +
      'so that two readers who ask the same question on the same page get one entry, which saves work on a busy site ' +
      `at the start of each working ${tail} and more words after it.`;
    const app = appOf(
      parsePage(
        'guides/caching.md',
        `# Caching\n\n## Cache lifetime\n\nAnswers are cached for ten minutes. ${long('with `npm run build:packages && cd packages/server && npm start`')}\n`,
      ),
      parsePage(
        'reference/options.md',
        `# Options\n\n## cacheSeconds\n\nHow long cached answers are kept, in seconds. ${long('as [the options page of the server](./other.md) explains')}\n`,
      ),
    );
    const parts = await askIn(app, 'How long are cached answers kept?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    const places = placesOf(parts);
    expect(places).toHaveLength(2);
    for (const place of places) {
      expect(place).toMatch(/ …$/);
      // Every code span and link it opens, it closes.
      expect((place.match(/`/g) ?? []).length % 2, place).toBe(0);
      expect((place.match(/\[/g) ?? []).length, place).toBe((place.match(/\]/g) ?? []).length);
    }
  });

  it('never ends a place’s sentence at “e.g.”', async () => {
    // As aiohttp's web quickstart: "…a StreamResponse derived (e.g. Response) instance".
    const handler =
      'Handlers are coroutines. A handler returns a StreamResponse derived (e.g. [`Response`](response.md)) instance. ' +
      'The Response instance carries the body.';
    const app = appOf(
      parsePage('web/quickstart.md', `# Web quickstart\n\n## Handler\n\n${handler}\n`),
      parsePage('web/reference.md', `# Web reference\n\n## Handlers\n\n${handler}\n`),
    );
    const parts = await askIn(app, 'Which Response instance carries the body?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    expect(textOf(parts)).toContain(
      '> A handler returns a StreamResponse derived (e.g. [`Response`](',
    );
    expect(textOf(parts)).not.toMatch(/> \[`Response`\]/);
  });

  it('shows a list item’s words as a place’s sentence, not the code block inside it', async () => {
    // As python-requests-doc's "API Changes": an item holding a code block was one line,
    // "`Response.json` is now a callable … ```python import requests r = requests.get(...) …".
    const entry =
      '## API Changes\n\n- `Response.json` is now a callable and not a property of a response.\n\n' +
      '  ```python\n  import requests\n  r = requests.get("https://api.github.com/events")\n  r.json()\n  ```\n';
    const app = appOf(
      parsePage('api.md', `# Developer Interface\n\n${entry}`),
      parsePage('migrating.md', `# Migrating to 1.x\n\n${entry}`),
    );
    const parts = await askIn(app, 'Is Response.json a callable now?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    const places = placesOf(parts);
    expect(places.length).toBeGreaterThan(0);
    for (const place of places) {
      expect(place).toContain('is now a callable and not a property of a response');
      expect(place).not.toContain('```');
      expect(place).not.toContain('import requests');
    }
  });

  it('shows a nested list item as a place’s sentence, without the list’s markers', async () => {
    // As aiohttp's reference: `del_cookie`, "Deletes cookie." then Sphinx's "Parameters:" list (its
    // place read "Deletes cookie. Parameters: * **name** … * **domain** …").
    const entry = (name: string) =>
      `## ${name}\n\nDeletes cookie.\n\n* Parameters:\n\n  * **name** (\`str\`) – cookie name\n  * **domain** (\`str\`) – optional cookie domain\n  * **path** (\`str\`) – optional cookie path, \`'/'\` by default\n`;
    const app = appOf(
      parsePage('web_reference.md', `# Server Reference\n\n${entry('Response.del_cookie')}`),
      parsePage('client_reference.md', `# Client Reference\n\n${entry('Session.del_cookie')}`),
    );
    const parts = await askIn(app, 'Which cookie domain does del_cookie take?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    const places = placesOf(parts);
    expect(places.length).toBeGreaterThan(0);
    for (const place of places) {
      expect(place).toContain('**domain** (`str`) – optional cookie domain');
      expect(place).not.toMatch(/ \* \*\*/);
    }
  });

  it('shows a place’s list items as items, and marks a lead-in it leaves out', async () => {
    // As cmd2's docs: "hide commands from the help menu disable and re-enable commands at runtime"
    // ran two items on as one sentence, and "`poutput()` adds two conveniences:" was left out
    // with nothing to say so.
    const section = (name: string, more: string) =>
      `## ${name}\n\nCommands can be hidden ${more}. A developer may:\n\n` +
      '- hide commands from the help menu\n- disable and re-enable commands at runtime\n';
    const app = appOf(
      parsePage('guide.md', `# Guide\n\n${section('Basics', 'at runtime')}`),
      parsePage('manual.md', `# Manual\n\n${section('Usage', 'on start')}`),
    );
    const hiding = await askIn(app, 'How do I hide commands or disable them at runtime?');
    expect(levelsOf(hiding)).toEqual(['unsure']);
    expect(placesOf(hiding)).toContain(
      '  > Commands can be hidden at runtime.\n  >\n  > - … disable and re-enable commands at runtime',
    );
    const both = await askIn(
      app,
      'Can I hide commands from the help menu and disable or re-enable them?',
    );
    expect(levelsOf(both)).toEqual(['unsure']);
    expect(placesOf(both)).toContain(
      '  > - hide commands from the help menu\n  > - disable and re-enable commands at runtime',
    );
  });

  it('shows how a place that is code alone begins, rather than an empty place', async () => {
    const app = appOf(
      parsePage(
        'subscriptions.md',
        '# Subscriptions\n\n## Subscription filters\n\n```js\nconst { withFilter } = mercurius\n' +
          Array.from({ length: 8 }, (_, i) => `const step${i} = withFilter(filter${i})`).join(
            '\n',
          ) +
          '\n```\n',
      ),
      parsePage(
        'events.md',
        '# Subscription events\n\n## Subscription filters\n\nSubscription filters decide which events each client receives.\n',
      ),
    );
    const parts = await askIn(app, 'What are subscription filters?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    expect(textOf(parts)).toContain(
      '- **[Subscriptions › Subscription filters](http://test/docs/subscriptions#subscription-filters)** [1]\n\n' +
        '  ```js\n  const { withFilter } = mercurius\n  const step0 = withFilter(filter0)',
    );
    expect(textOf(parts)).toContain('  const step4 = withFilter(filter4)\n  …\n  ```');
  });

  it('offers places on different pages when unsure, since which page answers is what is unsure', async () => {
    // Nine pages of npm 10.9.0's docs (test/fixtures/corpus/npm, Artistic License 2.0): the
    // question is about `npm link`'s bin links and about package.json's `bin` alike.
    const docs = await loadDocsSite(resolve(import.meta.dirname, 'fixtures/corpus/npm'));
    const app = createApp({
      orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
      sites: [{ domain: DEMO.domain, org: 'o', docs }],
    });
    const parts = await askIn(app, 'What happens to bins when linking?');
    expect(levelsOf(parts)).toEqual(['unsure']);
    const places = [...textOf(parts).matchAll(/^- \*\*\[[^\]]+\]\((http[^)#]+)#?[^)]*\)\*\*/gm)];
    const pages = places.map((m) => m[1]);
    expect(pages).toHaveLength(3);
    expect(new Set(pages).size).toBe(3);
    expect(pages.slice(0, 2)).toEqual([
      'http://test/docs/commands/npm-link',
      'http://test/docs/configuring-npm/package-json',
    ]);
  });

  it('is unsure when the section that answers is on several pages word for word, and shows it once', async () => {
    // A reference that repeats an option's paragraph on every command taking it, as npm's does.
    const option = `## --dry-run

Reports what the command would change, without writing anything to disk or to the registry.
`;
    const app = appOf(
      parsePage('commands/publish.md', `# publish\n\nUploads a package.\n\n${option}`),
      parsePage('commands/install.md', `# install\n\nInstalls a package.\n\n${option}`),
      parsePage('guides/releases.md', '# Releases\n\nTag a release, then publish it.\n'),
    );
    const parts = await readStream(
      await post(app, askBody('How do I see what would change without writing to disk?')),
    );
    expect(levelsOf(parts)).toEqual(['unsure']);
    const text = textOf(parts);
    expect(text.match(/Reports what the command would change/g)).toHaveLength(1);
  });

  it('does not answer a question the sample docs do not cover with an unrelated snippet', async () => {
    const parts = await ask('How do I change the launcher position?');
    const text = textOf(parts);
    expect(['unsure', 'refused']).toContain(levelsOf(parts)[0]);
    expect(text).not.toMatch(/^From /);
    // Still where to look: a list of linked places.
    expect(text).toMatch(/^- (\*\*)?\[[^\]]+\]\(http:\/\/test\/docs\//m);
  });

  it('says it refused when nothing matches, and still offers where to look', async () => {
    const parts = await ask('Does it support single sign-on with SAML?');
    expect(levelsOf(parts)).toEqual(['refused']);
    expect(textOf(parts)).toContain('You might look at:');
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

  it('points at the nearest sections of docs that are one page', async () => {
    // As Beautiful Soup's manual (Debian's python-bs4-doc): one page of 150 sections, and a
    // refusal that offered only that page.
    const app = appOf(
      parsePage(
        'index.md',
        '# Beautiful Soup Documentation\n\nBeautiful Soup pulls data out of HTML files.\n\n' +
          '## Going up\n\nEvery tag and every string has a parent: the tag that contains it.\n\n' +
          '## find_parents()\n\nThese methods look at an element’s parents, the tags that contain it.\n\n' +
          '## .parents\n\nIterates over an element’s parents, each tag that contains it in turn.\n\n' +
          '## Pretty-printing\n\nThe prettify() method formats a parse tree.\n',
      ),
    );
    const text = textOf(
      await askIn(app, 'How do I climb from an element through what contains it, step by step?'),
    );
    expect(text).toMatch(/^The docs don't cover this\./);
    const looks = [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)$/gm)];
    expect(looks.length).toBe(3);
    expect(looks.map((m) => m[2])).toContain('http://test/docs#going-up');
    expect(looks.map((m) => m[1])).toContain('Beautiful Soup Documentation › Going up');
  });
});

describe('pages kept out of the site’s search', () => {
  // A changelog that mentions every feature would otherwise answer questions about them.
  const pages = () => [
    parsePage(
      'guide/retries.md',
      '# Retries\n\nSet `retries: 3` in the client options to retry a failed upload three times.\n',
    ),
    parsePage(
      'changelog.md',
      '---\nsearch: false\n---\n# Changelog\n\n## 2.0\n\nUploads are retried (`retries`), and the frobnicator was removed.\n',
    ),
    parsePage(
      'history.md',
      '---\npagefind: false\n---\n# History\n\nThe frobnicator was written in a weekend.\n',
    ),
    parsePage(
      'draft.md',
      '---\nunlisted: true\n---\n# Draft\n\nThe frobnicator may come back in 3.0.\n',
    ),
  ];
  const searchOf = async (app: ReturnType<typeof appOf>, query: string) => {
    const response = await app.request(`http://test/discovery/v1/search/${DEMO.domain}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${DEMO.assistantKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { path: string }[]).map((hit) => hit.path);
  };

  it('never quotes or cites a page whose front matter says search: false or pagefind: false', async () => {
    const app = appOf(...pages());
    const retries = await askIn(app, 'How do I retry a failed upload?');
    expect(sourcesOf(retries).map((source) => source.id)).toEqual(['/guide/retries']);
    expect(textOf(retries)).not.toContain('/docs/changelog');
    // Only the kept-out pages say "frobnicator": for the assistant, the docs never do.
    const frobnicator = await readStream(
      await post(app, askBody('What happened to the frobnicator?')),
    );
    expect(textOf(frobnicator)).toMatch(/^The docs don't cover this\./);
    expect(sourcesOf(frobnicator)).toEqual([]);
    expect(reasoningOf(frobnicator)).toContain('“frobnicator”');
    expect(await searchOf(app, 'frobnicator')).toEqual([]);
    expect(await searchOf(app, 'retries')).toEqual(['/guide/retries']);
  });

  it('still serves those pages, and lists them for agents unless they are unlisted', async () => {
    const app = appOf(...pages());
    const changelog = await app.request('http://test/docs/changelog.md');
    expect(changelog.status).toBe(200);
    expect(await changelog.text()).toContain('frobnicator was removed');
    const index = await (await app.request('http://test/llms.txt')).text();
    expect(index).toContain('http://test/docs/history');
    // Docusaurus's `unlisted: true`: served to whoever has the link, listed nowhere.
    expect(index).not.toContain('http://test/docs/draft');
    const draft = await app.request('http://test/docs/draft');
    expect(draft.status).toBe(200);
    const sidebar = /<nav[^>]*class="sidebar"[\s\S]*?<\/nav>/.exec(await draft.text())![0];
    expect(sidebar).toContain('/docs/guide/retries');
    expect(sidebar).not.toContain('/docs/draft');
  });
});

describe('follow-up questions', () => {
  /** Asks `first` of `app` in a new thread: its answer, and a follow-up asked in that thread. */
  async function threadOf(app: Parameters<typeof post>[0], first: string) {
    const response = await post(app, askBody(first));
    const threadId = response.headers.get('x-thread-id')!;
    const answer = await readStream(response);
    const followUp = async (question: string) =>
      readStream(
        await post(app, {
          fp: 'anonymous',
          threadId,
          messages: [userMessage(first), userMessage(question)],
        }),
      );
    return { answer, followUp };
  }

  /** A follow-up asked of the demo app after `first`. */
  async function followUp(first: string, second: string) {
    return (await threadOf(await demoApp(), first)).followUp(second);
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

  it('reads "the second one" as pointing at the earlier question, however many words follow', async () => {
    // As Django REST framework's routers: a question about two routers, then one about the second.
    const app = appOf(
      parsePage(
        'routers.md',
        '# Routers\n\n## SimpleRouter\n\nThe SimpleRouter includes routes for the standard list and detail actions.\n\n' +
          '## DefaultRouter\n\nThe DefaultRouter is like the SimpleRouter, and adds a root view. It also generates routes for optional `.json` style format suffixes.\n',
      ),
      parsePage(
        'format-suffixes.md',
        '# Format suffixes\n\nA URL pattern can end in a format suffix. `format_suffix_patterns` adds format suffix routes to your URL patterns.\n',
      ),
    );
    const first = 'What is the difference between SimpleRouter and DefaultRouter?';
    const thread = await threadOf(app, first);
    const parts = await thread.followUp('Does the second one also add format suffix routes?');
    expect(reasoningOf(parts)).toContain(`earlier question “${first}”`);
    expect(textOf(parts)).toMatch(/^From \*\*\[Routers › DefaultRouter\]/);
  });

  it('moves on from what the previous answer quoted, when the search found more', async () => {
    const app = appOf(
      parsePage(
        'pre-releases.md',
        '# Pre-releases\n\n## Publishing a beta\n\nPush to the beta branch to publish a beta version of the package.\n\n' +
          '## Releasing the beta branch to everyone\n\nWhen the beta branch is ready, merge the beta branch into main: its version is then released to every user.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall the tool with npm.\n'),
    );
    const first = 'How do I publish a beta version of the package?';
    const thread = await threadOf(app, first);
    const firstText = textOf(thread.answer);
    expect(firstText).toMatch(/^From \*\*\[Pre-releases › Publishing a beta\]/);
    const parts = await thread.followUp('And what about merging the beta branch?');
    // The earlier question's words still rank its section first; the answer leads with the other.
    expect(searchResultsOf(parts)[0]!.url).toBe('http://test/docs/pre-releases#publishing-a-beta');
    const text = textOf(parts);
    expect(text).toMatch(/^From \*\*\[Pre-releases › Releasing the beta branch to everyone\]/);
    expect(text).not.toContain('Push to the beta branch to publish');
  });

  it('offers next the sections beside the quoted one, never one the thread has already read', async () => {
    const app = appOf(
      parsePage(
        'storage.md',
        '# Storage state\n\nSave and restore what the browser keeps.\n\n' +
          '## Save the state\n\nRun `state-save` to write the state to a file.\n\n' +
          '## Restore the state\n\nRun `state-load` to read it back.\n\n' +
          '## List cookies\n\nRun `cookie-list` to see every cookie.\n\n' +
          '## Set a cookie\n\nRun `cookie-set name value` to set a cookie on the page.\n\n' +
          '## Delete a cookie\n\nRun `cookie-delete name` to remove one.\n\n' +
          '## Local storage\n\nRun `localstorage-list` to read it.\n',
      ),
    );
    const first = 'How do I set a cookie on the page?';
    const thread = await threadOf(app, first);
    const answer = thread.answer;
    expect(textOf(answer)).toMatch(/^From \*\*\[Storage state › Set a cookie\]/);
    // The sections after the quoted one, then the nearest above it, not the page's first ones.
    expect(suggestionsOf(answer)).toEqual([
      'Tell me about “Delete a cookie”',
      'Tell me about “Local storage” in “Storage state”',
      'Tell me about “List cookies” in “Storage state”',
    ]);
    const next = await thread.followUp('Tell me about “Delete a cookie”');
    expect(textOf(next)).toMatch(/^From \*\*\[Storage state › Delete a cookie\]/);
    // "Set a cookie" was the thread's previous answer: it is not offered again.
    expect(suggestionsOf(next).join('\n')).not.toContain('Set a cookie');
    expect(suggestionsOf(next).length).toBeGreaterThan(0);
  });

  it('quotes what it has not shown yet when a follow-up comes back to the section just quoted', async () => {
    // As python3-marshmallow-doc's Nesting Schemas: "What if there are many of them, a list?"
    // after "How do I nest one schema inside another?" repeated the answer word for word; the
    // note about lists sat further down the same section.
    const app = appOf(
      parsePage(
        'nesting.md',
        '# Nesting Schemas\n\nSchemas can be nested to represent relationships between objects.\n\n' +
          '```python\nclass Blog:\n    author = None\n```\n\n' +
          'Use a `Nested` field to represent the relationship, passing in a nested schema.\n\n' +
          '```python\nclass BlogSchema(Schema):\n    author = fields.Nested(UserSchema)\n```\n\n' +
          'The serialized blog will have the nested user representation.\n\n' +
          '**Note:** If the field is a collection of nested objects, pass the `Nested` field to `List`.\n\n' +
          '```python\ncollaborators = fields.List(fields.Nested(UserSchema))\n```\n',
      ),
      parsePage('install.md', '# Install\n\nInstall marshmallow with pip.\n'),
    );
    const first = 'How do I nest a schema in a schema?';
    const thread = await threadOf(app, first);
    const answer = textOf(thread.answer);
    expect(answer).toMatch(/^From \*\*\[Nesting Schemas\]/);
    expect(answer).not.toContain('fields.List');
    const parts = await thread.followUp('What if there are many of them, a list?');
    expect(textOf(parts)).toMatch(/^From \*\*\[Nesting Schemas\]/);
    expect(textOf(parts)).toContain('pass the `Nested` field to `List`');
    expect(textOf(parts)).toContain('fields.List(fields.Nested(UserSchema))');
  });

  it('reads "remove it again" after a question about creating something as the docs name its undoing', async () => {
    // As python-sqlalchemy-utils-doc (and npm's `uninstall`): "And how do I remove it again?" after
    // "How do I create a database from a connection URL?" was answered from an orphans listener
    // that "removes" rows; the docs call the undoing `drop_database`, beside `create_database`.
    const app = appOf(
      parsePage(
        'database-helpers.md',
        '# Database helpers\n\n## create_database\n\nIssue the appropriate CREATE DATABASE statement for the database at the given URL.\n\n' +
          '## drop_database\n\nIssue the appropriate DROP DATABASE statement for the database at the given URL.\n',
      ),
      parsePage(
        'listeners.md',
        '# Listeners\n\n## auto_delete_orphans\n\nRemove orphaned rows of a many-to-many association table whenever a parent row is deleted.\n',
      ),
    );
    const thread = await threadOf(app, 'How do I create a database from a connection URL?');
    expect(textOf(thread.answer)).toMatch(/^From \*\*\[Database helpers › create\\_database\]/);
    const undone = await thread.followUp('And how do I remove it again?');
    expect(textOf(undone)).toMatch(/^From \*\*\[Database helpers › drop\\_database\]/);
    // A follow-up asking something else keeps its own words.
    const other = await thread.followUp('And how do I remove orphaned rows?');
    expect(sourcesOf(other)[0]?.id).toBe('/listeners');
  });

  it('reads "remove one of them again" by what was made, not by the making', async () => {
    // As json-c's Doxygen build (Debian's libjson-c-doc): after "create an empty JSON array and
    // append items", a function whose text says "created" and "deleted" came before the one that
    // deletes an array's element.
    const app = appOf(
      parsePage(
        'json_object.md',
        '# json_object.h\n\n## json_object_new_array()\n\nCreate a new empty json_object of type json_type_array.\n\n' +
          '## json_object_array_add()\n\nAdd an element to the end of a json_object of type json_type_array.\n\n' +
          '## json_object_array_del_idx()\n\nDelete an element from a specified index in an array.\n\n' +
          '## json_object_set_userdata()\n\nThe user_delete function is called when the object is deleted, and userdata created for the object is freed then. Any object created may carry it; it is deleted with it.\n',
      ),
      parsePage('tokener.md', '# json_tokener.h\n\n## json_tokener_parse()\n\nParse a string.\n'),
    );
    const thread = await threadOf(
      app,
      'How do I create an empty JSON array and append items to it?',
    );
    const undone = await thread.followUp('And how do I remove one of them again?');
    // The first place the answer cites, quoted as sure or shown first.
    expect(textOf(undone)).toMatch(/^[^[]*\[[^\]]*json\\_object\\_array\\_del\\_idx\(\)\]/);
  });

  it('answers a follow-up from a section with its own words, and refuses one whose words the docs never use', async () => {
    // As python-attr-doc: "and how do I make them sortable?" after a question about hashing quoted
    // the hashing answer again, word for word, and so did "and can I make them ordered?".
    const app = appOf(
      parsePage(
        'hashing.md',
        '# Hashing\n\n## Hash Method Generation\n\nUnder certain circumstances objects must be hashable: to put them into a set, or to use them as keys in a dict. attrs writes a `__hash__` method for instances when you ask.\n',
      ),
      parsePage(
        'comparison.md',
        '# Comparison\n\nInstances are compared by their attributes. Pass `order=True` to generate the ordering methods as well, so that instances are ordered by their attributes.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall attrs with pip.\n'),
    );
    const first = 'How do I hash instances so I can put them in a set?';
    const thread = await threadOf(app, first);
    expect(sourcesOf(thread.answer)[0]?.id).toBe('/hashing');
    const ordered = await thread.followUp('And can I make them ordered?');
    expect(sourcesOf(ordered)[0]?.id).toBe('/comparison');
    const sortable = await thread.followUp('And how do I make them sortable?');
    expect(textOf(sortable)).toMatch(/^The docs don't cover this\./);
    expect(textOf(sortable)).not.toContain('attrs writes a `__hash__` method');
  });

  it('treats the pages a refusal offered to look at as not yet read', async () => {
    const app = appOf(
      parsePage(
        'install.md',
        '# Install\n\nInstall the tool with pip: `pip install tool`.\n\n## Upgrading\n\nUpgrade the tool with pip: `pip install -U tool`.\n',
      ),
      parsePage('usage.md', '# Usage\n\nRun the tool on a folder.\n'),
    );
    const first = 'How do I install it on a Commodore?';
    const thread = await threadOf(app, first);
    const refusal = thread.answer;
    expect(textOf(refusal)).toContain('- [Install](http://test/docs/install)');
    const parts = await thread.followUp('And with pip?');
    expect(textOf(parts)).toMatch(/^From \*\*\[Install\]\(/);
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

describe('answers on playwright-core’s docs (a newcomer’s trial)', () => {
  // Two pages of playwright-cli's reference as playwright-core 1.65.1 ships them (Apache-2.0,
  // test/fixtures/corpus/playwright-cli/LICENSE and NOTICE).
  const app = async () =>
    createApp({
      orgs: [{ id: 'o', plan: 'free', keys: [DEMO.assistantKey] }],
      sites: [
        {
          domain: DEMO.domain,
          org: 'o',
          docs: await loadDocsSite(resolve(import.meta.dirname, 'fixtures/corpus/playwright-cli')),
        },
      ],
    });

  it('answers under a page intro with the section it promises that the search also found', async () => {
    const parts = await readStream(
      await post(await app(), askBody('How do I record a video of the browser?')),
    );
    const text = textOf(parts);
    expect(text).toMatch(/^From \*\*\[Video Recording\]/);
    // The intro, then Basic Recording's commands, as the page has them; not "See also" after
    // sections the intro merely precedes.
    const basic = text.indexOf('**Basic Recording**');
    expect(basic).toBeGreaterThan(0);
    expect(text.indexOf('playwright-cli video-start')).toBeGreaterThan(basic);
    expect(text).not.toContain('Basic Recording](');
    expect(text).not.toContain('Use Descriptive Filenames');
  });

  it('offers the section after the quoted one next', async () => {
    const parts = await askIn(await app(), 'How do I set a cookie?');
    expect(textOf(parts)).toMatch(/^From \*\*\[Storage Management › Set a Cookie\]/);
    expect(suggestionsOf(parts)[0]).toBe('Tell me about “Delete a Cookie”');
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
    const text = textOf(await askIn(app, 'What kinds of hooks are there?'));
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
    const text = textOf(await askIn(app, 'How do I pretty print logs?'));
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
    const text = textOf(await askIn(app, 'Which plugin serves static files on my server?'));
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
    const parts = await askIn(app, 'Where is the charts gallery?');
    expect(sourcesOf(parts)[0]).toMatchObject({ id: '/', title: 'Acme' });
    expect(textOf(parts)).toMatch(/^From \*\*\[Acme › Additional documentation\]/);
  });

  it('never answers from a home page’s table of contents under a sentence of its own', async () => {
    // As python-babel-doc's index: "User Documentation" was the best place for a question about
    // showing prices to French users, for its one sentence and its links' titles.
    const pages = [
      'Introduction',
      'Installation',
      'Locale Data',
      'Date and Time',
      'Number Formatting',
    ];
    const slug = (title: string) => title.toLowerCase().replace(/ /g, '-');
    const app = appOf(
      parsePage(
        'index.md',
        '# Babel\n\nInternationalization utilities for Python.\n\n## User Documentation\n\n' +
          'The user documentation explains some core concept of the library and gives some information about how it can be used.\n\n' +
          pages.map((title) => `- [${title}](${slug(title)}.md)`).join('\n') +
          '\n',
      ),
      ...pages
        .slice(0, -1)
        .map((title) =>
          parsePage(`${slug(title)}.md`, `# ${title}\n\nAbout ${title.toLowerCase()}.\n`),
        ),
      parsePage(
        'number-formatting.md',
        '# Number Formatting\n\nUse `format_currency(1099.98, "EUR", locale="fr_FR")` to show an amount of money for users of a locale.\n',
      ),
    );
    for (const question of [
      'How do I show prices in euros for French users?',
      'How can users format numbers?',
    ]) {
      const parts = await askIn(app, question);
      expect(
        searchResultsOf(parts).map((hit) => hit.url),
        question,
      ).not.toContainEqual(expect.stringMatching(/#user-documentation$/));
      expect(sourcesOf(parts)[0]?.id, question).toBe('/number-formatting');
    }
  });

  it('does not end a quote on a lead-in whose list of links is left out as a table of contents', async () => {
    const app = appOf(
      parsePage(
        'start.md',
        '# Getting started\n\nThe widget runs on any site. There are two ways to start:\n\n' +
          '- [With npm](#with-npm)\n- [With a script tag](#with-a-script-tag)\n\n' +
          '## With npm\n\nInstall the package.\n\n## With a script tag\n\nPaste the tag.\n',
      ),
    );
    const text = textOf(await askIn(app, 'How do I get started?'));
    expect(text).toContain('The widget runs on any site.');
    // Either what the lead-in introduces follows it, or the lead-in is not quoted.
    const leadIn = text.indexOf('There are two ways to start:');
    if (leadIn >= 0) expect(text.slice(leadIn)).toMatch(/^There are two ways to start:\n>?\n?> - /);
  });

  it('quotes a sentence that the list below it finishes with that list', async () => {
    // As xarray's plotting page: "It is required to explicitly specify either" ended a quote, the
    // two options it names left out.
    const more = Array.from(
      { length: 6 },
      (_, i) => `Styling option ${i} changes the colours of the figure.\n\n`,
    ).join('');
    const app = appOf(
      parsePage(
        'plotting.md',
        '# Plotting\n\n## Multiple lines\n\nLine plots of two-dimensional data draw one line for each value:\n\n' +
          '```python\nair.plot.line(x="time")\n```\n\n' +
          'To draw the lines it is required to explicitly specify either\n\n' +
          '1. `x`: the dimension for the x-axis, or\n2. `hue`: the dimension for the colours.\n\n' +
          more,
      ),
    );
    const text = textOf(await askIn(app, 'How do I draw lines of two-dimensional data?'));
    expect(text).toContain('Line plots of two-dimensional data');
    const at = text.indexOf('specify either');
    if (at >= 0) expect(text.slice(at)).toMatch(/^specify either\n>\n> 1\. `x`/);
  });

  it('shows the sections a lead-in above a table of contents promises, and never an empty quote', async () => {
    const app = appOf(
      parsePage(
        'time-zones.md',
        '# Time zones\n\nStarting from v4, the library supports time zones through two packages.\n\n' +
          '## Working with time zones\n\nThere are two ways to start working with time zones:\n\n' +
          '- [Using TZDate](#using-tzdate)\n- [Using the in option](#using-the-in-option)\n\n' +
          '### Using TZDate\n\nOne way is to use the TZDate class with regular functions.\n\n' +
          '### Using the in option\n\nThe other way is the in option of every function.\n\n' +
          'Each function accepts it, so you can say what time zone to use:\n\n' +
          '```js\naddHours(date, 2, { in: tz("Asia/Singapore") });\n```\n',
      ),
      parsePage('release.md', '# Releasing\n\nA new version is published from the main branch.\n'),
    );
    for (const question of [
      'How do I work with time zones?',
      'What are the ways to start working with time zones?',
    ]) {
      const text = textOf(await askIn(app, question));
      // Every "From …:" and "See also …:" is followed by something it introduces.
      const lines = text.split('\n').filter((line) => line.trim());
      lines.forEach((line, i) => {
        if (/^(From|See also) .*:$/.test(line))
          expect(lines[i + 1], `${question}\n${text}`).toMatch(/^(> |\*\*|```(?!suggestions))/);
      });
      expect(text, question).toContain('One way is to use the TZDate class');
      expect(text, question).toContain('The other way is the in option');
      // A promised section's lead-in brings what it introduces.
      expect(text, question).toContain(
        'say what time zone to use:\n\n```js\naddHours(date, 2, { in: tz("Asia/Singapore") });',
      );
    }
  });

  it('quotes a code block a little over the limit whole, and cuts a long one with “…”', async () => {
    const steps = (n: number, last: string) =>
      [...Array.from({ length: n - 1 }, (_, i) => `  - step ${i + 1}`), `  - ${last}`].join('\n');
    const app = appOf(
      parsePage(
        'workflow.md',
        '# Workflow\n\n## Release workflow\n\nThe release workflow runs these steps:\n\n' +
          `\`\`\`yaml\nsteps:\n${steps(35, 'run: npx release-tool')}\n\`\`\`\n\n` +
          '## Audit workflow\n\nThe audit workflow runs these steps:\n\n' +
          `\`\`\`yaml\nsteps:\n${steps(80, 'run: npx audit-tool')}\n\`\`\`\n`,
      ),
    );
    const release = textOf(await askIn(app, 'Which steps does the release workflow run?'));
    expect(release).toContain('  - step 34\n  - run: npx release-tool\n```');
    const audit = textOf(await askIn(app, 'Which steps does the audit workflow run?'));
    // Cut to the 30 lines holding the most of the question's words: the end, whose last step
    // runs the audit.
    expect(audit).toContain('```yaml\n…\n  - step 51\n');
    expect(audit).toContain('  - run: npx audit-tool\n```');
    expect(audit).not.toContain('  - step 50\n');
  });

  it('marks where a long list or table is cut, so items far apart do not read as neighbours', async () => {
    const items = Array.from({ length: 20 }, (_, i) =>
      i === 2 || i === 16
        ? `- \`depth${i}\`: limits the query depth`
        : `- \`option${i}\`: a setting`,
    );
    const rows = Array.from({ length: 20 }, (_, i) =>
      i === 4 ? '| `queryDepth` | the query depth limit |' : `| \`opt${i}\` | a setting |`,
    );
    const app = appOf(
      parsePage(
        'options.md',
        '# Options\n\n## Plugin options\n\nThe plugin supports the following options:\n\n' +
          `${items.join('\n')}\n\n## Option table\n\n| Option | Meaning |\n|---|---|\n${rows.join('\n')}\n`,
      ),
      parsePage('install.md', '# Install\n\nInstall the tool with npm.\n'),
    );
    const list = textOf(await askIn(app, 'Which plugin option limits the query depth?'));
    expect(list).toContain(
      '> The plugin supports the following options:\n>\n> …\n>\n> - `depth2`: limits the query depth\n>\n> …\n>\n> - `depth16`: limits the query depth\n>\n> …',
    );
    const table = textOf(
      await readStream(
        await post(app, askBody('Which row of the option table is the depth limit?')),
      ),
    );
    expect(table).toContain(
      '> | Option | Meaning |\n> |---|---|\n> | … | |\n> | `queryDepth` | the query depth limit |\n> | … | |',
    );
  });

  it('quotes a long table’s rows without the padding its widest row set', async () => {
    // As python-pygments-doc's Languages table, built to Markdown with every cell padded to the
    // widest of 500 rows: three quoted rows ran hundreds of spaces wide.
    const wide = 'A language whose name is much longer than any other in the table';
    const names = [wide, ...Array.from({ length: 30 }, (_, i) => `Language ${i}`), 'PostgreSQL'];
    const width = wide.length;
    const row = (name: string, lexer: string) => `| ${name.padEnd(width)} | ${lexer.padEnd(16)} |`;
    const table = [
      row('Name', 'Lexer class'),
      `| ${'-'.repeat(width)} | ${'-'.repeat(16)} |`,
      ...names.map((name, i) => row(name, name === 'PostgreSQL' ? 'PostgresLexer' : `Lexer${i}`)),
    ].join('\n');
    const app = appOf(
      parsePage('languages.md', `# Languages\n\n${table}\n`),
      parsePage('install.md', '# Install\n\nInstall the tool with pip.\n'),
    );
    const text = textOf(await askIn(app, 'Which lexer class highlights PostgreSQL?'));
    expect(text).toContain('> | PostgreSQL | PostgresLexer |');
    expect(text).toContain('> | Name | Lexer class |\n> | --- | --- |');
    expect(text).not.toMatch(/ {2}\|/);
  });

  it('cuts a long paragraph to its matching sentences, bringing what a “This” refers to', async () => {
    const filler = Array.from(
      { length: 12 },
      (_, i) => `Sentence ${i + 1} of this paragraph is about something else entirely.`,
    );
    const app = appOf(
      parsePage(
        'persisted.md',
        '# Persisted queries\n\n## Why\n\n' +
          [
            ...filler.slice(0, 6),
            'GraphQL query strings are often larger than the URLs they are sent in.',
            'This can be a significant overhead for mobile clients on slow networks.',
            ...filler.slice(6),
          ].join(' ') +
          '\n',
      ),
      parsePage('install.md', '# Install\n\nInstall the tool with npm.\n'),
    );
    const text = textOf(await askIn(app, 'Why is there overhead for mobile clients?'));
    // Neighbours read on without a "…"; the sentence "This" refers to comes along.
    expect(text).toContain(
      'GraphQL query strings are often larger than the URLs they are sent in. This can be a significant overhead for mobile clients on slow networks.',
    );
  });

  it('brings the paragraph that a paragraph opening on “…, this” points back at', async () => {
    const app = appOf(
      parsePage(
        'persisted.md',
        '# Persisted queries\n\n## Why\n\nGraphQL query strings are often larger than URLs.\n\n' +
          'Depending on the client, this can be a significant overhead for each request.\n\n' +
          'Persisted queries cut the overhead of each request with a generated id.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall the tool with npm.\n'),
    );
    const text = textOf(
      await readStream(
        await post(app, askBody('Is there a significant overhead for each request?')),
      ),
    );
    expect(text).toContain(
      '> GraphQL query strings are often larger than URLs.\n>\n> Depending on the client, this can be a significant overhead',
    );
  });

  it('cuts a long code block to the lines that hold the question’s words', async () => {
    const filler = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `const user${from + i} = { id: ${from + i} }`).join('\n');
    const app = appOf(
      parsePage(
        'errors.md',
        '# Errors\n\n## Extensions\n\nErrors can carry extensions:\n\n' +
          `\`\`\`js\n'use strict'\n${filler(1, 40)}\n` +
          "throw new ErrorWithProps('Invalid user', { code: 'USER_INVALID' })\n" +
          `${filler(41, 15)}\n\`\`\`\n`,
      ),
      parsePage('install.md', '# Install\n\nInstall the tool with npm.\n'),
    );
    const text = textOf(await askIn(app, 'How do I add extensions to a thrown error?'));
    expect(text).toContain("throw new ErrorWithProps('Invalid user', { code: 'USER_INVALID' })");
    // What is left out on either side is marked.
    expect(text).toMatch(/```js\n…\nconst user\d+ = /);
    expect(text).toMatch(/const user\d+ = \{ id: \d+ \}\n…\n```/);
    expect(text).not.toContain("'use strict'");
  });

  it('quotes the paragraph with a four-letter word ending in “y”, whose stem ends in “i”', async () => {
    const app = appOf(
      parsePage(
        'requests.md',
        '# Requests\n\n## Parsing\n\nThe headers are parsed first.\n\n' +
          'The route is parsed next.\n\nIts body is parsed last, as a stream.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall the tool with npm.\n'),
    );
    const text = textOf(await askIn(app, 'When is the body parsed?'));
    expect(text).toContain('Its body is parsed last, as a stream.');
  });

  it('quotes a list the page indents as one list, its links still pointing where they should', async () => {
    const app = appOf(
      parsePage(
        'hooks.md',
        '# Hooks\n\n## preExecution\n\nIn the preExecution hook you can replace these items:\n' +
          '  - `document`\n  - `schema`, see [the schema guide](./schema.md)\n  - `variables`\n\n' +
          'Replacing the schema turns off compilation.\n',
      ),
      parsePage('schema.md', '# Schema\n\nThe schema is built once.\n'),
    );
    const text = textOf(await askIn(app, 'Which items can the preExecution hook replace?'));
    expect(text).toContain(
      '> - `document`\n> - `schema`, see [the schema guide](http://test/docs/schema)\n> - `variables`',
    );
  });

  it('brings the example a quoted sentence points back at, or leaves the sentence out', async () => {
    const app = appOf(
      parsePage(
        'retries.md',
        '# Retries\n\n## Retrying requests\n\n```js\nclient({ retries: 3 })\n```\n\n' +
          'Failed requests are retried with a growing delay. In the example above, a request is retried three times before it fails.\n\n' +
          '## Timeouts\n\nA request gives up after 30 seconds. In the example above, the timeout is left at its default.\n\n' +
          '## Limits\n\n```js\nclient({ limit: 5 })\n```\n\nIn the example, the client sends at most five requests at once.\n',
      ),
    );
    const retried = textOf(await askIn(app, 'How are failed requests retried?'));
    expect(retried).toContain('In the example above, a request is retried three times');
    expect(retried).toContain('client({ retries: 3 })');
    const timeout = textOf(await askIn(app, 'When does a request give up with a timeout?'));
    expect(timeout).toContain('A request gives up after 30 seconds.');
    expect(timeout).not.toContain('the timeout is left at its default');
    // "In the example, …" points back too (not "in the example below").
    const limit = textOf(await askIn(app, 'How many requests are sent at once?'));
    expect(limit).toContain('the client sends at most five requests at once');
    expect(limit).toContain('client({ limit: 5 })');
  });

  it('leaves out a sentence about something “defined above” that the quote does not show, not a bracketed cross-reference', async () => {
    // As xarray's plotting page: "Consider the 3D variable `air` defined above." opened a quote
    // that never showed `air`; its I/O page's "(described above)" only names another section.
    const app = appOf(
      parsePage(
        'plotting.md',
        '# Plotting\n\n## Data\n\n```python\nair = load("air")\n```\n\n## Multiple lines\n\n' +
          'Consider the variable `air` defined above. Line plots show how a value varies along a dimension.\n\n' +
          '## Compression\n\nChunk based compression is slow. We recommend trying scaled compression (described above) first.\n',
      ),
    );
    const lines = textOf(await askIn(app, 'How do line plots show how a value varies?'));
    expect(lines).toContain('Line plots show how a value varies along a dimension.');
    expect(lines).not.toContain('defined above');
    const compression = textOf(await askIn(app, 'Which compression do you recommend?'));
    expect(compression).toContain(
      'We recommend trying scaled compression (described above) first.',
    );
  });

  it('cuts a long list item after what fits, its signature, summary and example first', async () => {
    // As SQLAlchemy's PostgreSQL types (Debian's python-sqlalchemy-doc): each API entry one list
    // item, with its methods nested in it; the ARRAY entry alone was 8 KB of a 22 KB answer.
    const methods = Array.from(
      { length: 12 },
      (_, i) =>
        `  * *method* contains_${i}(*other*)\n\n    Boolean expression. Test if elements are a superset of the elements of the argument expression, number ${i} of twelve.`,
    ).join('\n\n');
    const app = appOf(
      parsePage(
        'postgresql.md',
        '# PostgreSQL\n\n## Data types\n\nTypes specific to PostgreSQL:\n\n' +
          '* *class* ARRAY(*item_type*, *dimensions=None*)\n\n  PostgreSQL ARRAY type for columns of arrays.\n\n' +
          '  ```python\n  Column("data", postgresql.ARRAY(Integer, dimensions=2))\n  ```\n\n' +
          `${methods}\n\n  The last paragraph of the ARRAY entry.\n\n` +
          '* *class* HSTORE\n\n  Represent the PostgreSQL HSTORE type for columns of arrays.\n',
      ),
      parsePage('engines.md', '# Engines\n\nAn engine connects to a database.\n'),
    );
    const text = textOf(await askIn(app, 'Which type stores PostgreSQL arrays in a column?'));
    expect(text).toContain('PostgreSQL ARRAY type for columns of arrays.');
    expect(text).toContain('postgresql.ARRAY(Integer, dimensions=2)');
    expect(text).toContain('contains_0(');
    expect(text).not.toContain('contains_11(');
    expect(text).not.toContain('The last paragraph of the ARRAY entry.');
    expect(text).toMatch(/^> {3}…$/m);
    // The next, short item is whole.
    expect(text).toContain('Represent the PostgreSQL HSTORE type for columns of arrays.');
  });

  it('quotes one question and answer of an FAQ, not the next question’s code', async () => {
    // As pexpect's FAQ (Debian's python-pexpect-doc): bold questions, each answer after it.
    const app = appOf(
      parsePage(
        'faq.md',
        '# FAQ\n\n**Q: Where can I get help with pexpect? Is there a mailing list?**\n\n' +
          'A: You can use the pexpect tag on Stackoverflow. For more general help, try the mailing list.\n\n' +
          '**Q: Why don’t shell pipe and redirect work when I spawn a command?**\n\n' +
          'A: Pexpect does not interpret shell meta characters. Start a shell to run the list of commands:\n\n' +
          '```python\nchild = pexpect.spawn(\'/bin/bash -c "ls -l | grep LOG"\')\n```\n\n' +
          '**Q: Why not just use Expect?**\n\nA: I wanted something that did 90% of what Expect does in Python.\n',
      ),
      parsePage('install.md', '# Installation\n\nPexpect is on PyPI.\n'),
    );
    const help = textOf(await askIn(app, 'Is there a mailing list where I can get help?'));
    expect(help).toContain('try the mailing list');
    expect(help).not.toContain('pexpect.spawn');
    expect(help).not.toContain('meta characters');
    const pipes = textOf(await askIn(app, 'Why does a pipe not work when I spawn a command?'));
    expect(pipes).toContain('does not interpret shell meta characters');
    expect(pipes).toContain('pexpect.spawn(');
  });

  it('goes on with a sentence the quoted code interrupts', async () => {
    // As pytest's "Using print statements for debugging" (Debian's python-pytest-doc).
    const app = appOf(
      parsePage(
        'capture.md',
        '# How to capture output\n\n## Using print statements for debugging\n\n' +
          'One benefit of capturing output is that you can use print statements for debugging:\n\n' +
          '```python\ndef test_func2():\n    print("here")\n    assert False\n```\n\n' +
          'and running this module will show you precisely the output of the failing function.\n\n' +
          'Output of passing tests is hidden.\n',
      ),
      parsePage('other.md', '# Fixtures\n\n## Using fixtures\n\nFixtures give tests their data.\n'),
    );
    const text = textOf(await askIn(app, 'How do I use print statements for debugging?'));
    expect(text).toMatch(/assert False\n```\n\n> and running this module will show you precisely/);
  });

  it('cites a heading that shows HTML as text with the tags escaped, so no renderer opens them', async () => {
    // As json-c's README in its Doxygen build: "Linking to <tt>libjson-c</tt> <a name="linking">".
    const app = appOf(
      parsePage(
        'index.md',
        '# json-c\n\n## Linking to &lt;tt&gt;libjson-c&lt;/tt&gt; &lt;a name="linking"&gt;\n\nLink your program with `-ljson-c` after installing the library.\n',
      ),
      parsePage('other.md', '# Parsing\n\n## Tokener\n\nThe tokener parses text.\n'),
    );
    const text = textOf(await askIn(app, 'How do I link my program with libjson-c?'));
    expect(text).toContain('[json-c › Linking to \\<tt>libjson-c\\</tt> \\<a name="linking">](');
  });

  it('cuts a long paragraph of line breaks without leaving the breaks as backslashes', async () => {
    // As gettext's FAQ (Debian's gettext-doc, texi2html): paragraphs of sentences over `<br>`
    // pairs, read as "\\" line ends; an excerpt joined onto one line read "… \\ \\ …".
    const filler = Array.from(
      { length: 8 },
      (_, i) =>
        `Sentence ${i + 1} of the answer speaks of other tools and their settings at length.`,
    );
    const paragraph = [
      ...filler.slice(0, 4),
      'The msgfmt program compiles a catalog into a binary message file.',
      ...filler.slice(4),
    ].join('\\\n\\\n');
    const app = appOf(
      parsePage('faq.md', `# FAQ\n\n## Compiling catalogs\n\n${paragraph}\n`),
      parsePage('other.md', '# Install\n\n## Building\n\nRun configure and make.\n'),
    );
    const text = textOf(
      await askIn(app, 'Which program compiles a catalog into a binary message file?'),
    );
    expect(text).toContain('The msgfmt program compiles a catalog into a binary message file.');
    expect(text).not.toMatch(/\\ /);
  });

  it("quotes a member's prototype and summary with the part that matches, as an API entry's", async () => {
    // As json-c's Doxygen build (Debian's libjson-c-doc): the quote of `json_object_object_get_ex`
    // began "…" and its ownership note, without saying what the function does.
    const app = appOf(
      parsePage(
        'json_object.md',
        '# json_object.h\n\n### json_object_object_get_ex()\n\n```\nJSON_EXPORT json_bool json_object_object_get_ex(const struct json_object * obj, const char * key, struct json_object ** value)\n```\n\n' +
          'Get the json_object associated with a given object field.\n\n' +
          'This returns true if the key is found, false in all other cases.\n\n' +
          '*No* reference counts will be changed. Ownership of the value stays with the object, so you need not put the value back.\n\n' +
          '### json_object_object_add()\n\n```\nJSON_EXPORT int json_object_object_add(struct json_object * obj, const char * key, struct json_object * val)\n```\n\nAdd an object field to a json_object.\n',
      ),
      parsePage('tokener.md', '# json_tokener.h\n\n### json_tokener_parse()\n\nParse a string.\n'),
    );
    const text = textOf(await askIn(app, 'Who owns the value I get for a key of an object?'));
    expect(text).toMatch(
      /json_object_object_get_ex\(const struct[^\n]*\n```\n\n> Get the json_object associated with a given object field\./,
    );
    expect(text).toContain('Ownership of the value stays with the object');
  });

  it("chooses a member's matching blocks among those after its prototype and summary", async () => {
    // As JsonCpp's Doxygen build (Debian's libjsoncpp-doc): `write()` was quoted with its
    // prototype and summary alone, chosen for the question's words, though both are always quoted,
    // and its "Returns" note, which answers the question, was left out.
    const app = appOf(
      parsePage(
        'stream_writer.md',
        '# Json::StreamWriter Class Reference\n\n### write()\n\n```\nvirtual int Json::StreamWriter::write(Value const & root, OStream * sout)\n```\n\n' +
          'Write Value into document as configured in sub-class.\n\n' +
          'Do not take ownership of sout, but maintain a reference during function.\n\n' +
          '* Precondition\n\n  sout != NULL\n\n' +
          '- Returns\n\n  zero on success (For now, we always return zero, so check the stream instead.)\n',
      ),
      parsePage('reader.md', '# Json::Reader Class Reference\n\n### parse()\n\nRead a Value.\n'),
    );
    const text = textOf(
      await askIn(
        app,
        'What does StreamWriter::write() return, and how do I detect that writing failed?',
      ),
    );
    expect(text).toContain('> Write Value into document as configured in sub-class.');
    expect(text).toContain(
      'zero on success (For now, we always return zero, so check the stream instead.)',
    );
  });

  it('keeps a sentence a displayed formula interrupts whole, the formula in it', async () => {
    // As SymPy's tutorial (Debian's python-sympy-doc), whose formulas Sphinx draws as pictures of
    // their LaTeX: quotes began "is `limit(f(x), x, x0)`." and ended "For example, to compute".
    const formula = (latex: string, file: string) => `![${latex}](_images/math/${file}.png)`;
    const app = appOf(
      parsePage(
        'calculus.md',
        '# Calculus\n\n## Limits\n\nSymPy can compute symbolic limits with the `limit` function. The syntax to compute\n\n' +
          `${formula('\\lim_{x\\to x_0} f(x)', 'a1')}\n\n` +
          'is `limit(f(x), x, x0)`.\n\n```pycon\n>>> limit(sin(x)/x, x, 0)\n1\n```\n\n' +
          'Infinite points are written `oo`, and a limit there is computed the same way.\n\n' +
          "To evaluate a limit at one side only, pass `'+'` or `'-'` as a fourth argument to `limit`. For example, to compute\n\n" +
          `${formula('\\lim_{x\\to 0^+}\\frac{1}{x},', 'b2')}\n\n` +
          "do\n\n```pycon\n>>> limit(1/x, x, 0, '+')\noo\n```\n",
      ),
      parsePage(
        'other.md',
        '# Series\n\n## Expansion\n\nSeries expand a function around a point.\n',
      ),
    );
    const syntax = textOf(await askIn(app, 'What is the syntax of limit?'));
    expect(syntax).toMatch(
      /> SymPy can compute symbolic limits with the `limit` function\. The syntax to compute\n>\n> !\[[^\]]*\]\([^)]*a1\.png\)\n>\n> is `limit\(f\(x\), x, x0\)`\./,
    );
    const side = textOf(await askIn(app, 'How do I evaluate a limit at one side only?'));
    expect(side).toMatch(/to compute\n>\n> !\[[^\]]*\]\([^)]*b2\.png\)\n>\n> do\n/);
  });

  it('starts a sentence the code interrupts, or one that points back at the code, where it begins', async () => {
    // As Pygments' "Command Line Interface" and Sphinx's tutorial (Debian's python-pygments-doc,
    // sphinx-doc): quotes began "will print the file test.py…" and "This will present to you…".
    const app = appOf(
      parsePage(
        'cli.md',
        '# Command line\n\n## Highlighting a file\n\nYou can highlight from the shell once the script is installed:\n\n' +
          '```console\n$ highlight test.py\n```\n\n' +
          'will print the file test.py to standard output with the terminal colours.\n\n' +
          'Other formats are chosen with an option:\n\n```console\n$ highlight -f html test.py\n```\n\n' +
          'The option names the format. Each format has its own options, listed on its page.\n\n' +
          'Colours depend on the terminal: the script reads the environment to find how many it shows.\n\n' +
          '## Starting a project\n\nRun the following command:\n\n```console\n$ quickstart docs\n```\n\n' +
          'This will ask you a series of questions about the layout of your project.\n\n' +
          'The answers are written to a configuration file, which you can edit later:\n\n```toml\nname = "docs"\n```\n\n' +
          'Then build the project once to see the result.\n',
      ),
      parsePage(
        'other.md',
        '# Styles\n\n## Choosing a style\n\nStyles set the colours of tokens.\n',
      ),
    );
    const print = textOf(await askIn(app, 'How do I print a file to standard output?'));
    expect(print).toMatch(
      /> You can highlight from the shell once the script is installed:\n\n```console\n\$ highlight test.py\n```\n\n> will print the file/,
    );
    const layout = textOf(
      await askIn(app, 'Which questions does it ask about the project layout?'),
    );
    expect(layout).toMatch(
      /> Run the following command:\n\n```console\n\$ quickstart docs\n```\n\n> This will ask you a series of questions/,
    );
  });

  it('cuts a long nested list, and a “See also” section’s lists shorter than the answer’s', async () => {
    // As aiohttp's Client Reference: Sphinx's "Parameters:" is one item, its twenty parameters
    // nested under it; quoted as "See also" under a quickstart's answer, it ran to a hundred lines.
    const parameters = Array.from(
      { length: 20 },
      (_, i) => `  * **option${i}** – Sets option ${i} of the session.`,
    ).join('\n');
    const app = appOf(
      parsePage(
        'client.md',
        '# Client\n\n## JSON Request\n\nAny of the session methods can post JSON: pass `json=` to `session.post()` and the session encodes the JSON request body.\n\n' +
          `## ClientSession\n\nThe session makes requests; post JSON with it.\n\n* Parameters:\n\n${parameters}\n`,
      ),
      parsePage('server.md', '# Server\n\n## Handlers\n\nA handler answers a request.\n'),
    );
    const text = textOf(await askIn(app, 'How do I post JSON with the session?'));
    expect(text).toMatch(/^From \*\*\[Client › JSON Request\]/);
    const seeAlso = text.slice(text.indexOf('See also'));
    expect(seeAlso).toContain('> * Parameters:');
    expect(seeAlso.match(/\*\*option\d+\*\*/g)).toHaveLength(5);
    expect(seeAlso).toContain('>   …');
    // As the answer itself, the reference shows fifteen.
    const reference = textOf(await askIn(app, 'Which parameters does ClientSession take?'));
    expect(reference).toMatch(/^From \*\*\[Client › ClientSession\]/);
    expect(reference.match(/\*\*option\d+\*\*/g)).toHaveLength(15);
  });

  it('shows fewer lines of a “See also” section’s code than of the answer’s', async () => {
    // As factory_boy's recipes: "Django models with GenericForeignKeys" added 60 lines of code
    // under the answer to "How do I write a factory for a Django model?".
    const code = Array.from({ length: 40 }, (_, i) => `    field_${i} = factory.Faker('word')`);
    const app = appOf(
      parsePage(
        'orms.md',
        '# ORMs\n\n## Writing a Django model factory\n\nTo write a factory for a Django model, subclass `DjangoModelFactory`:\n\n' +
          '```python\nclass UserFactory(factory.django.DjangoModelFactory):\n    class Meta:\n        model = User\n```\n\n' +
          '## Django models with many fields\n\nWrite the factory of a model of many fields as any other:\n\n' +
          `\`\`\`python\nclass ItemFactory(factory.django.DjangoModelFactory):\n${code.join('\n')}\n\`\`\`\n`,
      ),
      parsePage('server.md', '# Server\n\n## Handlers\n\nA handler answers a request.\n'),
    );
    const text = textOf(await askIn(app, 'How do I write a factory for a Django model?'));
    expect(text).toMatch(/^From \*\*\[ORMs › Writing a Django model factory\]/);
    const seeAlso = text.slice(text.indexOf('See also'));
    expect(seeAlso).toMatch(/^See also \*\*\[ORMs › Django models with many fields\]/);
    expect(seeAlso.match(/field_\d+ =/g)).toHaveLength(11);
    expect(seeAlso).toContain('\n…\n');
    // As the answer itself, the section shows all of it (under 45 lines).
    const whole = textOf(await askIn(app, 'Django models with many fields'));
    expect(whole).toMatch(/^From \*\*\[ORMs › Django models with many fields\]/);
    expect(whole.match(/field_\d+ =/g)).toHaveLength(40);
  });

  it('marks the blocks a quote leaves out between two it shows, and only there', async () => {
    // As pytest's "Skipping test functions" (Debian's python-pytest-doc, a newcomer's trial).
    const app = appOf(
      parsePage(
        'skipping.md',
        '# Skipping tests\n\n## Skipping test functions\n\n' +
          'The simplest way to skip a test function is to mark it with the `skip` decorator, which takes an optional reason:\n\n' +
          '```python\n@pytest.mark.skip(reason="not yet")\ndef test_the_unknown(): ...\n```\n\n' +
          'Alternatively, call `pytest.skip(reason)` during the test run:\n\n' +
          '```python\ndef test_function():\n    if not valid_config():\n        pytest.skip("unsupported configuration")\n```\n\n' +
          'The imperative method is useful when it is not possible to evaluate the skip condition during import time.\n',
      ),
      parsePage(
        'fixtures.md',
        '# Fixtures\n\n## Using fixtures\n\nFixtures give tests their data.\n',
      ),
    );
    const apart = textOf(
      await askIn(app, 'Can the skip decorator evaluate the skip condition at import time?'),
    );
    expect(apart).toMatch(
      /def test_the_unknown\(\): \.\.\.\n```\n\n> …\n>\n> The imperative method is useful/,
    );
    // Next to each other in the docs: no mark.
    const together = textOf(await askIn(app, 'How do I skip a test function with a reason?'));
    expect(together).toContain('Alternatively, call `pytest.skip(reason)`');
    expect(together).not.toContain('…');
  });

  it('brings the list a sentence naming "the following" introduces, though it ends in a full stop', async () => {
    // As Django REST framework's TokenAuthentication section writes it.
    const app = appOf(
      parsePage(
        'auth.md',
        '# Authentication\n\n## Token authentication\n\nThis scheme uses a simple token-based HTTP header.\n\n' +
          'If successfully authenticated, token authentication provides the following credentials.\n\n' +
          '- `request.user` will be a Django `User` instance.\n- `request.auth` will be a `Token` instance.\n\n' +
          '## Session authentication\n\nThis scheme uses the session backend.\n',
      ),
    );
    const text = textOf(
      await readStream(
        await post(app, askBody('Which credentials does token authentication provide?')),
      ),
    );
    expect(text).toContain('provides the following credentials.');
    expect(text).toContain('> - `request.user` will be a Django `User` instance.');
    expect(text).toContain('> - `request.auth` will be a `Token` instance.');
  });

  it('brings the output "As you can see" points at, or leaves the sentence out', async () => {
    // As cookiecutter's "Overwriting Default Choice Values": the prompt's output, an admonition's
    // title, then the note that reads it.
    const app = appOf(
      parsePage(
        'choices.md',
        '# Choices\n\n## Default choice\n\nThe first value of a choice list is its default.\n\n' +
          '```text\nSelect license:\n1 - Apache\n2 - MIT\nChoose from 1, 2 [1]:\n```\n\nNote\n\n' +
          'As you can see, the order of the license options changed: the default license comes first.\n\n' +
          '## Prompts\n\nEach variable is prompted for in order. As you can see, the default license is offered first.\n',
      ),
    );
    const shown = textOf(
      await readStream(
        await post(app, askBody('Why did the order of the license options change?')),
      ),
    );
    expect(shown).toContain('As you can see, the order of the license options changed');
    expect(shown).toContain('1 - Apache');
    const prompts = textOf(await askIn(app, 'In which order is each variable prompted for?'));
    expect(prompts).toContain('Each variable is prompted for in order.');
    expect(prompts).not.toContain('As you can see, the default license is offered first');
  });

  it('brings a list’s lead-in, and the configuration the lead-in points back at', async () => {
    const app = appOf(
      parsePage(
        'plugins.md',
        '# Plugins\n\n## Plugin options\n\nA plugin takes its options from an array of its name and an object.\n\n' +
          'Global options go at the root of the configuration.\n\n' +
          '```json\n{ "plugins": [["github", { "assets": ["dist/**"] }]], "preset": "angular" }\n```\n\n' +
          'With this configuration:\n\n' +
          '- Every plugin receives the `preset` option, used by the commit analyzer.\n' +
          '- The `github` plugin receives the `assets` option.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall the tool with npm.\n'),
    );
    const text = textOf(await askIn(app, 'Which plugin receives the assets option?'));
    expect(text).toContain('The `github` plugin receives the `assets` option.');
    // The list's lead-in, and what "this configuration" is.
    expect(text).toContain('With this configuration:');
    expect(text).toContain('"preset": "angular"');
    expect(text.indexOf('"preset": "angular"')).toBeLessThan(
      text.indexOf('With this configuration:'),
    );
  });

  it('does not offer to ask about the sections the answer just showed', async () => {
    const parts = await ask('How do I install it?');
    const text = textOf(parts);
    const questions = parts
      .filter((p) => p.type === 'message_annotations')
      .flatMap((p) => p.value as { type: string; questions?: string[] }[])
      .flatMap((a) => a.questions ?? []);
    expect(questions.length).toBeGreaterThan(0);
    for (const question of questions) {
      const heading = /“([^”]+)”/.exec(question)![1]!;
      expect(text, question).not.toContain(`**${heading}**`);
      expect(text, question).not.toContain(`› ${heading}]`);
    }
  });

  it('shows the example of the section it answers from, when the matching sentences only describe', async () => {
    // Shaped like Click's "ANSI Colors": the sentences that hold the question's words describe,
    // the code after them shows how.
    const app = appOf(
      parsePage(
        'utils.md',
        '# Utilities\n\n## ANSI Colors\n\nThe echo function prints colored text to the terminal and strips the colors when the output is not a terminal.\n\n' +
          'On Windows it translates them for the console.\n\nFor styling a string, the style function can be used:\n\n' +
          "```python\nclick.echo(click.style('Hello World!', fg='green'))\n```\n",
      ),
      parsePage('api.md', '# API\n\n## echo\n\nPrints a message and a newline.\n'),
    );
    const parts = await readStream(
      await post(app, askBody('How do I print colored text to the terminal?')),
    );
    const text = textOf(parts);
    expect(text).toMatch(/^From \*\*\[Utilities › ANSI Colors\]/);
    expect(text).toContain('For styling a string, the style function can be used:');
    expect(text).toContain("click.echo(click.style('Hello World!', fg='green'))");
  });

  it('offers no table of contents as a question to ask next', async () => {
    // As peewee's index page (Debian's python-peewee-doc): "Contents:" and "Indices and tables".
    const app = appOf(
      parsePage(
        'index.md',
        '# peewee\n\nPeewee is a simple and small ORM with few concepts.\n\n' +
          '## Contents:\n\n- [Quickstart](quickstart.md)\n- [Models](models.md)\n- [Querying](querying.md)\n' +
          '- [Database](database.md)\n- [Hacks](hacks.md)\n\n' +
          '## Indices and tables\n\n- [Index](genindex.md)\n- [Module Index](py-modindex.md)\n- [Search Page](search.md)\n\n' +
          '## Bugs and ideas\n\nOpen an issue on GitHub if you find a bug in the ORM.\n\n' +
          '## Speedups\n\nA C extension reads rows faster.\n',
      ),
      ...['quickstart', 'models', 'querying', 'database', 'hacks'].map((name) =>
        parsePage(`${name}.md`, `# ${name}\n\nAbout ${name}.\n`),
      ),
    );
    const parts = await askIn(app, 'Where do I open an issue about a bug?');
    expect(textOf(parts)).toMatch(/^From \*\*\[peewee › Bugs and ideas\]/);
    const questions = parts
      .filter((p) => p.type === 'message_annotations')
      .flatMap((p) => p.value as { type: string; questions?: string[] }[])
      .flatMap((a) => a.questions ?? []);
    expect(questions).toContain('Tell me about “Speedups” in “peewee”');
    expect(questions.filter((q) => /Contents|Indices/.test(q))).toEqual([]);
  });

  it('names a short heading’s page in a follow-up question, so asking it finds that section', async () => {
    const app = appOf(
      parsePage(
        'installation.md',
        '# Installation\n\n## Local installation\n\nInstall the release tool with npm in your project.\n\n' +
          '## )\n\nThe options are listed below.\n\n' +
          '## 1. Create the configuration file\n\nWrite a release.config.js file.\n\n' +
          '## Bind the release to the main branch only when the pushed commit has a tag on it\n\nSet the branches option.\n\n' +
          '## Using third-party apps:\n\nA bot can run the release for you.\n\n' +
          '## Notes\n\nPin the major version of the release tool in CI.\n',
      ),
      parsePage(
        'plugins.md',
        '# Plugins\n\n## Writing a plugin\n\nA plugin exports one function per step.\n\n' +
          '## Notes\n\nPlugins run in the order they are listed.\n',
      ),
    );
    const parts = await readStream(
      await post(app, askBody('How do I install the release tool locally?')),
    );
    const questions = parts
      .filter((p) => p.type === 'message_annotations')
      .flatMap((p) => p.value as { type: string; questions?: string[] }[])
      .flatMap((a) => a.questions ?? []);
    expect(questions).toContain('Tell me about “Notes” in “Installation”');
    // A step is asked about without its number; a sentence-long heading is not offered.
    expect(questions).toContain('Tell me about “Create the configuration file”');
    expect(questions.filter((q) => /Bind the release/.test(q))).toEqual([]);
    expect(questions).toContain('Tell me about “Using third-party apps”');
    // A heading of no letter or digit (a broken build's stray `)`) is not offered.
    expect(questions.filter((q) => q.includes('“)”'))).toEqual([]);
    const notes = await readStream(
      await post(app, askBody('Tell me about “Notes” in “Installation”')),
    );
    expect(sourcesOf(notes)[0]!.id).toBe('/installation');
    expect(textOf(notes)).toContain('Pin the major version of the release tool in CI.');
  });

  it('shows every way a short page intro promises', async () => {
    const text = textOf(await ask('How do I install it?'));
    expect(text).toContain('There are two ways to install the assistant.');
    expect(text).toContain('```bash\nnpm install docs-assistant react react-dom\n```');
    expect(text).toContain('**With a script tag (any site)**');
  });
});

describe('Ask next after an answer whose related pages include a changelog', () => {
  it('offers no release entry ("Version 2.1", "1.7.1 (2019-04-21)")', async () => {
    const app = appOf(
      parsePage(
        'replay.md',
        '# Replay\n\nCookiecutter saves your answers so a later run can replay them.\n\n' +
          '## Replay from the command line\n\nPass `--replay` to reuse the saved answers.\n\n' +
          '## Replay file location\n\nThe answers are saved in the replay folder.\n',
      ),
      parsePage(
        'history.md',
        '# History\n\n## Version 2.1\n\nThe replay file moved; replay answers are saved per template.\n\n' +
          '## 1.7.1 (2019-04-21)\n\nFixed replay of saved answers on Windows.\n\n' +
          '## Upgrading from 1.x\n\nReplay files written by 1.x are read as before.\n',
      ),
    );
    const answer = await readStream(
      await post(app, askBody('How do I replay the saved answers from the command line?')),
    );
    expect(textOf(answer)).toMatch(/^From \*\*\[Replay › Replay from the command line\]/);
    const suggestions = suggestionsOf(answer);
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.filter((question) => /Version 2\.1|1\.7\.1/.test(question))).toEqual([]);
  });
  // As Debian's python-pytest-doc: 153 release announcements beside the guides.
  const withAnnouncements = () =>
    appOf(
      parsePage(
        'how-to/capture.md',
        '# How to capture output\n\n## Accessing captured output\n\nUse the `capsys` fixture to read what a test printed.\n\n' +
          '## Disabling capturing\n\nPass `-s` to see prints as they happen.\n',
      ),
      parsePage(
        'announce/release-2.6.1.md',
        '# pytest-2.6.1: fixes and new xfail feature\n\npytest 2.6.1 is a bug-fix release.\n\n## Fixes to capturing\n\nThe `capsys` fixture no longer loses what a test printed to stderr.\n\n' +
          '## New xfail strictness\n\nAn xfail test that passes can fail the run.\n',
      ),
      parsePage(
        'how-to/fixtures.md',
        '# How to use fixtures\n\n## Requesting fixtures\n\nA test requests a fixture by naming it as an argument.\n',
      ),
      // And its changelog, named as one (Debian ships it as changelog.html.gz).
      parsePage(
        'changelog.md',
        '# Changelog\n\n## pytest 7.2.0\n\nOutput a test printed is captured per test.\n',
      ),
    );

  it('offers no heading that goes on from the one above it', async () => {
    // As python-pygments-doc's Languages page: "Tell me about “… that’s all?”" was offered next.
    const app = appOf(
      parsePage(
        'languages.md',
        '# Languages\n\n## Supported languages\n\nPython, Ruby and Go are highlighted.\n\n' +
          '## … that’s all?\n\nWell, why not write your own lexer?\n\n## Lexer names\n\nEach language has a short name.\n',
      ),
    );
    const answer = await askIn(app, 'Which languages are highlighted?');
    expect(textOf(answer)).toMatch(/^From \*\*\[Languages › Supported languages\]/);
    expect(suggestionsOf(answer).join()).toContain('Lexer names');
    expect(suggestionsOf(answer).join()).not.toContain('that’s all');
  });

  it('offers the first section of a page that has no intro, as any other neighbour', async () => {
    const app = appOf(
      parsePage(
        'cookies.md',
        '# Cookies\n\n## Set a cookie\n\nCall `reply.setCookie(name, value)` to set one.\n\n' +
          '## Delete a cookie\n\nCall `reply.clearCookie(name)` to delete one.\n',
      ),
    );
    const answer = await askIn(app, 'How do I delete a cookie with clearCookie?');
    expect(textOf(answer)).toMatch(/^From \*\*\[Cookies › Delete a cookie\]/);
    expect(suggestionsOf(answer)).toContain('Tell me about “Set a cookie”');
  });

  it('neither quotes nor offers a release announcement’s section after a guide’s answer, and does after one of theirs', async () => {
    const app = withAnnouncements();
    const guide = await askIn(app, 'How do I read what a test printed with capsys?');
    expect(textOf(guide)).toMatch(
      /^From \*\*\[How to capture output › Accessing captured output\]/,
    );
    expect(suggestionsOf(guide).join()).not.toMatch(/Fixes to capturing|xfail strictness/);
    // Nor is it quoted as "See also" under the guide's answer.
    expect(textOf(guide)).not.toContain('pytest-2.6.1');
    const release = await askIn(app, 'What does the new xfail strictness do?');
    expect(textOf(release)).toMatch(/^From \*\*\[pytest-2\.6\.1/);
    expect(suggestionsOf(release).join()).toContain('Fixes to capturing');
  });

  /** Two pages that answer "How do I read the output of a test?" about as well. */
  const readingOutputPages = () => [
    parsePage(
      'capture.md',
      '# Capture\n\n## Reading printed output\n\nUse the `capsys` fixture to read the output a test printed.\n',
    ),
    parsePage(
      'logging.md',
      '# Logging\n\n## Reading log output\n\nUse the `caplog` fixture to read the log output a test wrote.\n',
    ),
  ];

  it('shows no release notes among an unsure answer’s places, but for the best one', async () => {
    const app = appOf(
      ...readingOutputPages(),
      parsePage(
        'changelog.md',
        '# Changelog\n\n## pytest 7.2.0\n\nReading output with `capsys` and `caplog` works in every test.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall pytest with pip.\n'),
    );
    const answer = await askIn(app, 'How do I read the output of a test?');
    const text = textOf(answer);
    expect(text).toMatch(/^I'm not sure/);
    expect(text).toContain('[Capture › Reading printed output]');
    expect(text).toContain('[Logging › Reading log output]');
    expect(text).not.toContain('[Changelog');
  });

  it('shows a place that is a table by its rows that match', async () => {
    // As python-pygments-doc's Languages page, one table of 500 rows: shown as a place, it showed
    // nothing under its title.
    const rows = Array.from({ length: 12 }, (_, i) => `| tool${i} | formats files of kind ${i} |`);
    const app = appOf(
      ...readingOutputPages(),
      parsePage(
        'fixtures.md',
        `# Fixtures\n\n| Fixture | Reads |\n| --- | --- |\n${rows.join('\n')}\n| capfd | the output a test printed to its file descriptors |\n`,
      ),
      parsePage('install.md', '# Install\n\nInstall pytest with pip.\n'),
    );
    const text = textOf(await askIn(app, 'How do I read the output of a test?'));
    expect(text).toMatch(/^I'm not sure/);
    expect(text).toContain(
      '[Fixtures]' +
        '(http://test/docs/fixtures)** [3]\n\n  > | Fixture | Reads |\n  > | --- | --- |\n  > | … | |\n  > | capfd | the output a test printed to its file descriptors |',
    );
  });

  it('is unsure when release notes rank first for a question about something else, and lists them last', async () => {
    // As python-werkzeug-doc: "How do I make the development server restart automatically…?"
    // was answered "sure" from its changelog, which says "development server" more than the
    // serving guide does.
    const app = appOf(
      parsePage(
        'serving.md',
        '# Serving\n\n## Reloader\n\nThe reloader restarts the server when a watched file changes.\n',
      ),
      parsePage(
        'changes.md',
        '# Changes\n\n## Version 0.9.1\n\nThe development server restarts automatically again. The development server reloader watches templates. The development server is faster.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall the package with pip.\n'),
    );
    const usage = textOf(
      await askIn(app, 'How do I make the development server restart automatically?'),
    );
    expect(placeTitlesOf(usage)).toEqual(['Serving › Reloader', 'Changes › Version 0.9.1']);
    // A question about the changes is answered from them as before.
    expect(
      textOf(await askIn(app, 'What changed for the development server in version 0.9.1?')),
    ).toMatch(/^From \*\*\[Changes › Version 0\.9\.1\]/);
  });

  it('knows release notes by a title that says so, or by their folder, without a version to read', async () => {
    // As python-whoosh-doc's "Whoosh 1.x release notes" (releases/1_0.html, headings "Whoosh
    // 1.8.3"): a question about vector search was answered "sure" from it.
    const pages = (file: string, title: string) =>
      appOf(
        parsePage(
          'searching.md',
          '# How to search\n\n## Sorting\n\nSort by a field with `sortedby`.\n',
        ),
        parsePage(
          file,
          `# ${title}\n\n## Whoosh 1.8.3\n\nSorting and highlights of vector results are faster. Sorting vector results uses less memory.\n`,
        ),
        parsePage('install.md', '# Install\n\nInstall the package with pip.\n'),
      );
    for (const app of [
      pages('history/one.md', 'Whoosh 1.x release notes'),
      pages('releases/one.md', 'Whoosh 1.x'),
    ]) {
      const parts = await askIn(app, 'How do I sort vector results?');
      expect(levelsOf(parts)).toEqual(['unsure']);
      expect(placeTitlesOf(textOf(parts))[0]).toBe('How to search › Sorting');
    }
  });

  it('treats a release’s entry as release notes on a page that is not a changelog', async () => {
    // As python-requests-doc: its release history is in "Community Updates", and the entry
    // "1.0.2 (2012-12-17)" was a related page under an answer about proxies.
    const app = appOf(
      parsePage(
        'advanced.md',
        '# Advanced Usage\n\n## Proxies\n\nTo use a proxy, pass the `proxies` argument to any request method.\n',
      ),
      parsePage(
        'community/updates.md',
        '# Community Updates\n\nFollow the project on GitHub.\n\n## 1.0.2 (2012-12-17)\n\nProxies from the environment are used by every request method.\n',
      ),
      parsePage('install.md', '# Install\n\nInstall the package with pip.\n'),
    );
    const usage = await askIn(app, 'How do I use a proxy with a request method?');
    expect(textOf(usage)).toMatch(/^From \*\*\[Advanced Usage › Proxies\]/);
    expect(textOf(usage)).not.toContain('1.0.2');
    expect(suggestionsOf(usage).join()).not.toContain('1.0.2');
    // Asked about the release, it shows it.
    const release = textOf(
      await askIn(
        app,
        'Since 1.0.2, are proxies from the environment used by every request method?',
      ),
    );
    expect(release).toContain('[Community Updates › 1.0.2 (2012-12-17)]');
  });

  it('is unsure when a list of the project’s users ranks first for a usage question, and shows it when asked who uses it', async () => {
    // As python-pygments-doc's FAQ "Who uses Pygments?" (and sphinx-doc's "Projects using Sphinx"):
    // its project names hold every common word, and it was quoted "sure" for a usage question.
    const app = appOf(
      parsePage(
        'quickstart.md',
        '# Quickstart\n\n## Example\n\nTo highlight Python code as HTML, call `highlight(code, PythonLexer(), HtmlFormatter())`.\n',
      ),
      parsePage(
        'faq.md',
        '# FAQ\n\n## Who uses Highlighter?\n\nProjects known to use Highlighter:\n\n- PyCode, a Python code editor that can highlight its output\n' +
          '- HTMLView, which shows Python code highlighted as HTML\n- CodeLog, a program that highlights code output as HTML\n',
      ),
      parsePage('install.md', '# Install\n\nInstall it with pip.\n'),
    );
    const usage = textOf(
      await askIn(app, 'How do I highlight Python code and get HTML output in my program?'),
    );
    expect(placeTitlesOf(usage)).toEqual(['Quickstart › Example', 'FAQ › Who uses Highlighter?']);
    const users = textOf(await askIn(app, 'Which projects use Highlighter?'));
    expect(users).toContain('[FAQ › Who uses Highlighter?]');
  });

  it('names no release announcement as a place to look when the docs do not cover the question', async () => {
    const text = textOf(
      await askIn(withAnnouncements(), 'Does pytest capture GPU kernel printf output?'),
    );
    expect(text).toMatch(/^The docs don't cover this\./);
    expect(text).toContain('[How to capture output › ');
    expect(text).not.toContain('pytest-2.6.1');
    expect(text).not.toContain('[Changelog]');
  });
});

describe('pages about the project itself after an answer about using it', () => {
  it('offers no code of conduct, licence or authors page next, nor as a place to look', async () => {
    // As python3-marshmallow-doc: "Code of Conduct › The Nope Case" was offered next after a
    // question about camelCase keys.
    const app = appOf(
      parsePage(
        'keys.md',
        '# Keys\n\n## Camel case keys\n\nSet `data_key` on each field to write its key in camel case.\n\n' +
          '## Key order\n\nKeys are written in the order the fields are declared.\n',
      ),
      parsePage(
        'code_of_conduct.md',
        '# Code of Conduct\n\n## The Nope Case\n\nIn the case of harassment, say nope and report it: keys to a kind community.\n',
      ),
      parsePage(
        'license.md',
        '# License\n\nCopyright the authors. Keys and case law aside, MIT.\n',
      ),
      parsePage(
        'authors.md',
        '# Authors\n\nThanks to everyone who wrote camel case keys support.\n',
      ),
    );
    const answer = await askIn(app, 'How do I write keys in camel case?');
    expect(textOf(answer)).toMatch(/^From \*\*\[Keys › Camel case keys\]/);
    expect(suggestionsOf(answer).join()).not.toMatch(/Nope|Conduct|License|Authors/);
    expect(textOf(answer)).not.toMatch(/Code of Conduct|License|Authors/);
    const refusal = textOf(
      await askIn(app, 'Which keys does the Kubernetes operator rotate nightly?'),
    );
    expect(refusal).toMatch(/^The docs don't cover this\./);
    expect(refusal).not.toMatch(/Code of Conduct|License|Authors/);
    // Asked about, it still answers.
    expect(textOf(await askIn(app, 'What is the nope case in the code of conduct?'))).toMatch(
      /^From \*\*\[Code of Conduct › The Nope Case\]/,
    );
  });
});

describe('a heading the page repeats is cited under the heading above it', () => {
  const pagination = parsePage(
    'api-guide/pagination.md',
    '# Pagination\n\nPaginators split long lists.\n\n' +
      '## PageNumberPagination\n\nTakes a page number in the query.\n\n' +
      '### Setup\n\nSet `DEFAULT_PAGINATION_CLASS` to `PageNumberPagination` and a `PAGE_SIZE`.\n\n' +
      '### Configuration\n\nOverride `page_size_query_param` on a subclass.\n\n' +
      '## LimitOffsetPagination\n\nTakes a limit and an offset in the query.\n\n' +
      '### Setup\n\nSet `DEFAULT_PAGINATION_CLASS` to `LimitOffsetPagination`; `PAGE_SIZE` is optional.\n\n' +
      '### Configuration\n\nOverride `max_limit` on a subclass.\n',
  );

  it('keeps the parent of a repeated heading only, and leaves the heading as the page shows it', () => {
    const places = pagination.sections.map((s) => [s.heading, s.parent ?? '', s.anchor]);
    expect(places).toEqual([
      ['Pagination', '', ''],
      ['PageNumberPagination', '', 'pagenumberpagination'],
      ['Setup', 'PageNumberPagination', 'setup'],
      ['Configuration', 'PageNumberPagination', 'configuration'],
      ['LimitOffsetPagination', '', 'limitoffsetpagination'],
      ['Setup', 'LimitOffsetPagination', 'setup-1'],
      ['Configuration', 'LimitOffsetPagination', 'configuration-1'],
    ]);
  });

  it('names the parent in the answer, and in "Ask next"', async () => {
    const answer = await readStream(
      await post(appOf(pagination), askBody('How do I set up limit offset pagination?')),
    );
    expect(textOf(answer)).toContain(
      '**[Pagination › LimitOffsetPagination › Setup](http://test/docs/api-guide/pagination#setup-1)**',
    );
    expect(suggestionsOf(answer)).toContain(
      'Tell me about “Configuration” in “LimitOffsetPagination”',
    );
  });
});

describe('Ask next after a guide’s answer, when a reference’s members come close', () => {
  it('offers no API entry of a related page, which a reader of the guide did not ask about', async () => {
    // As Celery's: "How do I install Celery with Redis?" offered
    // `celery.backends.redis.RedisBackend.supports_autoexpire`.
    const entry = (id: string, name: string, text: string) =>
      `<dl class="py attribute"><dt class="sig sig-object py" id="${id}"><span class="sig-name descname">${name}</span></dt><dd><p>${text}</p></dd></dl>`;
    const reference = parseHtmlPage(
      'reference/redis.html',
      `<html><body><div role="main"><section id="redis"><h1>acme.backends.redis</h1>
      ${entry('acme.backends.redis.RedisBackend.supports_autoexpire', 'supports_autoexpire', 'Whether Redis expires results.')}
      ${entry('acme.backends.redis.RedisBackend.max_connections', 'max_connections', 'Redis connections kept.')}
      </section></div></body></html>`,
    );
    if ('skipped' in reference) throw new Error(reference.skipped);
    const app = appOf(
      parsePage(
        'getting-started/redis.md',
        '# Using Redis\n\n## Installation\n\nInstall Acme with its Redis bundle: `pip install acme[redis]`.\n\n' +
          '## Configuration\n\nSet the broker URL to your Redis server.\n',
      ),
      reference,
    );
    const answer = await readStream(
      await post(app, askBody('How do I install Acme with the Redis bundle?')),
    );
    expect(textOf(answer)).toMatch(/^From \*\*\[Using Redis › Installation\]/);
    const suggestions = suggestionsOf(answer);
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.filter((question) => question.includes('acme.backends'))).toEqual([]);
  });
});

describe('a quote of an API entry', () => {
  it('keeps the entry’s signature and summary, whatever words they match', async () => {
    // As psycopg2's `cursor.mogrify`: quoted from "The returned string is always a bytes string."
    // on, without "Return a query string after arguments binding."
    const reference = parseHtmlPage(
      'cursor.html',
      `<html><body><div role="main"><section id="the-cursor-class"><h1>The cursor class</h1>
      <dl class="py method"><dt class="sig sig-object py" id="cursor.mogrify"><span class="sig-name descname">mogrify</span>(<em class="sig-param">operation</em>)</dt>
      <dd><p>Return a query string after arguments binding.</p>
      <p>The returned string is always a bytes string.</p>
      <div class="highlight-pycon"><pre>&gt;&gt;&gt; cur.mogrify("SELECT %s", (42,))</pre></div>
      <p>The mogrify() method is a Psycopg extension to the DB API 2.0.</p></dd></dl>
      <dl class="py method"><dt class="sig sig-object py" id="cursor.close"><span class="sig-name descname">close</span>()</dt>
      <dd><p>Close the cursor now.</p></dd></dl>
      </section></div></body></html>`,
    );
    if ('skipped' in reference) throw new Error(reference.skipped);
    const text = textOf(await askIn(appOf(reference), 'What does cursor.mogrify() do?'));
    expect(text).toMatch(/^From \*\*\[The cursor class › cursor\.mogrify\]/);
    expect(text).toContain(
      '> `mogrify(operation)`\n>\n> Return a query string after arguments binding.',
    );
  });
});
