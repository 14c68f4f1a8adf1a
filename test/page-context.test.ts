// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextItem } from '../src/protocol/schemas.js';
import { attachPageContext, codeBlockText } from '../src/ui/page-context.js';

// Markup in the shapes VitePress', Docusaurus' and Starlight's builds render for a code block.
const CODE = [
  'import { defineConfig } from "vitepress";',
  '',
  'export default defineConfig({',
  '  title: "Docs",',
  '});',
  'const long = 1;',
];

const vitepress = `<div class="language-ts vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">ts</span>
<pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code>${CODE.map((line) => `<span class="line">${line ? `<span style="--shiki-light:#D73A49">${line.slice(0, 6)}</span><span>${line.slice(6)}</span>` : ''}</span>`).join('\n')}
</code></pre></div>`;

const docusaurus = `<div class="language-tsx theme-code-block"><div class="codeBlockContent_biex"><pre tabindex="0" class="prism-code language-tsx codeBlock_bY9V"><code class="codeBlockLines_e6Vv">${CODE.map(
  (line) =>
    `<div class="token-line" style="color:#393A34">${line ? `<span class="token keyword">${line.slice(0, 6)}</span><span class="token plain">${line.slice(6)}</span>` : '<span class="token plain" style="display:inline-block">\n</span>'}<br></div>`,
).join(
  '',
)}</code></pre><div class="buttonGroup__atx"><button type="button" aria-label="Copy code to clipboard" class="clean-btn"></button></div></div></div>`;

const starlight = `<div class="expressive-code"><figure class="frame has-title not-content"><figcaption class="header"><span class="title">astro.config.mjs</span></figcaption><pre data-language="js"><code>${CODE.map(
  (line, i) =>
    `<div class="ec-line"><div class="gutter"><div class="ln" aria-hidden="true">${i + 1}</div></div><div class="code">${line ? `<span style="--0:#F97583">${line.slice(0, 6)}</span><span>${line.slice(6)}</span>` : '\n'}</div></div>`,
).join(
  '',
)}</code></pre><div class="copy"><button title="Copy to clipboard" data-code="x"><div></div></button></div></figure></div>`;

const plain = `<pre><code class="language-sh">${CODE.join('\n')}\n</code></pre>`;

function page(markup: string): HTMLElement {
  document.body.innerHTML = `<main>${markup}</main>`;
  return document.querySelector('main')!;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('codeBlockText', () => {
  it.each([
    ['VitePress (span.line separated by newlines)', vitepress],
    ['Docusaurus (div.token-line ending in <br>)', docusaurus],
    ['Starlight / Expressive Code (div.ec-line, aria-hidden line numbers)', starlight],
    ['a plain highlighted <pre>', plain],
  ])('gives the code line for line on %s', (_name, markup) => {
    const main = page(markup);
    expect(codeBlockText(main.querySelector('pre')!).split('\n')).toEqual(CODE);
  });

  it('leaves out elements the reader cannot see', () => {
    const main = page(
      '<pre><code>npm i<span hidden> secret</span><span style="display:none"> none</span> docs-assistant</code></pre>',
    );
    expect(codeBlockText(main.querySelector('pre')!)).toBe('npm i docs-assistant');
  });
});

describe('attachPageContext', () => {
  const over = (target: Element) =>
    target.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
  const buttonOf = (name: string) => {
    for (const host of document.querySelectorAll('docs-assistant-action')) {
      const button = host.shadowRoot!.querySelector<HTMLButtonElement>(
        `button[aria-label="${name}"]`,
      );
      if (button) return button;
    }
    return undefined;
  };

  it('creates nothing until the pointer reaches a code block, and never changes the page', () => {
    const main = page(docusaurus + starlight);
    const before = main.innerHTML;
    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(main, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    const items: ContextItem[] = [];
    const detach = attachPageContext({ onAttach: (item) => items.push(item) });
    expect(document.querySelector('docs-assistant-action')).toBeNull();

    over(main.querySelectorAll('pre')[1]!.querySelector('.code span')!);
    const button = buttonOf('Ask AI: code block')!;
    expect(button.parentElement!.dataset.state).not.toBeUndefined();
    button.click();
    expect(items).toEqual([
      { type: 'code', value: CODE.join('\n'), path: '/', elementId: 'da-code-2' },
    ]);

    observer.disconnect();
    expect(changes.concat(observer.takeRecords())).toEqual([]);
    expect(main.innerHTML).toBe(before);
    // Our host is a child of <body>, outside the page's own trees.
    expect(document.querySelector('docs-assistant-action')!.parentElement).toBe(document.body);
    detach();
    expect(document.querySelector('docs-assistant-action')).toBeNull();
  });

  it("uses the block's own id when it has one, and ignores blocks inside the assistant", () => {
    const main = page(
      '<pre id="install"><code>npm i docs-assistant</code></pre><div class="da-root"><pre><code>ours</code></pre></div>',
    );
    const items: ContextItem[] = [];
    const detach = attachPageContext({
      onAttach: (item) => items.push(item),
      isOwn: (n) => n instanceof Element && n.classList.contains('da-root'),
    });
    over(main.querySelector('.da-root code')!);
    expect(buttonOf('Ask AI: code block')).toBeUndefined();
    over(main.querySelector('#install code')!);
    buttonOf('Ask AI: code block')!.click();
    expect(items).toEqual([
      expect.objectContaining({ value: 'npm i docs-assistant', elementId: 'install' }),
    ]);
    detach();
  });

  it('shows its buttons in the translation given, text and accessible name', () => {
    const main = page(plain);
    const detach = attachPageContext({
      onAttach: () => {},
      translations: { buttonText: 'Demander à l’IA', codeBlockLabel: 'Demander à l’IA : ce code' },
    });
    over(main.querySelector('code')!);
    expect(buttonOf('Ask AI: code block')).toBeUndefined();
    expect(buttonOf('Demander à l’IA : ce code')!.textContent).toBe('Demander à l’IA');
    detach();
  });
});
