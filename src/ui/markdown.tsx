import {
  Fragment,
  memo,
  useContext,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { CitationContext } from './citation-context.js';
import { Lexer, type Token, type Tokens } from 'marked';
import { CopyButton } from './copy-button.js';
import { whenIdle, whenNear } from './idle.js';
import { fill, useDocsBaseUrl, useTranslations } from './translations.js';
import { linkTargetProps, safeUrl, urlLabel } from './urls.js';

export interface MarkdownProps {
  text: string;
}

/** Follow-up pages come in a `suggestions` block, one `(Title)[/path]` (or `[Title](/path)`) a line. */
export function parseSuggestions(code: string): { title: string; href: string }[] {
  return code
    .split('\n')
    .map((line) => /^\s*(?:\(([^)]+)\)\[([^\]]+)\]|\[([^\]]+)\]\(([^)]+)\))\s*$/.exec(line))
    .flatMap((m) => (m ? [{ title: (m[1] ?? m[3])!.trim(), href: (m[2] ?? m[4])!.trim() }] : []));
}

export function SafeLink({
  href,
  docsBaseUrl,
  children,
}: {
  href: string | undefined;
  docsBaseUrl: string | undefined;
  children: ReactNode;
}) {
  const { newTab } = useContext(CitationContext);
  const url = safeUrl(href, docsBaseUrl);
  if (!url) return <span className="da-unsafe-link">{children}</span>;
  return (
    <a href={url} {...linkTargetProps(url, newTab)}>
      {children}
    </a>
  );
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  rarr: '→',
  larr: '←',
  times: '×',
};

/**
 * marked leaves character references in text for its HTML output to carry; React text is literal,
 * so they are decoded here (numeric ones and the common names; others stay as written).
 */
function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|(\w+));/g,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name) return NAMED_ENTITIES[name] ?? whole;
      const code = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? '\ufffd'
        : String.fromCodePoint(code);
    },
  );
}

interface Context {
  docsBaseUrl: string | undefined;
  /** Inside a link: `[n]` stays text (no link in a link). */
  inLink?: boolean;
  /** Inside a table's cell: code breaks only at its spaces (`wholeWords`). */
  inCell?: boolean;
}

/**
 * Code in a table's cell, each of its words kept on one line (a flag cut at its hyphens,
 * "-- / open- / to- / agents", is not the flag any more) but free to wrap at its spaces, so a
 * long command does not make its column as wide as itself.
 */
function wholeWords(code: string): ReactNode[] {
  return code
    .split(/( +)/)
    .map((piece, key) => (piece.trim() ? <span key={key}>{piece}</span> : piece));
}

/**
 * An inline citation `[n]`: a link to the cited page, with a preview (title, path, snippet) on hover
 * and on keyboard focus. Until the sources are known it stays the plain `[n]` it was written as.
 */
function Cite({ n }: { n: number }) {
  const { citations, newTab } = useContext(CitationContext);
  const { citation: citationLabel = 'Source {n}: {title}' } = useTranslations('sources');
  const citation = citations.find((c) => c.n === n);
  const [open, setOpen] = useState(false);
  const [placement, setPlacement] = useState<{ side: 'bottom' | 'top'; shift: number }>({
    side: 'bottom',
    shift: 0,
  });
  const preview = useRef<HTMLSpanElement>(null);
  const id = useId();
  // Keep the preview inside the conversation's visible area: shift it sideways, flip it above.
  useLayoutEffect(() => {
    const el = preview.current;
    const bounds = el?.closest('.da-scroll')?.getBoundingClientRect();
    if (!el || !bounds) return;
    const box = el.getBoundingClientRect();
    const shift =
      box.right > bounds.right - 8
        ? bounds.right - 8 - box.right
        : box.left < bounds.left + 8
          ? bounds.left + 8 - box.left
          : 0;
    const side =
      box.bottom > bounds.bottom && box.top - box.height - 28 > bounds.top ? 'top' : 'bottom';
    if (shift !== 0 || side !== 'bottom') setPlacement({ side, shift });
  }, [open]);
  if (!citation) return <>{`[${n}]`}</>;
  const show = () => setOpen(true);
  const hide = () => {
    setOpen(false);
    setPlacement({ side: 'bottom', shift: 0 });
  };
  return (
    <span className="da-cite-wrap" onMouseEnter={show} onMouseLeave={hide}>
      <a
        className="da-cite"
        href={citation.url}
        {...linkTargetProps(citation.url, newTab)}
        aria-label={fill(citationLabel, { n, title: citation.title })}
        aria-describedby={open ? id : undefined}
        onFocus={show}
        onBlur={hide}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) hide();
        }}
      >
        {n}
      </a>
      {open && (
        <span
          ref={preview}
          id={id}
          role="tooltip"
          className="da-cite-preview"
          data-side={placement.side}
          style={placement.shift ? { translate: `${placement.shift}px 0` } : undefined}
        >
          <span className="da-cite-title">{citation.title}</span>
          {citation.path && <span className="da-cite-path">{citation.path}</span>}
          {citation.snippet && <span className="da-cite-snippet">{citation.snippet}</span>}
        </span>
      )}
    </span>
  );
}

