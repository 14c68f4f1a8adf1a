// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerText, INLINE_CHARS, loadMarkdown } from '../src/ui/answer-text.js';
import { UiContext } from '../src/ui/translations.js';

// Unmounted after each test: an idle highlighting job of a still-mounted block otherwise set state
// after the test environment was torn down ("window is not defined", failing the run).
afterEach(cleanup);

describe('AnswerText', () => {
  it('shows a burst of text at once and formats it over the next tasks, a step at a time', async () => {
    await loadMarkdown();
    const count = Math.ceil((4 * INLINE_CHARS) / 90);
    const sections = Array.from(
      { length: count },
      (_, i) =>
        `## Heading ${i}\n\nParagraph ${i} with **bold** text that is long enough to matter for the step size.`,
    );
    const text = sections.join('\n\n');
    expect(text.length).toBeGreaterThan(3 * INLINE_CHARS);
    const { container } = render(<AnswerText text={text} />);
    // Everything is on screen at once; only the first step is formatted yet.
    expect(container.textContent).toContain(`Paragraph ${count - 1}`);
    const pendingAtFirst = container.querySelectorAll('[data-pending]').length;
    expect(pendingAtFirst).toBeGreaterThan(0);
    expect(screen.getAllByRole('heading').length).toBeLessThan(count);
    // Formatting runs over later tasks (waitFor waits as long as a loaded machine needs: test/setup.ts).
    await waitFor(() => expect(container.querySelectorAll('[data-pending]')).toHaveLength(0));
    expect(screen.getAllByRole('heading')).toHaveLength(count);
    expect(container.querySelectorAll('strong')).toHaveLength(count);
  });

  it('keeps a streaming code block and its link as the same elements while more tokens arrive', async () => {
    await loadMarkdown();
    // How an answer grows token by token: the code block is still open, then closed, then followed.
    const steps = [
      'See [the guide](/guide) first.\n\n```ts\nconst a = 1;\n',
      'See [the guide](/guide) first.\n\n```ts\nconst a = 1;\nconst b = 2;\n',
      'See [the guide](/guide) first.\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n',
      'See [the guide](/guide) first.\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n\nThen run it.',
    ];
    const view = (text: string) => (
      // A fresh context value each time, as a parent re-rendering for each token might pass.
      <UiContext.Provider value={{ translations: {}, docsBaseUrl: 'https://docs.example.com/' }}>
        <AnswerText text={text} streaming />
      </UiContext.Provider>
    );
    const { container, rerender } = render(view(steps[0]!));
    await waitFor(() => expect(container.querySelector('pre')).not.toBeNull());
    const pre = container.querySelector('pre')!;
    const link = container.querySelector('a')!;
    const copy = screen.getByRole('button', { name: 'Copy code' });
    for (const text of steps.slice(1)) {
      rerender(view(text));
      await waitFor(() => expect(container.querySelectorAll('[data-pending]')).toHaveLength(0));
      expect(container.querySelector('pre')).toBe(pre);
      expect(container.querySelector('a')).toBe(link);
      expect(screen.getByRole('button', { name: 'Copy code' })).toBe(copy);
    }
    expect(pre.textContent).toBe('const a = 1;\nconst b = 2;');
    expect(link.getAttribute('href')).toBe('https://docs.example.com/guide');
  });
});
