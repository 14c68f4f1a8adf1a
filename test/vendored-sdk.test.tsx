// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The published widget runs the AI SDK's hook from a bundle made at package time (packages/build.mjs,
// VENDORED), not from @ai-sdk/react. Build that same bundle and run the widget on it.
const vendored = vi.hoisted(() => {
  /* eslint-disable @typescript-eslint/no-require-imports -- vi.hoisted runs before imports */
  const { join } = require('node:path') as typeof import('node:path');
  const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
  const root = join(__dirname, '..');
  // Inside the repo, so the bundle's own imports (react, swr) resolve to the test's copies.
  const file = join(root, 'node_modules/.cache/docs-assistant-vendor-test/ai-sdk.js');
  const out = execFileSync(
    process.execPath,
    [join(root, 'packages/build.mjs'), 'vendor', 'docs-assistant', file],
    { encoding: 'utf8' },
  );
  return { file, bundled: JSON.parse(out) as string[] };
});
vi.mock('@ai-sdk/react', () => import(vendored.file));
// The test's own helpers use more of ui-utils; the widget's imports get the bundle's versions.
vi.mock('@ai-sdk/ui-utils', async (original) => ({
  ...(await original<object>()),
  ...(await import(vendored.file)),
}));

const { DocsAssistant } = await import('../src/index.js');
const { DEMO } = await import('../src/server/config.js');
const { demoApp } = await import('./helpers/server.js');

afterEach(() => cleanup());

describe('the widget on the vendored AI SDK bundle', () => {
  it('bundles the hook without zod, and answers a question from the reference server with citations', async () => {
    expect(vendored.bundled).toContain('@ai-sdk/react');
    expect(vendored.bundled).not.toContain('zod');
    // zod-to-json-schema leaves one module-level constant (an 80-byte Set), none of its code.
    const text = readFileSync(vendored.file, 'utf8');
    expect(text).not.toMatch(/zodToJsonSchema|ZodFirstPartyTypeKind|parseDef/);
    expect(Object.keys(await import(vendored.file))).toContain('useChat');

    const app = await demoApp();
    const fetch = ((url: string, init: RequestInit) =>
      app.request(url, init)) as typeof globalThis.fetch;
    render(
      <DocsAssistant
        domain={DEMO.domain}
        apiKey={DEMO.assistantKey}
        baseUrl="http://test"
        defaultOpen
        fetch={fetch}
      />,
    );
    const user = userEvent.setup();
    await user.type(
      screen.getByRole('textbox', { name: 'Your question' }),
      'How do I install it from npm?',
    );
    await user.keyboard('{Enter}');
    const log = screen.getByRole('log');
    await waitFor(() =>
      expect(
        within(log).getAllByText(/npm install docs-assistant react react-dom/).length,
      ).toBeGreaterThan(0),
    );
    await waitFor(() => expect(screen.getByRole('dialog').dataset.status).toBe('ready'));
    const sources = within(log).getAllByRole('group', { name: 'Sources' }).at(-1)!;
    expect(within(sources).getAllByRole('link')[0]!.getAttribute('href')).toBe(
      'http://test/docs/installation',
    );
  });
});
