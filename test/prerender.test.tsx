import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Next.js 16 with cacheComponents (create-next-app's default) fails `next build` when a client
// component reads Math.random(), Date.now() or crypto randomness while rendering.
describe('server rendering under Next.js cacheComponents rules', () => {
  afterEach(() => vi.restoreAllMocks());

  it('renders the widget and its launcher without reading a clock or randomness', async () => {
    const { DocsAssistant } = await import('../src/index.js');
    const random = vi.spyOn(Math, 'random');
    const now = vi.spyOn(Date, 'now');
    const uuid = vi.spyOn(globalThis.crypto, 'randomUUID');
    const bytes = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const html = renderToString(
      <DocsAssistant
        domain="acme"
        apiKey="svc_dsc_demo"
        baseUrl="https://api.example.com"
        starterQuestions={['How do I install it?']}
      />,
    );
    expect(html).toContain('Ask AI');
    expect(random).not.toHaveBeenCalled();
    expect(now).not.toHaveBeenCalled();
    expect(uuid).not.toHaveBeenCalled();
    expect(bytes).not.toHaveBeenCalled();
  });
});