/** Text with its `[n]` citation markers as links. */
function withCitations(text: string, context: Context): ReactNode {
  if (context.inLink || !/\[\d/.test(text)) return text;
  const parts = text.split(/\[(\d{1,3})\]/);
  return parts.map((part, i) => (i % 2 === 1 ? <Cite key={i} n={Number(part)} /> : part));
}

type Highlighter = typeof import('./highlight.js');
type Lines = ReturnType<Highlighter['tokenize']>;
let highlighter: Highlighter | undefined;
let loadingHighlighter: Promise<Highlighter> | undefined;

const loadHighlighter = () =>
  (loadingHighlighter ??= import('./highlight.js').then((m) => (highlighter = m)));

/**
 * Code, highlighted in idle time once it comes near the reader's view (and the highlighter has
 * arrived): a burst of an answer brings hundreds of code blocks, and highlighting them as they were
 * rendered made long tasks, and highlighting them all, even in idle time, was a tenth of what a
 * long answer's burst cost, for code a reader may never scroll to. Plain until then, and for languages it does not know; a block
 * that grows while streaming stays highlighted as it grows.
 */
function Highlighted({ code, language }: { code: string; language: string }) {
  const [first, setFirst] = useState<{ code: string; lines: Lines }>();
  const latest = useRef(code);
  latest.current = code;
  // On the element rendered here, so it is attached before this component's layout effect runs.
  const element = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const block = element.current;
    if (first || !language || !block) return;
    let live = true;
    const cancel = whenNear(
      block,
      block.closest('.da-scroll'),
      () =>
        void loadHighlighter().then((m) =>
          whenIdle(() => {
            if (live)
              setFirst({ code: latest.current, lines: m.tokenize(latest.current, language) });
          }),
        ),
    );
    return () => {
      live = false;
      cancel();
    };
  }, [first, language]);
  const grown = useMemo(
    () => (first && first.code !== code ? highlighter?.tokenize(code, language) : undefined),
    [first, code, language],
  );
  const lines = first?.code === code ? first.lines : grown;
  return (
    <code ref={element} className={language ? `language-${language}` : undefined}>
      {lines?.map((tokens, i) => (
        <Fragment key={i}>
          {i > 0 && '\n'}
          {tokens.map((token, j) =>
            token.type === 'space' || token.type === 'break' || token.type === 'identifier' ? (
              token.value
            ) : (
              <span key={j} className={`da-tok-${token.type}`}>
                {token.value}
              </span>
            ),
          )}
        </Fragment>
      )) ?? code}
    </code>
  );
}

