// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocsAssistantProps } from '../src/index.js';
import { loadMarkdown } from '../src/ui/answer-text.js';
import { FRENCH } from './fixtures/translations-fr.js';
import { finish, part, streamResponse } from './helpers/streams.js';
import { ask, lastAnswer, renderWidget, waitForIdle } from './helpers/widget.js';

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

const QUESTION = 'Comment installer le widget ?';
const RESULTS = [
  { url: 'https://docs.example.com/install', path: '/install', title: 'Installation' },
  { url: 'https://docs.example.com/theming', path: '/theming', title: 'Thèmes' },
];
const ANSWER =
  'Lancez la commande [1] :\n\n```sh\nnpm install docs-assistant\n```\n\n```\nsans langage\n```\n\n' +
  '```suggestions\n(Thèmes)[/theming]\n```';
/** What the answer itself says: it may appear in any language. */
const CONTENT = [QUESTION, ANSWER, 'npm test', ...RESULTS.flatMap((r) => [r.title, r.path])];

const answer = () =>
  streamResponse([
    part('start_step', { messageId: 'm1' }),
    part('tool_call', { toolCallId: 'c1', toolName: 'search', args: { query: 'installer' } }),
    part('tool_result', { toolCallId: 'c1', result: RESULTS }),
    part('finish_step', { finishReason: 'tool-calls', isContinued: false }),
    part('start_step', { messageId: 'm1' }),
    part('text', ANSWER),
    finish(),
  ]);

/** Every string a reader can see or hear in the widget right now: text, names, titles, placeholders. */
function shownStrings(): string[] {
  const strings: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    strings.push(node.textContent ?? '');
  for (const el of document.body.querySelectorAll('*'))
    for (const name of ['aria-label', 'title', 'placeholder'])
      strings.push(el.getAttribute(name) ?? '');
  return strings.map((s) => s.trim()).filter((s) => /\p{L}/u.test(s));
}

/** Walks the widget through its states (empty, context, tool line, answer, sources, feedback, error). */
async function tour(props: Partial<DocsAssistantProps>, inputName: string): Promise<Set<string>> {
  await loadMarkdown();
  const seen = new Set<string>();
  const look = () => shownStrings().forEach((s) => seen.add(s));
  const { ref, unmount } = renderWidget({
    fetch: async () => answer(),
    starterQuestions: [QUESTION],
    supportUrl: 'https://example.com/support',
    ...props,
  });
  look();
  act(() => ref.current!.addContext({ type: 'code', value: 'npm test', path: '/install' }));
  look();
  await ask(QUESTION, inputName);
  await waitForIdle();
  await waitFor(() => expect(lastAnswer().querySelector('.da-code')).not.toBeNull());
  look();
  const user = userEvent.setup();
  // Thumbs down (the second of the two pressable buttons) opens "What was wrong?".
  await user.click(lastAnswer().querySelectorAll<HTMLElement>('[aria-pressed]')[1]!);
  look();
  unmount();
  renderWidget({
    fetch: async () =>
      new Response('{"error":"rate_limited","message":"x"}', {
        status: 429,
        headers: { 'Retry-After': '120' },
      }),
    ...props,
  });
  await ask(QUESTION, inputName);
  await screen.findByRole('alert');
  look();
  return seen;
}

describe('translations', () => {
  it('shows no English string anywhere once every group is translated', async () => {
    const english = await tour({}, 'Your question');
    cleanup();
    localStorage.clear();
    const french = await tour({ translations: FRENCH }, FRENCH.composer.inputLabel);
    // The tour really went through the translated states.
    for (const s of [
      FRENCH.launcher.buttonText,
      FRENCH.start.startersTitle,
      FRENCH.feedback.title,
      FRENCH.sources.title,
      FRENCH.code.copyCode,
      FRENCH.code.noLanguage,
      'Recherche de « installer » faite',
      'Trop de questions. Réessayez dans 2 minutes.',
    ])
      expect(french, s).toContain(s);
    const untranslated = [...french].filter(
      (s) => english.has(s) && !CONTENT.some((content) => content.includes(s)),
    );
    expect(untranslated).toEqual([]);
  });

  it('still takes the flat labels of earlier versions, and translations win where both name a string', async () => {
    renderWidget({
      fetch: async () => answer(),
      labels: { send: 'Senden', placeholder: 'Frage…', title: 'Assistent', copied: 'Kopiert' },
      translations: { composer: { send: 'Abschicken' } },
    });
    expect(screen.getByRole('button', { name: 'Abschicken' })).toBeTruthy();
    expect(screen.getByPlaceholderText('Frage…')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Assistent' })).toBeTruthy();
  });
});
