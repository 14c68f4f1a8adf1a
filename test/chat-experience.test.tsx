// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { demoApp, type TestApp } from './helpers/server.js';
import { answersShown, ask, lastAnswer, log, renderWidget, waitForIdle } from './helpers/widget.js';
import { finish, gatedStream, part, streamResponse } from './helpers/streams.js';
import { startLlmServer, type LlmTestServer } from './helpers/llm-server.js';

let app: TestApp;
beforeEach(async () => {
  app = await demoApp();
  localStorage.clear();
});
afterEach(() => cleanup());

type Body = { messages: { role: string; content: string }[]; context?: unknown[] };
/** Every request the widget sends, answered by `respond` (the real reference server by default). */
function recorder(
  respond?: (n: number, url: string, init: RequestInit) => Response | Promise<Response>,
) {
  const bodies: Body[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init!.body)));
    return respond ? respond(bodies.length, String(url), init!) : app.request(String(url), init);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, bodies };
}

const search = (query: string) => [
  part('start_step', { messageId: 'm1' }),
  part('tool_call', { toolCallId: 'c1', toolName: 'search', args: { query } }),
];
const searchResult = part('tool_result', {
  toolCallId: 'c1',
  result: [
    {
      url: 'https://docs.example.com/install',
      path: '/install',
      title: 'Install',
      snippet: 'Run npm install docs-assistant.',
    },
    { url: 'https://docs.example.com/theming', path: '/theming', title: 'Theming' },
    { url: 'https://docs.example.com/threads', path: '/threads', title: 'Threads' },
  ],
});

describe('progress from the moment a question is sent', () => {
  it('says it is thinking, then searching the docs for the query, then shows a cursor while text streams', async () => {
    let respond!: (r: Response) => void;
    const stream = gatedStream(
      [
        ...search('install react'),
        searchResult,
        part('finish_step', { finishReason: 'tool-calls', isContinued: false }),
        part('start_step', { messageId: 'm1' }),
        part('text', 'Run the installer '),
      ],
      [part('text', 'and you are done [1].'), finish()],
    );
    const { fetch } = recorder(() => new Promise<Response>((resolve) => (respond = resolve)));
    renderWidget({ fetch });
    await ask('How do I install it?');
    // Nothing has arrived yet: the area under the question is not blank.
    expect(within(lastAnswer()).getByText('Thinking…').dataset.state).toBe('running');

    const searching = gatedStream(search('install react'));
    respond(searching.response());
    await waitFor(() =>
      expect(
        within(lastAnswer()).getByText('Searching the docs for “install react”…').dataset.state,
      ).toBe('running'),
    );
    expect(within(lastAnswer()).queryByText('Thinking…')).toBeNull();
    searching.release();
    await waitForIdle();

    // The next answer streams text: the cursor is on the text still being written, and leaves with it.
    const { fetch: fetch2 } = recorder(stream.response);
    cleanup();
    renderWidget({ fetch: fetch2, persist: false });
    await ask('And then?');
    await waitFor(() =>
      expect(
        within(lastAnswer()).getByText('Searched the docs for “install react”').dataset.state,
      ).toBe('done'),
    );
    await waitFor(() =>
      expect(lastAnswer().querySelector('[data-streaming]')?.textContent).toContain(
        'Run the installer',
      ),
    );
    stream.release();
    await waitForIdle();
    expect(lastAnswer().querySelector('[data-streaming]')).toBeNull();
  });

  it('announces the answer once when it starts and once when it ends', async () => {
    const stream = gatedStream([part('text', 'One ')], [part('text', 'two.'), finish()]);
    const { fetch } = recorder(stream.response);
    renderWidget({ fetch });
    const status = screen.getByRole('status');
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(status.textContent ?? ''));
    observer.observe(status, { childList: true, subtree: true, characterData: true });
    await ask('Count?');
    await waitFor(() => expect(within(log()).getByText(/One/)).toBeTruthy());
    stream.release();
    await waitFor(() => expect(status.textContent).toBe('Answer ready.'));
    observer.disconnect();
    expect(seen).toEqual(['Answering…', 'Answer ready.']);
  });
});