function CodeBlock({
  token,
  docsBaseUrl,
}: {
  token: Tokens.Code;
  docsBaseUrl: string | undefined;
}) {
  const {
    copyCode = 'Copy code',
    copied = 'Copied',
    noLanguage = 'text',
    suggestions = 'Related pages',
  } = useTranslations('code');
  const language = /^[\w+-]+/.exec(token.lang ?? '')?.[0] ?? '';
  const code = token.text;
  if (language === 'suggestions') {
    const links = parseSuggestions(code);
    if (links.length === 0) return null;
    return (
      <div className="da-suggestions" role="group" aria-label={suggestions}>
        <p className="da-suggestions-title">{suggestions}</p>
        <ul>
          {links.map((link, i) => (
            <li key={i}>
              <SafeLink href={link.href} docsBaseUrl={docsBaseUrl}>
                {link.title}
              </SafeLink>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div className="da-code" data-language={language || undefined}>
      <div className="da-code-bar">
        <span className="da-code-lang">{language || noLanguage}</span>
        <CopyButton
          text={() => code}
          label={copyCode}
          copiedLabel={copied}
          className="da-code-copy"
        />
      </div>
      {/* Focusable: a line wider than the answer scrolls, and a keyboard must reach it (WCAG 2.1.1). */}
      <pre tabIndex={0}>
        <Highlighted code={code} language={language} />
      </pre>
    </div>
  );
}

function inline(tokens: Token[] | undefined, context: Context): ReactNode[] {
  return (tokens ?? []).map((token, key) => {
    switch (token.type) {
      case 'text':
        return token.tokens ? (
          <Fragment key={key}>{inline(token.tokens, context)}</Fragment>
        ) : (
          <Fragment key={key}>{withCitations(decode(token.text), context)}</Fragment>
        );
      case 'escape':
        return token.text;
      case 'strong':
        return <strong key={key}>{inline(token.tokens, context)}</strong>;
      case 'em':
        return <em key={key}>{inline(token.tokens, context)}</em>;
      case 'del':
        return <del key={key}>{inline(token.tokens, context)}</del>;
      case 'codespan':
        return <code key={key}>{context.inCell ? wholeWords(token.text) : token.text}</code>;
      case 'br':
        return <br key={key} />;
      case 'link':
        return (
          <SafeLink key={key} href={token.href} docsBaseUrl={context.docsBaseUrl}>
            {inline(token.tokens, { ...context, inLink: true })}
          </SafeLink>
        );
      case 'image': {
        // Images become links: an answer must not make the page load anything (privacy, CSP, tracking).
        const url = safeUrl(token.href, context.docsBaseUrl);
        const label = decode(token.text) || (url ? urlLabel(url) : '');
        return url ? (
          <SafeLink key={key} href={url} docsBaseUrl={context.docsBaseUrl}>
            {`🖼 ${label}`}
          </SafeLink>
        ) : (
          <span key={key}>{label}</span>
        );
      }
      case 'checkbox':
        return (
          <input
            key={key}
            type="checkbox"
            checked={(token as Tokens.Checkbox).checked}
            disabled
            readOnly
          />
        );
      default:
        // Raw HTML (`html`) is dropped, never rendered; unknown tokens too.
        return null;
    }
  });
}

function block(token: Token, key: number, context: Context): ReactNode {
  switch (token.type) {
    case 'paragraph':
      return <p key={key}>{inline(token.tokens, context)}</p>;
    case 'heading': {
      const Tag = `h${Math.min(6, Math.max(1, token.depth))}` as 'h1';
      return <Tag key={key}>{inline(token.tokens, context)}</Tag>;
    }
    case 'code':
      return <CodeBlock key={key} token={token as Tokens.Code} docsBaseUrl={context.docsBaseUrl} />;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item, i) => (
        <li key={i} className={item.task ? 'task-list-item' : undefined}>
          {blocks(item.tokens, context)}
        </li>
      ));
      return list.ordered ? (
        <ol
          key={key}
          start={typeof list.start === 'number' && list.start !== 1 ? list.start : undefined}
        >
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table': {
      const table = token as Tokens.Table;
      const align = (i: number) => table.align[i] ?? undefined;
      const cellContext = { ...context, inCell: true };
      return (
        <div key={key} className="da-table" tabIndex={0}>
          <table>
            {/* A header of empty cells stands for a table that had none (a Sphinx table's rows). */}
            {table.header.some((cell) => cell.text.trim()) && (
              <thead>
                <tr>
                  {table.header.map((cell, i) => (
                    <th key={i} style={align(i) ? { textAlign: align(i)! } : undefined}>
                      {inline(cell.tokens, cellContext)}
                    </th>
                  ))}
                </tr>
              </thead>
            )}
            {table.rows.length > 0 && (
              <tbody>
                {table.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, i) => (
                      <td key={i} style={align(i) ? { textAlign: align(i)! } : undefined}>
                        {inline(cell.tokens, cellContext)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            )}
          </table>
        </div>
      );
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks(token.tokens, context)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'text':
      // Text directly in a tight list item: its inline content, no paragraph around it.
      return (
        <Fragment key={key}>
          {token.tokens ? inline(token.tokens, context) : decode(token.text)}
        </Fragment>
      );
    case 'checkbox':
      return inline([token], context)[0];
    default:
      // `space`, link definitions and raw HTML (`html`) render nothing.
      return null;
  }
}

function blocks(tokens: Token[] | undefined, context: Context): ReactNode[] {
  return (tokens ?? []).map((token, key) => block(token, key, context));
}

/**
 * One block of answer text as Markdown (GFM, with marked's lexer: the Markdown stack costs a fraction
 * of micromark's time per character, which is most of what streaming costs). Tokens become React
 * elements directly, never an HTML string: raw HTML is dropped and every URL passes `safeUrl`.
 * Memoised so a finished block is not parsed again while the answer grows; `tokens`, when given,
 * are `lex(text)` done earlier. Every element type it renders is a module-level component or a tag,
 * so a growing block updates its code blocks and links in place (a reader selecting code or
 * hovering a copy button mid-stream keeps them).
 */
export const MarkdownText = memo(function MarkdownText({
  text,
  tokens,
}: MarkdownProps & { tokens?: Token[] | undefined }) {
  const docsBaseUrl = useDocsBaseUrl();
  return <>{blocks(tokens ?? lex(text), { docsBaseUrl })}</>;
});

/** Each kind of block and inline syntax an answer uses, to run the lexer over once before it has to. */
const WARM_UP = [
  '## Heading with `code`',
  'A paragraph with **bold**, *emphasis*, ~~struck~~, `code`, a [link](/docs "t"), https://example.com, &amp; and a citation [1].\nSecond line.',
  '- item one\n- item *two*\n  - nested\n\n1. first\n2. [ ] task',
  '| Option | Default |\n|:---|---:|\n| `alpha` | 1 |',
  '```ts\nconst x = 1;\n```',
  '> A quote with **bold**\n\n---\n\nSetext\n===\n\n<b>html</b> ![image](/a.png) [ref]\n\n[ref]: /docs',
];

/**
 * Gets the lexer ready in idle time when the dialog opens, before an answer needs it: its first run
 * compiles marked's ~50 regular expressions and its functions (~150 ms of one task on a laptop core,
 * in the first formatting step of the first answer). Here each expression compiles in an idle job of
 * its own, then each kind of syntax is lexed once.
 */
export function warmUp(): void {
  const { block, inline } = Lexer.rules;
  for (const rule of [...Object.values(block.gfm), ...Object.values(inline.gfm)]) {
    if (!(rule instanceof RegExp)) continue;
    whenIdle(() => {
      const { lastIndex } = rule;
      // Twice: V8 interprets an expression's first run and compiles it to machine code on the second.
      rule.exec('x');
      rule.exec('x');
      rule.lastIndex = lastIndex;
    });
  }
  for (const sample of WARM_UP) whenIdle(() => lex(sample));
  // The highlighter too: its module's first evaluation and first run were ~10 ms of an answer's
  // first code block.
  whenIdle(
    () =>
      void loadHighlighter().then((m) =>
        whenIdle(() => m.tokenize("const a = f('x', 1); // b", 'ts')),
      ),
  );
}

/** The tokens `MarkdownText` renders: lexing ahead of rendering lets a caller spread it over tasks. */
export function lex(text: string): Token[] {
  return Lexer.lex(text, { gfm: true, breaks: false });
}
