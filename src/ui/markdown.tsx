import { memo, type ReactNode, isValidElement, Children } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { remarkGfmLite } from './gfm-lite.js';
import { CopyButton } from './copy-button.js';
import type { Labels } from './labels.js';
import { isExternal, safeUrl, urlLabel } from './urls.js';

export interface MarkdownProps {
  text: string;
  labels: Labels;
  docsBaseUrl: string | undefined;
}

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return '';
}

/** NOTES §2: follow-up pages come as lines of `(Title)[/path]` (or ordinary `[Title](/path)`). */
export function parseSuggestions(code: string): { title: string; href: string }[] {
  return code
    .split('\n')
    .map((line) => /^\s*(?:\(([^)]+)\)\[([^\]]+)\]|\[([^\]]+)\]\(([^)]+)\))\s*$/.exec(line))
    .flatMap((m) => (m ? [{ title: (m[1] ?? m[3])!.trim(), href: (m[2] ?? m[4])!.trim() }] : []));
}

export function SafeLink({ href, docsBaseUrl, children }: { href: string | undefined; docsBaseUrl: string | undefined; children: ReactNode }) {
  const url = safeUrl(href, docsBaseUrl);
  if (!url) return <span className="da-unsafe-link">{children}</span>;
  return isExternal(url) ? (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ) : (
    <a href={url}>{children}</a>
  );
}

function components(labels: Labels, docsBaseUrl: string | undefined): Components {
  return {
    a: ({ href, children }) => (
      <SafeLink href={href} docsBaseUrl={docsBaseUrl}>
        {children}
      </SafeLink>
    ),
    // Images become links: an answer must not make the page load anything (privacy, CSP, tracking).
    img: ({ src, alt }) => {
      const url = safeUrl(typeof src === 'string' ? src : undefined, docsBaseUrl);
      const label = alt || (url ? urlLabel(url) : '');
      return url ? (
        <SafeLink href={url} docsBaseUrl={docsBaseUrl}>
          {`🖼 ${label}`}
        </SafeLink>
      ) : (
        <span>{label}</span>
      );
    },
    pre: ({ children }) => {
      const child = Children.toArray(children)[0];
      const className = isValidElement<{ className?: string }>(child) ? (child.props.className ?? '') : '';
      const language = /language-([\w+-]+)/.exec(className)?.[1] ?? '';
      const code = textOf(children).replace(/\n$/, '');
      if (language === 'suggestions') {
        const links = parseSuggestions(code);
        if (links.length === 0) return null;
        return (
          <div className="da-suggestions" role="group" aria-label={labels.suggestions}>
            <p className="da-suggestions-title">{labels.suggestions}</p>
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
            <span className="da-code-lang">{language || 'text'}</span>
            <CopyButton text={() => code} label={labels.copyCode} copiedLabel={labels.copied} className="da-code-copy" />
          </div>
          <pre>{children}</pre>
        </div>
      );
    },
    table: ({ children }) => (
      <div className="da-table">
        <table>{children}</table>
      </div>
    ),
  };
}

const plugins = [remarkGfmLite];

/**
 * One block of answer text as Markdown (GFM). Raw HTML is dropped (`skipHtml`), never rendered, and
 * every URL passes `safeUrl`. Memoised so a finished block is not parsed again while the answer grows.
 */
export const MarkdownText = memo(function MarkdownText({ text, labels, docsBaseUrl }: MarkdownProps) {
  return (
    <Markdown remarkPlugins={plugins} skipHtml urlTransform={(url) => safeUrl(url, docsBaseUrl) ?? ''} components={components(labels, docsBaseUrl)}>
      {text}
    </Markdown>
  );
});