describe('stop, new conversation', () => {
  it('leaves a visibly stopped answer: a Stopped marker, no thumbs, a Retry, and no "Answer ready"', async () => {
    const stream = gatedStream([part('text', 'Half an answer')]);
    const { fetch, bodies } = recorder((n, url, init) =>
      n === 1 ? stream.response() : app.request(url, init),
    );
    renderWidget({ fetch });
    const status = screen.getByRole('status');
    await ask('How do I install it?');
    await waitFor(() => expect(within(log()).getByText('Half an answer')).toBeTruthy());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(lastAnswer().dataset.state).toBe('stopped'));
    const answer = lastAnswer();
    expect(within(answer).getByText('Stopped')).toBeTruthy();
    expect(within(answer).getByText('Half an answer')).toBeTruthy();
    expect(within(answer).queryByRole('button', { name: 'Helpful' })).toBeNull();
    expect(within(answer).queryByRole('button', { name: 'Not helpful' })).toBeNull();
    expect(status.textContent).toBe('Stopped.');
    await userEvent.setup().click(within(answer).getByRole('button', { name: 'Retry' }));
    await waitForIdle();
    expect(bodies).toHaveLength(2);
    expect(answersShown()).toHaveLength(1);
    expect(lastAnswer().dataset.state).toBe('done');
    expect(within(lastAnswer()).queryByText('Stopped')).toBeNull();
    stream.release();
  });

  it('marks a question stopped before anything arrived, with a Retry', async () => {
    const { fetch } = recorder(
      (_n, _url, init) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('stopped', 'AbortError')),
          ),
        ),
    );
    renderWidget({ fetch });
    await ask('Slow server?');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(lastAnswer().dataset.state).toBe('stopped'));
    expect(within(lastAnswer()).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('puts focus in the question box after "New conversation"', async () => {
    const { fetch } = recorder();
    renderWidget({ fetch });
    await ask('How do I install it?');
    await waitForIdle();
    await userEvent.setup().click(screen.getByRole('button', { name: 'New conversation' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Your question' }));
  });
});

describe('failed answers', () => {
  it('keeps a partial answer formatted and says the server stopped when the stream ends early', async () => {
    const { fetch } = recorder(() =>
      streamResponse([part('text', '## Install\n\nRun **npm install**.\n\n')]),
    );
    renderWidget({ fetch });
    await ask('How do I install it?');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/ran into a problem and stopped partway/);
    await waitFor(() =>
      expect(within(lastAnswer()).getByRole('heading', { name: 'Install' })).toBeTruthy(),
    );
    expect(within(lastAnswer()).getByText('npm install').tagName).toBe('STRONG');
    expect(screen.getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
  });

  it('says the server failed when the stream carries an error part', async () => {
    const { fetch } = recorder(() =>
      streamResponse([part('text', 'So far '), part('error', 'model overloaded')]),
    );
    renderWidget({ fetch });
    await ask('How do I install it?');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /ran into a problem and stopped partway/,
    );
  });
});

describe('context on sent messages', () => {
  it('shows the context that went with a question as compact chips that expand', async () => {
    const { fetch, bodies } = recorder();
    const { ref } = renderWidget({ fetch });
    act(() =>
      ref.current!.addContext({
        type: 'code',
        value: 'npx docs-assistant export status se_1\n# prints the job',
        path: '/static-export/cli',
      }),
    );
    await ask('What does this do?');
    await waitForIdle();
    expect(bodies[0]!.context).toHaveLength(1);
    const question = within(log())
      .getAllByRole('listitem')
      .find((li) => li.dataset.role === 'user')!;
    const chips = within(question).getByRole('list', { name: 'Sent with this question' });
    const chip = chips.querySelector('details')!;
    expect(chip.open).toBe(false);
    expect(within(chip).getByText('npx docs-assistant export status se_1')).toBeTruthy();
    await userEvent.setup().click(within(chip).getByText('code'));
    expect(chip.open).toBe(true);
    expect(chip.querySelector('pre')!.textContent).toContain('# prints the job');
  });
});

describe('ask() while an answer is being written', () => {
  it('queues the question, shows it as waiting, and sends the queue in order', async () => {
    const first = gatedStream([part('text', 'First answer.')], [finish()]);
    const { fetch, bodies } = recorder((n, url, init) =>
      n === 1 ? first.response() : app.request(url, init),
    );
    const { ref } = renderWidget({ fetch });
    let accepted: boolean[] = [];
    act(() => {
      // Two calls in one tick, as a page's own "Ask AI" buttons might make.
      accepted = [ref.current!.ask('How do I install it?'), ref.current!.ask('How do I theme it?')];
    });
    act(() => void accepted.push(ref.current!.ask('What is static export?')));
    expect(accepted).toEqual([true, true, true]);
    await waitFor(() => expect(within(log()).getByText('First answer.')).toBeTruthy());
    const waiting = within(log())
      .getAllByRole('listitem')
      .filter((li) => li.dataset.state === 'queued');
    expect(waiting.map((li) => li.querySelector('.da-user-text')!.textContent)).toEqual([
      'How do I theme it?',
      'What is static export?',
    ]);
    expect(within(waiting[0]!).getByText('Waiting to be asked')).toBeTruthy();
    expect(bodies).toHaveLength(1);
    first.release();
    await waitFor(() => expect(bodies).toHaveLength(3));
    await waitForIdle();
    expect(bodies.map((b) => b.messages.at(-1)!.content)).toEqual([
      'How do I install it?',
      'How do I theme it?',
      'What is static export?',
    ]);
    expect(bodies[2]!.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(answersShown()).toHaveLength(3);
    expect(
      within(log())
        .queryAllByRole('listitem')
        .filter((li) => li.dataset.state === 'queued'),
    ).toHaveLength(0);
  });

  it('lets the reader take a waiting question back', async () => {
    const first = gatedStream([part('text', 'First answer.')], [finish()]);
    const { fetch, bodies } = recorder((n, url, init) =>
      n === 1 ? first.response() : app.request(url, init),
    );
    const { ref } = renderWidget({ fetch });
    act(() => void ref.current!.ask('How do I install it?'));
    act(() => void ref.current!.ask('Never mind this one'));
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Don’t ask this: Never mind this one' }));
    first.release();
    await waitForIdle();
    await new Promise((r) => setTimeout(r, 100));
    expect(bodies).toHaveLength(1);
  });
});

describe('reader-facing parts and custom renderers', () => {
  const stream = () =>
    streamResponse([
      ...search('threads'),
      searchResult,
      part('finish_step', { finishReason: 'tool-calls', isContinued: false }),
      part('start_step', { messageId: 'm1' }),
      part('reasoning', 'The threads page answers this.'),
      part('tool_call', { toolCallId: 'c2', toolName: 'fetch_page', args: { path: '/threads' } }),
      part('tool_result', { toolCallId: 'c2', result: 'ok' }),
      part('text', 'Every conversation gets a `threadId` [3].'),
      finish(),
    ]);

  it('shows tool calls as lines and reasoning under "How I found this"; developer details show the raw cards', async () => {
    const { fetch } = recorder(stream);
    renderWidget({ fetch });
    await ask('threads?');
    await waitForIdle();
    const answer = lastAnswer();
    expect([...answer.querySelectorAll('.da-status')].map((p) => p.textContent)).toEqual([
      'Searched the docs for “threads”',
      'Used fetch page',
    ]);
    expect(answer.querySelector('.da-tool, hr')).toBeNull();
    expect(within(answer).getByText('How I found this').closest('details')!.open).toBe(false);
    cleanup();
    renderWidget({ fetch: recorder(stream).fetch, showDeveloperDetails: true, persist: false });
    await ask('threads?');
    await waitForIdle();
    expect(
      [...lastAnswer().querySelectorAll('.da-tool')].map((t) => t.getAttribute('data-tool')),
    ).toEqual(['search', 'fetch_page']);
    expect(within(lastAnswer()).getByText('Reasoning')).toBeTruthy();
  });

  it('renders a custom component per tool name, and one for any other tool', async () => {
    const { fetch } = recorder(stream);
    renderWidget({
      fetch,
      components: {
        tools: {
          search: ({ invocation }) => (
            <p data-testid="custom-search">
              Looked for {String((invocation.args as { query: string }).query)}
            </p>
          ),
        },
        toolInvocation: ({ invocation }) => (
          <p data-testid="custom-tool">{invocation.toolName} ran</p>
        ),
      },
    });
    await ask('threads?');
    await waitForIdle();
    expect(screen.getByTestId('custom-search').textContent).toBe('Looked for threads');
    expect(screen.getByTestId('custom-tool').textContent).toBe('fetch_page ran');
    expect(lastAnswer().querySelector('.da-status')).toBeNull();
  });
});

describe('feedback', () => {
  it('asks what was wrong after a thumbs-down and reports reasons and comment through onFeedback', async () => {
    const onFeedback = vi.fn();
    const events: { type: string }[] = [];
    const { fetch } = recorder();
    renderWidget({ fetch, onFeedback, onEvent: (e) => events.push(e) });
    await ask('How do I install it?');
    await waitForIdle();
    const user = userEvent.setup();
    await user.click(within(lastAnswer()).getByRole('button', { name: 'Not helpful' }));
    expect(onFeedback).toHaveBeenLastCalledWith(expect.objectContaining({ value: 'down' }));
    const form = within(lastAnswer()).getByRole('form', { name: 'What was wrong?' });
    expect(document.activeElement).toBe(
      within(form).getByRole('checkbox', { name: 'Incorrect or outdated' }),
    );
    await user.click(within(form).getByRole('checkbox', { name: 'Missing or wrong sources' }));
    await user.type(
      within(form).getByRole('textbox', { name: 'Anything else? (optional)' }),
      'Needs the pnpm command',
    );
    await user.click(within(form).getByRole('button', { name: 'Send feedback' }));
    expect(onFeedback).toHaveBeenCalledTimes(2);
    expect(onFeedback).toHaveBeenLastCalledWith({
      messageId: expect.any(String),
      threadId: expect.any(String),
      value: 'down',
      reasons: ['sources'],
      comment: 'Needs the pnpm command',
    });
    expect(within(lastAnswer()).getByText('Thanks for the feedback.')).toBeTruthy();
    expect(JSON.stringify(events)).not.toContain('pnpm');
  });

  const ownersFeedback = async () =>
    (
      await (
        await app.request(`http://test/v1/insights/${DEMO.domain}`, {
          headers: { Authorization: `Bearer ${DEMO.adminKey}` },
        })
      ).json()
    ).feedback;

  it('sends the thumbs-down and what was wrong to the server, where the owner reads them with the question', async () => {
    const { fetch } = recorder();
    renderWidget({ fetch, userId: 'reader-7' });
    await ask('How do I install it?');
    await waitForIdle();
    const user = userEvent.setup();
    await user.click(within(lastAnswer()).getByRole('button', { name: 'Not helpful' }));
    const form = within(lastAnswer()).getByRole('form', { name: 'What was wrong?' });
    await user.click(within(form).getByRole('checkbox', { name: 'Incorrect or outdated' }));
    await user.type(
      within(form).getByRole('textbox', { name: 'Anything else? (optional)' }),
      'Needs the pnpm command',
    );
    await user.click(within(form).getByRole('button', { name: 'Send feedback' }));
    await waitFor(async () =>
      expect((await ownersFeedback()).items).toEqual([
        expect.objectContaining({
          rating: 'down',
          reasons: ['incorrect'],
          comment: 'Needs the pnpm command',
          question: 'How do I install it?',
        }),
      ]),
    );
  });

  it('sends nothing to the server when the owner turns it off, and still calls onFeedback', async () => {
    const onFeedback = vi.fn();
    const { fetch } = recorder();
    renderWidget({ fetch, onFeedback, sendFeedback: false });
    await ask('How do I install it?');
    await waitForIdle();
    await userEvent.setup().click(within(lastAnswer()).getByRole('button', { name: 'Helpful' }));
    expect(onFeedback).toHaveBeenCalledWith(expect.objectContaining({ value: 'up' }));
    expect(vi.mocked(fetch).mock.calls.map(([url]) => String(url))).not.toContainEqual(
      expect.stringContaining('/feedback'),
    );
    expect((await ownersFeedback()).items).toEqual([]);
  });
});

describe('citations', () => {
  const cited = () =>
    streamResponse([
      ...search('install'),
      searchResult,
      part('finish_step', { finishReason: 'tool-calls', isContinued: false }),
      part('start_step', { messageId: 'm1' }),
      part(
        'text',
        'Install it from npm [1], then see [the threads guide](https://docs.example.com/threads) [3]. Code: `a[2]`.',
      ),
      finish(),
    ]);

  it('turns [n] into links to the cited source, with a preview on keyboard focus', async () => {
    const { fetch } = recorder(cited);
    renderWidget({ fetch });
    await ask('How do I install it?');
    await waitForIdle();
    const answer = lastAnswer();
    const one = within(answer).getByRole('link', { name: 'Source 1: Install' });
    expect(one.getAttribute('href')).toBe('https://docs.example.com/install');
    expect(one.getAttribute('target')).toBe('_blank');
    expect(one.getAttribute('rel')).toBe('noopener noreferrer');
    expect(within(answer).getByRole('link', { name: 'Source 3: Threads' })).toBeTruthy();
    // `[2]` inside code is code, not a citation.
    expect(within(answer).queryByRole('link', { name: /Source 2/ })).toBeNull();
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => one.focus());
    const preview = screen.getByRole('tooltip');
    expect(one.getAttribute('aria-describedby')).toBe(preview.id);
    expect(preview.textContent).toBe('Install/installRun npm install docs-assistant.');
    act(() => one.blur());
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('lists only cited sources; the other hits are under a collapsed "Also searched"', async () => {
    const { fetch } = recorder(cited);
    renderWidget({ fetch });
    await ask('How do I install it?');
    await waitForIdle();
    const answer = lastAnswer();
    const sources = within(answer).getByRole('group', { name: 'Sources' });
    expect(
      within(sources)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['1Install', '3Threads']);
    const searched = answer.querySelector('details.da-also-searched') as HTMLDetailsElement;
    expect(searched.open).toBe(false);
    expect(
      within(searched)
        .getAllByRole('link', { hidden: true })
        .map((a) => a.textContent),
    ).toEqual(['2Theming']);
  });

  it('opens same-site links in the page itself when openLinksInNewTab is false', async () => {
    const sameSite = () =>
      streamResponse([
        part('source', { sourceType: 'url', id: 's', url: '/docs/install', title: 'Install' }),
        part('text', 'See [1] and [the guide](/docs/guide).'),
        finish(),
      ]);
    const { fetch } = recorder(sameSite);
    renderWidget({ fetch, openLinksInNewTab: false });
    await ask('How do I install it?');
    await waitForIdle();
    const answer = lastAnswer();
    for (const link of within(answer).getAllByRole('link'))
      expect(link.hasAttribute('target'), link.textContent!).toBe(false);
    cleanup();
    renderWidget({ fetch: recorder(sameSite).fetch, persist: false });
    await ask('How do I install it?');
    await waitForIdle();
    for (const link of within(lastAnswer()).getAllByRole('link'))
      expect(link.getAttribute('target'), link.textContent!).toBe('_blank');
  });
});

describe('panel mode', () => {
  it('stays open across page loads of the site once the reader opened it, and stays closed once closed', async () => {
    sessionStorage.clear();
    const { fetch } = recorder();
    const first = renderWidget({ fetch, mode: 'panel', defaultOpen: false });
    await userEvent.setup().click(screen.getByRole('button', { name: /Ask AI/ }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    first.unmount();
    // The next page.
    const second = renderWidget({ fetch, mode: 'panel', defaultOpen: false });
    await waitFor(() => expect(screen.getByRole('dialog')).toBeTruthy());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));
    second.unmount();
    renderWidget({ fetch, mode: 'panel', defaultOpen: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('code in answers', () => {
  it('is syntax-highlighted once the highlighter arrives, and copies as the plain code', async () => {
    const code = 'npm install docs-assistant # the React widget\nexport TOKEN="svc_dsc_x"';
    const { fetch } = recorder(() =>
      streamResponse([
        part('text', '```bash\n' + code + '\n```\n\n```\nplain text block\n```'),
        finish(),
      ]),
    );
    renderWidget({ fetch });
    await ask('How do I install it?');
    await waitForIdle();
    const [bash, plain] = [...lastAnswer().querySelectorAll('pre code')] as HTMLElement[];
    await waitFor(() =>
      expect(bash!.querySelector('.da-tok-comment')?.textContent).toBe('# the React widget'),
    );
    expect(bash!.querySelector('.da-tok-keyword')?.textContent).toBe('export');
    expect(bash!.querySelector('.da-tok-string')?.textContent).toContain('svc_dsc_x');
    expect(bash!.textContent).toBe(code);
    expect(plain!.children).toHaveLength(0);
    await userEvent
      .setup()
      .click(within(lastAnswer()).getAllByRole('button', { name: 'Copy code' })[0]!);
    expect(await navigator.clipboard.readText()).toBe(code);
  });
});

/** An answer's "Ask next" questions, and their texts. */
const followUps = (answer = lastAnswer()) =>
  within(answer).queryByRole('group', { name: 'Ask next' });
const followUpTexts = () =>
  within(followUps()!)
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('follow-up questions', () => {
  it("offers the server's follow-up questions under the last answer; a click asks one", async () => {
    const { fetch, bodies } = recorder();
    renderWidget({ fetch });
    await ask('How do I install it?');
    await waitForIdle();
    const buttons = within(followUps()!).getAllByRole('button');
    expect(buttons.length).toBeGreaterThanOrEqual(2);
    expect(buttons.length).toBeLessThanOrEqual(3);
    const question = buttons[0]!.textContent!;
    await userEvent.setup().click(buttons[0]!);
    await waitForIdle();
    expect(bodies.at(-1)!.messages.at(-1)!.content).toBe(question);
    expect(
      within(log())
        .getAllByText(question)
        .some((el) => el.closest('[data-role="user"]')),
    ).toBe(true);
    // Only the last answer offers them; the earlier one no longer does.
    const [first] = answersShown();
    expect(followUps(first!)).toBeNull();
    expect(followUps()).not.toBeNull();
  });

  it('offers none under a stopped or failed answer, and ignores malformed ones', async () => {
    const annotation = part('message_annotations', [
      { type: 'suggestions', questions: ['Next?', 42, '', 'x'.repeat(500)] },
    ]);
    const stopped = gatedStream([part('text', 'Half '), annotation]);
    const { fetch } = recorder((n) =>
      n === 1
        ? stopped.response()
        : n === 2
          ? streamResponse([part('text', 'Partly '), annotation, part('error', 'boom')])
          : streamResponse([part('text', 'Whole.'), annotation, finish()]),
    );
    renderWidget({ fetch });
    await ask('One?');
    await waitFor(() => expect(within(log()).getByText('Half')).toBeTruthy());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(lastAnswer().dataset.state).toBe('stopped'));
    expect(followUps()).toBeNull();
    await ask('Two?');
    await waitForIdle();
    expect(lastAnswer().dataset.state).toBe('failed');
    expect(followUps()).toBeNull();
    await ask('Three?');
    await waitForIdle();
    expect(followUpTexts()).toEqual(['Next?']);
    stopped.release();
  });
});

describe('follow-up questions from a suggestions block', () => {
  it('asks about each suggested page when the server offers no questions', async () => {
    const { fetch, bodies } = recorder((n) =>
      n === 1
        ? streamResponse([
            part(
              'text',
              'Done.\n\n```suggestions\n(Theming)[/guides/theming]\n(Threads)[/guides/threads]\n```\n',
            ),
            finish(),
          ])
        : streamResponse([part('text', 'More.'), finish()]),
    );
    renderWidget({ fetch });
    await ask('One?');
    await waitForIdle();
    expect(followUpTexts()).toEqual(['Tell me more about Theming', 'Tell me more about Threads']);
    // The pages stay as "Related pages" links too.
    expect(within(lastAnswer()).getByRole('link', { name: 'Theming' })).toBeTruthy();
    await userEvent
      .setup()
      .click(within(followUps()!).getByRole('button', { name: 'Tell me more about Threads' }));
    await waitForIdle();
    expect(bodies.at(-1)!.messages.at(-1)!.content).toBe('Tell me more about Threads');
  });
});

describe('follow-up questions from a language model', () => {
  let llm: LlmTestServer;
  beforeAll(async () => {
    llm = await startLlmServer();
  });
  afterAll(() => llm.close());

  it('offers the questions the model suggested, without showing its block', async () => {
    llm.script({
      text: [
        'Install it with npm [1].\n\n```followups\nHow do I add it to a React app?\n',
        'Where does the API key go?\n```',
      ],
    });
    const withModel = await demoApp({ llm: { baseUrl: llm.baseUrl, model: 'test-model' } });
    renderWidget({
      fetch: ((url: RequestInfo | URL, init?: RequestInit) =>
        withModel.request(String(url), init)) as typeof fetch,
    });
    await ask('How do I install it?');
    await waitForIdle();
    expect(followUpTexts()).toEqual([
      'How do I add it to a React app?',
      'Where does the API key go?',
    ]);
    expect(lastAnswer().textContent).not.toContain('followups');
  });
});

describe('how sure an answer is', () => {
  it('marks an unsure and a refused answer in words, reads a sure one to screen readers, and announces which', async () => {
    const { fetch } = recorder();
    renderWidget({ fetch });
    await ask('How do I theme the widget colours?');
    await waitForIdle();
    expect(lastAnswer().dataset.confidence).toBe('sure');
    expect(within(lastAnswer()).getByText('Answered from the docs').className).toBe(
      'da-visually-hidden',
    );
    expect(within(lastAnswer()).queryByText('Not sure')).toBeNull();
    // The announcement follows the answer's end by a render (the announcer's effect): wait for it.
    const status = (text: string | RegExp) =>
      waitFor(() => expect(screen.getByRole('status').textContent).toMatch(text));
    await status(/^Answer ready\.$/);

    await ask('How do I change the launcher position?');
    await waitForIdle();
    expect(lastAnswer().dataset.confidence).toBe('unsure');
    expect(within(lastAnswer()).getByText('Not sure').closest('p')!.dataset.level).toBe('unsure');
    await status(/^Answer ready, not sure/);
    // The best places are a list of links to their sections ("Page › Section").
    const places = within(lastAnswer())
      .getAllByRole('link')
      .filter((link) => link.textContent!.includes('›'));
    expect(places.length).toBeGreaterThanOrEqual(2);
    for (const link of places) {
      expect(link.getAttribute('href')).toMatch(/\/docs\/.+#.+/);
      expect(link.closest('li')).not.toBeNull();
    }

    await ask('Does it support single sign-on with SAML?');
    await waitForIdle();
    expect(lastAnswer().dataset.confidence).toBe('refused');
    expect(within(lastAnswer()).getByText('Not in the docs')).toBeTruthy();
    // What it searched is listed as searched, not as the sources of an answer it did not give.
    expect(within(lastAnswer()).queryByRole('group', { name: 'Sources' })).toBeNull();
    expect(lastAnswer().querySelector('details.da-also-searched summary')?.textContent).toMatch(
      /^Also searched \(\d+\)$/,
    );
    await status(/^Answer ready: the docs don’t cover this\.$/);
  });
});
