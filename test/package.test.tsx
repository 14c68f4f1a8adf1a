import { readFile } from 'node:fs/promises';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('public React API', () => {
  it('exports exactly these names', async () => {
    const api = await import('../src/index.js');
    expect(Object.keys(api).sort()).toEqual([
      'AssistantError',
      'DocsAssistant',
      'useDocsAssistant',
      'usePageContext',
    ]);
  });

  it('exports exactly these names from docs-assistant/client (browser-safe) and docs-assistant/client/node', async () => {
    expect(Object.keys(await import('../src/client/index.js')).sort()).toEqual([
      'AssistantError',
      'assertBrowserSafeKey',
      'assistantMessageUrl',
      'assistantMessageV2Url',
      'assistantV2Transport',
      'createDocsClient',
      'errorFromResponse',
      'kindOfStatus',
      'parseRetryAfter',
      'threadIdOf',
    ]);
    expect(Object.keys(await import('../src/client/node.js')).sort()).toEqual([
      'AssistantError',
      'StaticExportError',
      'createStaticExportClient',
    ]);
  });

  it('is marked "use client" and imports without a window or document (server rendering)', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    expect(
      (await readFile(new URL('../src/index.ts', import.meta.url), 'utf8')).startsWith(
        "'use client';",
      ),
    ).toBe(true);
    const { DocsAssistant } = await import('../src/index.js');
    const html = renderToString(
      <DocsAssistant domain="demo" apiKey="svc_dsc_demo" baseUrl="https://api.example.com" />,
    );
    expect(html).toContain('Ask AI');
    expect(html).toContain('class="da-root"');
  });

  it('ships types first in the exports map, a stylesheet, and React as a peer', async () => {
    const pkg = JSON.parse(
      await readFile(new URL('../packages/docs-assistant/package.json', import.meta.url), 'utf8'),
    );
    expect(Object.keys(pkg.exports['.'])[0]).toBe('types');
    expect(pkg.exports['./styles.css']).toBe('./dist/styles.css');
    expect(pkg.peerDependencies).toHaveProperty('react');
    expect(pkg.dependencies).not.toHaveProperty('react');
    // The hook is bundled at package time (packages/build.mjs) and our .d.ts use our own message
    // types, so neither the SDK nor zod is installed with the widget.
    expect(pkg.dependencies).not.toHaveProperty('@ai-sdk/ui-utils');
    expect(pkg.dependencies).not.toHaveProperty('zod');
  });

  it('keeps every stylesheet rule inside the widget root', async () => {
    const css = (
      await Promise.all(
        ['launcher', 'widget'].map((f) =>
          readFile(new URL(`../src/ui/styles/${f}.css`, import.meta.url), 'utf8'),
        ),
      )
    ).join('\n');
    const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
    const selectors = [...withoutComments.matchAll(/(^|})\s*([^{}@]+?)\s*\{/g)]
      .map((m) => m[2]!.trim())
      .filter((s) => !/^(from|to|\d+%)$/.test(s));
    const outside = selectors
      // A selector list's commas, not those inside :is()/:has()/:not() arguments.
      .flatMap((s) => s.split(/,(?![^(]*\))/).map((x) => x.trim()))
      .filter((s) => !s.startsWith('.da-root'));
    expect(outside).toEqual([]);
  });
});
