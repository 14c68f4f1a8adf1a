// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The warning is once per page, so each test loads the widget afresh.
async function renderWidget() {
  vi.resetModules();
  const { DocsAssistant } = await import('../src/index.js');
  render(<DocsAssistant domain="demo" apiKey="svc_dsc_demo" baseUrl="http://test" />);
  await screen.findByRole('button', { name: 'Ask AI' });
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  warn.mockRestore();
  document.head.replaceChildren();
});

describe('a page that forgot docs-assistant/styles.css', () => {
  it('is told once, in development, how to add the styles', async () => {
    await renderWidget();
    cleanup();
    const { DocsAssistant } = await import('../src/index.js');
    render(
      <DocsAssistant domain="demo" apiKey="svc_dsc_demo" baseUrl="http://test" mode="panel" />,
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain("import 'docs-assistant/styles.css'");
  });

  it('says nothing when the stylesheet is on the page', async () => {
    const style = document.createElement('style');
    style.textContent = (
      await Promise.all(
        ['launcher', 'widget'].map((f) =>
          readFile(join(import.meta.dirname, `../src/ui/styles/${f}.css`), 'utf8'),
        ),
      )
    ).join('\n');
    document.head.append(style);
    await renderWidget();
    expect(warn).not.toHaveBeenCalled();
  });

  it('says nothing in production builds', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      await renderWidget();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
