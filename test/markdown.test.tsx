// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownText } from '../src/ui/markdown.js';
import { UiContext } from '../src/ui/translations.js';

const html = (text: string) =>
  render(
    <UiContext.Provider value={{ translations: {}, docsBaseUrl: 'https://docs.example.com/' }}>
      <MarkdownText text={text} />
    </UiContext.Provider>,
  ).container;

// Unmounted after each test: an idle highlighting job of a still-mounted block otherwise set state
// after the test environment was torn down ("window is not defined", failing the run).
afterEach(cleanup);

describe('MarkdownText', () => {
  it('renders GFM: tables with alignment, task lists, strikethrough, autolinks, ordered starts', () => {
    const root = html(
      '| a | b |\n|:-|-:|\n| 1 | **2** |\n\n- [x] done\n- [ ] open\n\n3. three\n4. four\n\n~~gone~~ see https://example.com/x and `a < b`',
    );
    expect(
      [...root.querySelectorAll('th, td')].map((cell) => [
        cell.textContent,
        (cell as HTMLElement).style.textAlign,
      ]),
    ).toEqual([
      ['a', 'left'],
      ['b', 'right'],
      ['1', 'left'],
      ['2', 'right'],
    ]);
    expect(
      [...root.querySelectorAll<HTMLInputElement>('li input[type=checkbox]')].map((box) => [
        box.checked,
        box.disabled,
      ]),
    ).toEqual([
      [true, true],
      [false, true],
    ]);
    expect(root.querySelector('ol')!.getAttribute('start')).toBe('3');
    expect(root.querySelector('del')!.textContent).toBe('gone');
    expect(root.querySelector('a')!.getAttribute('href')).toBe('https://example.com/x');
    expect(root.querySelector('code')!.textContent).toBe('a < b');
  });

  it('draws no header row for a table whose header cells are all empty', () => {
    // A built page's table without a header (Sphinx's), quoted: its rows only.
    const root = html('|   |   |\n| - | - |\n| URL | Method |\n| `/users/` | `GET` |');
    expect(root.querySelector('thead')).toBeNull();
    expect([...root.querySelectorAll('tr')].map((row) => row.textContent)).toEqual([
      'URLMethod',
      '/users/GET',
    ]);
    expect(html('| a | b |\n| - | - |\n| 1 | 2 |').querySelector('thead')!.textContent).toBe('ab');
  });

  it('keeps each word of code in a table cell whole, and leaves code elsewhere as written', () => {
    const root = html(
      '| command | flag |\n|-|-|\n| `npm run  bench:size -- --pages 20000` | `--open-to-agents` |\n\n`npm run build`',
    );
    const [command, flag] = [...root.querySelectorAll('td code')];
    // The words are the pieces the cell may wrap between; the text is the code as written.
    expect([...command!.children].map((word) => word.textContent)).toEqual([
      'npm',
      'run',
      'bench:size',
      '--',
      '--pages',
      '20000',
    ]);
    expect(command!.textContent).toBe('npm run  bench:size -- --pages 20000');
    expect([...flag!.children].map((word) => word.textContent)).toEqual(['--open-to-agents']);
    const prose = root.querySelector('p code')!;
    expect(prose.children).toHaveLength(0);
    expect(prose.textContent).toBe('npm run build');
  });

  it('shows text as written: entities decoded once, escapes applied, raw HTML dropped', () => {
    const root = html(
      'Fish &amp; chips &#169; &lt;b&gt; \\*not em\\* &unknown; <b>bold?</b> <script>alert(1)</script>\n\n> quoted',
    );
    const paragraph = root.querySelector('p')!;
    expect(paragraph.textContent).toBe('Fish & chips © <b> *not em* &unknown; bold? alert(1)');
    expect(root.querySelectorAll('b, script, em')).toHaveLength(0);
    expect(root.querySelector('blockquote')!.textContent).toBe('quoted');
  });

  it('resolves relative links against the docs site and gives code blocks their language and copy button', () => {
    const root = html('[Guide](/guides/a)\n\n```ts title\nconst a = 1;\n```');
    expect(root.querySelector('a')!.getAttribute('href')).toBe('https://docs.example.com/guides/a');
    const code = root.querySelector('.da-code')!;
    expect(code.getAttribute('data-language')).toBe('ts');
    expect(code.querySelector('code')!.className).toBe('language-ts');
    expect(code.querySelector('code')!.textContent).toBe('const a = 1;');
    expect(
      code.querySelector('button')!.getAttribute('aria-label') ??
        code.querySelector('button')!.textContent,
    ).toContain('Copy');
  });
});
