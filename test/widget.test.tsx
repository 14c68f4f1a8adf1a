// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { DocsAssistant } from '../src/index.js';
import { demoApp, type TestApp } from './helpers/server.js';
import { ask, lastAnswer, log, renderWidget, waitForIdle } from './helpers/widget.js';
import { everyPartStream, finish, gatedStream, part, streamResponse } from './helpers/streams.js';

interface Sent {
  url: string;
  headers: Headers;
  body: Record<string, unknown> & {
    messages: { id: string; role: string; content: string; createdAt?: string }[];
  };
}

/** A fetch that records what the widget sends and answers with `respond` (the real server by default). */
function recorder(respond: (sent: Sent, n: number) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const entry = {
      url: String(url),
      headers: new Headers(init?.headers),
      body: JSON.parse(String(init?.body)),
    };
    sent.push(entry);
    return respond(entry, sent.length);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

let app: TestApp;
beforeEach(async () => {
  app = await demoApp();
  localStorage.clear();
});
afterEach(() => cleanup());

const serverFetch = (sent: Sent) =>
  app.request(sent.url, { method: 'POST', headers: sent.headers, body: JSON.stringify(sent.body) });

/** The questions shown in the log (the search tool card repeats a question as its query). */
const questions = () => [...log().querySelectorAll('.da-user-text')].map((p) => p.textContent);

describe('asking the reference server', () => {
  it("shows a cited answer and sends the spec's request body", async () => {
    const { fetch, sent } = recorder(serverFetch);
    renderWidget({ fetch });
    await ask('How do I install it from npm?');
    await waitFor(() =>
      expect(
        within(log()).getAllByText(/npm install docs-assistant react react-dom/).length,
      ).toBeGreaterThan(0),
    );
    await waitForIdle();
    const answer = lastAnswer();
    const sources = within(answer).getByRole('group', { name: 'Sources' });
    const links = within(sources).getAllByRole('link');
    expect(links[0]!.textContent).toBe('1Install');
    expect(links[0]!.getAttribute('href')).toBe('http://test/docs/installation');
    expect(new Set(links.map((a) => a.getAttribute('href'))).size).toBe(links.length);
    // Readers see what the assistant did in one line, and its reasoning collapsed.
    expect(
      within(answer)
        .getByText(/^Searched the docs for “.*install.*”$/)
        .getAttribute('data-state'),
    ).toBe('done');
    expect(answer.querySelector('.da-tool')).toBeNull();
    expect(within(answer).getByText('How I found this').closest('details')!.open).toBe(false);

    const { url, headers, body } = sent[0]!;
    expect(url).toBe('http://test/discovery/v1/assistant/demo/message');
    expect(headers.get('authorization')).toBe('Bearer svc_dsc_demo');
    expect(body).toMatchObject({ fp: 'anonymous', retrievalPageSize: 5, currentPath: '/' });
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('threadId');
    expect(body.messages).toEqual([
      {
        id: expect.any(String),
        role: 'user',
        content: 'How do I install it from npm?',
        createdAt: expect.any(String),
        parts: [{ type: 'text', text: 'How do I install it from npm?' }],
      },
    ]);
  });

  it('continues the thread on a follow-up and sends the whole conversation with ids', async () => {
    const { fetch, sent } = recorder(serverFetch);
    renderWidget({ fetch, userId: 'user-7', retrievalPageSize: 3, filter: { version: 'v2' } });
    await ask('How do filters work?');
    await waitForIdle();
    await ask('and the current path?');
    await waitForIdle();
    const firstThread = (await serverFetch(sent[0]!)).headers.get('x-thread-id');
    expect(firstThread).toBeTruthy();
    expect(sent[1]!.body).toMatchObject({
      fp: 'user-7',
      retrievalPageSize: 3,
      filter: { version: 'v2' },
      threadId: expect.stringMatching(/^[0-9A-Z]{26}$/),
    });
    expect(sent[1]!.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[1]!.body.messages.every((m) => typeof m.id === 'string' && m.id)).toBe(true);
  });

  it('restores the conversation after a reload and keeps its thread', async () => {
    const { fetch, sent } = recorder(serverFetch);
    const first = renderWidget({ fetch });
    await ask('How do I theme the widget?');
    await waitForIdle();
    first.unmount();
    cleanup();
    // A fresh page: the SDK's in-memory cache is per chat id, so use a new domain-less cache by reloading storage.
    renderWidget({ fetch });
    expect(questions()).toEqual(['How do I theme the widget?']);
    expect(within(lastAnswer()).getByRole('group', { name: 'Sources' })).toBeTruthy();
    await ask('and dark mode?');
    await waitForIdle();
    expect(sent[1]!.body.threadId).toEqual(expect.stringMatching(/^[0-9A-Z]{26}$/));
  });

  it('sends attached context with the next question only, and cuts a long currentPath cleanly', async () => {
    const { fetch, sent } = recorder(serverFetch);
    const longPath = '/guides/' + 'section/'.repeat(40) + 'page';
    const { ref } = renderWidget({ fetch, currentPath: longPath });
    act(() =>
      ref.current!.addContext({
        type: 'code',
        value: 'npx docs-assistant export status se_1',
        path: '/static-export/cli',
        elementId: 'code-1',
      }),
    );
    act(() =>
      ref.current!.addContext({
        type: 'textSelection',
        value: 'Bundle links expire.',
        path: '/static-export/overview',
      }),
    );
    const chips = screen.getByRole('list', { name: 'Attached context' });
    expect(within(chips).getAllByRole('listitem')).toHaveLength(2);
    await userEvent.setup().click(within(chips).getByRole('button', { name: 'Remove selection' }));
    await ask('What does this do?');
    await waitForIdle();
    expect(screen.queryByRole('list', { name: 'Attached context' })).toBeNull();
    await ask('Thanks, and the CLI exit codes?');
    await waitForIdle();
    expect(sent[0]!.body.context).toEqual([
      {
        type: 'code',
        value: 'npx docs-assistant export status se_1',
        path: '/static-export/cli',
        elementId: 'code-1',
      },
    ]);
    expect(sent[1]!.body).not.toHaveProperty('context');
    const path = sent[0]!.body.currentPath as string;
    expect(path.length).toBeLessThanOrEqual(200);
    expect(longPath.startsWith(path)).toBe(true);
    expect(path.endsWith('/section')).toBe(true);
  });
});

describe('rendering every part', () => {
  it('renders text, tables, code, reasoning (with redacted), sources, tool calls, steps and suggestions', async () => {
    const { fetch } = recorder(() => streamResponse(everyPartStream()));
    renderWidget({ fetch, docsBaseUrl: 'https://docs.example.com/', showDeveloperDetails: true });
    await ask('threads?');
    await waitForIdle();
    const answer = lastAnswer();
    expect(within(answer).getByRole('heading', { name: 'Threads' })).toBeTruthy();
    expect(within(answer).getByRole('table')).toBeTruthy();
    expect(within(answer).getByText('ts')).toBeTruthy();
    expect(within(answer).getByRole('button', { name: 'Copy code' })).toBeTruthy();
    const reasoning = within(answer).getByText('Reasoning').closest('details')!;
    expect(reasoning.open).toBe(false);
    await userEvent.setup().click(within(reasoning).getByText('Reasoning'));
    expect(reasoning.open).toBe(true);
    expect(answer.textContent).not.toContain('aGVsbG8');
    expect(within(reasoning).getByText('The threads page answers this.')).toBeTruthy();
    expect(within(reasoning).getByText('[redacted]')).toBeTruthy();
    const tools = answer.querySelectorAll('.da-tool');
    expect(
      [...tools].map((t) => [t.getAttribute('data-tool'), t.getAttribute('data-state')]),
    ).toEqual([
      ['search', 'done'],
      ['lookup', 'pending'],
    ]);
    expect(within(tools[0] as HTMLElement).getByText('threads')).toBeTruthy();
    expect(within(tools[0] as HTMLElement).getByText('2 results')).toBeTruthy();
    expect(answer.querySelectorAll('hr.da-step')).toHaveLength(1);
    const sources = within(answer).getByRole('group', { name: 'Sources' });
    // No [n] in the text: the source part is the source; the other search hit was only searched.
    expect(
      within(sources)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([['1Threads', 'https://docs.example.com/threads']]);
    const searched = answer.querySelector('details.da-also-searched') as HTMLDetailsElement;
    expect(searched.open).toBe(false);
    expect(within(searched).getByText('Also searched (1)')).toBeTruthy();
    expect(within(searched).getByRole('link').getAttribute('href')).toBe(
      'https://docs.example.com/guides/threads',
    );
    const related = within(answer).getByRole('group', { name: 'Related pages' });
    expect(within(related).getByRole('link', { name: 'Threads guide' }).getAttribute('href')).toBe(
      'https://docs.example.com/guides/threads',
    );
    expect(within(related).queryByRole('link', { name: 'Evil' })).toBeNull();
    expect(within(related).getByText('Evil')).toBeTruthy();
  });

  it('never turns hostile answer content into script, active links or images', async () => {
    const hostile = [
      '[click](javascript:alert(1)) [data](data:text/html,<script>alert(1)</script>) [vb](vbscript:msgbox) [tab](java\tscript:alert(1))',
      '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script> <a href="javascript:alert(1)">raw</a>',
      '![pixel](data:image/png;base64,AAAA) ![remote](https://tracker.example/p.gif) [ok](https://docs.example.com/x)',
    ].join('\n\n');
    const { fetch } = recorder(() => streamResponse([part('text', hostile), finish()]));
    renderWidget({ fetch });
    await ask('xss?');
    await waitForIdle();
    const answer = lastAnswer();
    expect(answer.querySelectorAll('script, img, iframe, object, embed')).toHaveLength(0);
    const hrefs = [...answer.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs.every((href) => /^https?:/.test(href ?? ''))).toBe(true);
    expect(hrefs).toEqual(['https://tracker.example/p.gif', 'https://docs.example.com/x']);
    const external = answer.querySelector('a[href="https://docs.example.com/x"]')!;
    expect(external.getAttribute('rel')).toBe('noopener noreferrer');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(within(answer).getByText('click')).toBeTruthy();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });
});

describe('faults keep the question and the partial answer', () => {
  const cases: [string, () => Response, RegExp][] = [
    [
      '401',
      () => new Response('{"error":"unauthorized","message":"x"}', { status: 401 }),
      /refused this site’s key/,
    ],
    [
      '403',
      () => new Response('{"error":"forbidden","message":"x"}', { status: 403 }),
      /not allowed to use the assistant/,
    ],
    [
      '404',
      () => new Response('{"error":"domain_not_found","message":"x"}', { status: 404 }),
      /does not know this docs site/,
    ],
    [
      '429',
      () =>
        new Response('{"error":"rate_limited","message":"x"}', {
          status: 429,
          headers: { 'Retry-After': '120' },
        }),
      /try again in 2 minutes/,
    ],
    [
      '500',
      () => new Response('Internal Server Error', { status: 500 }),
      /had a problem answering/,
    ],
    ['an empty 502', () => new Response('', { status: 502 }), /had a problem answering/],
    [
      'a failed fetch',
      () => Promise.reject(new TypeError('Failed to fetch')) as unknown as Response,
      /connection to the assistant failed/,
    ],
  ];
  for (const [name, fail, sentence] of cases) {
    it(`shows the right sentence for ${name}, then retries successfully`, async () => {
      const { fetch, sent } = recorder((s, n) => (n === 1 ? fail() : serverFetch(s)));
      renderWidget({ fetch });
      await ask('How do I install it?');
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toMatch(sentence);
      expect(questions()).toEqual(['How do I install it?']);
      await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
      await waitFor(() =>
        expect(within(log()).getByRole('group', { name: 'Sources' })).toBeTruthy(),
      );
      expect(screen.queryByRole('alert')).toBeNull();
      expect(sent).toHaveLength(2);
      expect(sent[1]!.body.messages.map((m) => m.content)).toEqual(['How do I install it?']);
    });
  }

  it('keeps the partial answer when the connection is cut, and retry replaces it', async () => {
    const { fetch } = recorder((s, n) =>
      n === 1
        ? streamResponse([part('text', 'Partial answer about installing. ')], { cut: true })
        : serverFetch(s),
    );
    renderWidget({ fetch });
    await ask('How do I install it?');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/connection was lost before the answer was complete/);
    expect(within(log()).getByText(/Partial answer about installing/)).toBeTruthy();
    // One Retry, the banner's: the failed answer has no actions of its own.
    expect(screen.getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
    expect(lastAnswer().dataset.state).toBe('failed');
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(log()).getByRole('group', { name: 'Sources' })).toBeTruthy());
    expect(within(log()).queryByText(/Partial answer about installing/)).toBeNull();
    expect(
      within(log())
        .getAllByRole('listitem')
        .filter((li) => li.dataset.role === 'assistant'),
    ).toHaveLength(1);
  });

  it('drops a bad line mid-stream, keeps the rest of the answer and says part was skipped', async () => {
    const { fetch } = recorder(() =>
      streamResponse([
        part('text', 'Before the bad line. ') +
          'x:{not json\n' +
          part('text', 'After it.') +
          finish(),
      ]),
    );
    renderWidget({ fetch });
    await ask('anything');
    await waitForIdle();
    expect(within(lastAnswer()).getByText('Before the bad line. After it.')).toBeTruthy();
    expect(screen.getByText(/could not be read and was skipped/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('retries a stale thread as a new one without losing the messages on screen', async () => {
    localStorage.setItem(
      'docs-assistant:v1:demo',
      JSON.stringify({
        threadId: '01JD8X3K2M0000000000000000',
        messages: [
          {
            id: 'old',
            role: 'user',
            content: 'Earlier question',
            parts: [{ type: 'text', text: 'Earlier question' }],
          },
        ],
      }),
    );
    const { fetch, sent } = recorder(serverFetch);
    renderWidget({ fetch });
    await ask('How do I install it?');
    await waitForIdle();
    expect(sent.map((s) => s.body.threadId)).toEqual(['01JD8X3K2M0000000000000000', undefined]);
    expect(questions()).toEqual(['Earlier question', 'How do I install it?']);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('controls', () => {
  it('refuses an admin key at once and sends nothing', () => {
    const { fetch } = recorder(serverFetch);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() =>
      render(<DocsAssistant domain="demo" apiKey={DEMO.adminKey} fetch={fetch} />),
    ).toThrow(/admin key.*server-side secrets/);
    expect(fetch).not.toHaveBeenCalled();
    vi.mocked(console.error).mockRestore();
  });

  it('uses overridden labels and offers at most three starter questions that ask', async () => {
    const { fetch, sent } = recorder(serverFetch);
    renderWidget({
      fetch,
      labels: { title: 'Assistent', placeholder: 'Frage stellen…', send: 'Senden' },
      starterQuestions: [
        'How do I install it?',
        'What is static export?',
        'How do threads work?',
        'A fourth one',
      ],
    });
    expect(screen.getByRole('dialog', { name: 'Assistent' })).toBeTruthy();
    expect(screen.getByPlaceholderText('Frage stellen…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Senden' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'A fourth one' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'What is static export?' }));
    await waitForIdle();
    expect(sent[0]!.body.messages[0]!.content).toBe('What is static export?');
  });

  it('opens from the launcher, closes on Escape and gives focus back to the launcher', async () => {
    const { fetch } = recorder(serverFetch);
    const events: unknown[] = [];
    renderWidget({ fetch, defaultOpen: false, onEvent: (e) => events.push(e) });
    const user = userEvent.setup();
    const launcher = screen.getByRole('button', { name: /Ask AI/ });
    await user.click(launcher);
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Your question' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(launcher);
    expect(events).toEqual([{ type: 'open' }, { type: 'close' }]);
  });

  it('keeps Shift+Enter as a new line and sends on Enter', async () => {
    const { fetch, sent } = recorder(serverFetch);
    renderWidget({ fetch });
    const user = userEvent.setup();
    await user.type(
      screen.getByRole('textbox', { name: 'Your question' }),
      'line one{Shift>}{Enter}{/Shift}line two',
    );
    expect(sent).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitForIdle();
    expect(sent[0]!.body.messages[0]!.content).toBe('line one\nline two');
  });

  it('stops a streaming answer with the Stop button', async () => {
    const stream = gatedStream([part('text', 'Streaming slowly…')]);
    const { fetch } = recorder(stream.response);
    renderWidget({ fetch });
    await ask('slow?');
    const stop = await screen.findByRole('button', { name: 'Stop' });
    await waitFor(() => expect(within(log()).getByText('Streaming slowly…')).toBeTruthy());
    await userEvent.setup().click(stop);
    await waitFor(() => expect(screen.getByRole('dialog').dataset.status).toBe('ready'));
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(within(log()).getByText('Streaming slowly…')).toBeTruthy();
    stream.release();
  });

  it('reports feedback, copies answers, and starts a new conversation that forgets the thread', async () => {
    const { fetch, sent } = recorder(serverFetch);
    const onFeedback = vi.fn();
    const events: { type: string }[] = [];
    renderWidget({
      fetch,
      onFeedback,
      onEvent: (e) => events.push(e),
      supportUrl: 'https://support.example.com/new?thread={threadId}',
    });
    await ask('How do I install it?');
    await waitForIdle();
    const user = userEvent.setup();
    await user.click(within(lastAnswer()).getByRole('button', { name: 'Helpful' }));
    expect(onFeedback).toHaveBeenCalledWith({
      messageId: expect.any(String),
      threadId: expect.stringMatching(/^[0-9A-Z]{26}$/),
      value: 'up',
    });
    expect(
      within(lastAnswer()).getByRole('button', { name: 'Helpful' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await user.click(within(lastAnswer()).getByRole('button', { name: 'Copy answer' }));
    // user-event's setup() installs a clipboard the test can read back.
    expect(await navigator.clipboard.readText()).toContain('npm install docs-assistant');
    expect(within(lastAnswer()).getByRole('button', { name: 'Copied' })).toBeTruthy();
    const support = screen.getByRole('link', { name: 'Contact support' });
    expect(support.getAttribute('href')).toMatch(
      /^https:\/\/support\.example\.com\/new\?thread=[0-9A-Z]{26}$/,
    );
    await user.click(screen.getByRole('button', { name: 'New conversation' }));
    expect(screen.queryByRole('log')).toBeNull();
    expect(localStorage.getItem('docs-assistant:v1:demo')).toBeNull();
    await ask('What is static export?');
    await waitForIdle();
    // The thumbs went to the feedback operation; the questions to the message operation.
    const asked = sent.filter((request) => request.url.endsWith('/message'));
    expect(sent.filter((request) => request.url.endsWith('/feedback'))).toHaveLength(1);
    expect(asked[1]!.body).not.toHaveProperty('threadId');
    expect(asked[1]!.body.messages).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual([
      'ask',
      'answer',
      'feedback',
      'reset',
      'ask',
      'answer',
    ]);
    expect(JSON.stringify(events)).not.toContain('install');
  });

  it('announces an answer once when it starts and once when it ends, not per token', async () => {
    const stream = gatedStream(
      ['One ', 'two ', 'three.'].map((word) => part('text', word)),
      [finish()],
    );
    const { fetch } = recorder(stream.response);
    renderWidget({ fetch });
    const status = screen.getByRole('status');
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(status.textContent ?? ''));
    observer.observe(status, { childList: true, subtree: true, characterData: true });
    await ask('How do I install it?');
    await waitFor(() => expect(within(log()).getByText('One two three.')).toBeTruthy());
    expect(status.textContent).toBe('Answering…');
    stream.release();
    await waitFor(() => expect(status.textContent).toBe('Answer ready.'));
    observer.disconnect();
    expect(seen).toEqual(['Answering…', 'Answer ready.']);
  });
});
