import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { expect } from 'vitest';
import { DEMO } from '../../src/server/config.js';
import { DocsAssistant, type AssistantHandle, type DocsAssistantProps } from '../../src/index.js';

/** The widget, open, for the demo site, talking through `fetch` (usually the in-process server). */
export function renderWidget(
  props: Partial<DocsAssistantProps> & { fetch: typeof fetch },
  ref = createRef<AssistantHandle>(),
) {
  const utils = render(
    <DocsAssistant
      ref={ref}
      domain={DEMO.domain}
      apiKey={DEMO.assistantKey}
      baseUrl="http://test"
      defaultOpen
      {...props}
    />,
  );
  return { ...utils, ref };
}

/** Types a question the way a reader does and sends it with Enter. */
export async function ask(question: string, inputName = 'Your question') {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: inputName }), question);
  await user.keyboard('{Enter}');
}

export const log = () => screen.getByRole('log');
export const answersShown = () =>
  within(log())
    .queryAllByRole('listitem')
    .filter((li) => li.dataset.role === 'assistant');
export const lastAnswer = () => answersShown().at(-1)!;
export const waitForIdle = () =>
  waitFor(() => expect(screen.getByRole('dialog').dataset.status).toMatch(/ready|error/));
