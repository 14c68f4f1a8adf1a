// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AnswerText, FORMAT_STEP_CHARS, loadMarkdown } from '../src/ui/answer-text.js';
import { DEFAULT_LABELS } from '../src/ui/labels.js';

describe('AnswerText', () => {
  it('shows a burst of text at once and formats it over the next tasks, a step at a time', async () => {
    await loadMarkdown();
    const count = Math.ceil((4 * FORMAT_STEP_CHARS) / 90);
    const sections = Array.from(
      { length: count },
      (_, i) =>
        `## Heading ${i}\n\nParagraph ${i} with **bold** text that is long enough to matter for the step size.`,
    );
    const text = sections.join('\n\n');
    expect(text.length).toBeGreaterThan(3 * FORMAT_STEP_CHARS);
    const { container } = render(
      <AnswerText text={text} labels={DEFAULT_LABELS} docsBaseUrl={undefined} />,
    );
    // Everything is on screen at once; only the first step is formatted yet.
    expect(container.textContent).toContain(`Paragraph ${count - 1}`);
    const pendingAtFirst = container.querySelectorAll('[data-pending]').length;
    expect(pendingAtFirst).toBeGreaterThan(0);
    expect(screen.getAllByRole('heading').length).toBeLessThan(count);
    // Formatting runs over later tasks; a loaded CI machine may need longer than waitFor's 1 s default.
    await waitFor(() => expect(container.querySelectorAll('[data-pending]')).toHaveLength(0), {
      timeout: 15_000,
    });
    expect(screen.getAllByRole('heading')).toHaveLength(count);
    expect(container.querySelectorAll('strong')).toHaveLength(count);
  });
});
