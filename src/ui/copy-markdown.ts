import type { ChatMessage } from '../chat/message.js';
import { confidenceLevel } from '../protocol/annotations.js';
import { citationsOf, citedNumbers, splitCitations } from './parts.js';

/**
 * What the header menu copies: the page the reader is on as its Markdown (the docs' own `.md`),
 * and the conversation as Markdown with its sources.
 */

/**
 * The Markdown the page says it has: its `<link rel="alternate" type="text/markdown">` (the
 * reference server's and export bundles' pages have one).
 */
export function advertisedMarkdownUrl(doc: Document = document): string | undefined {
  return (
    doc.querySelector<HTMLLinkElement>('link[rel~="alternate"][type="text/markdown"][href]')
      ?.href || undefined
  );
}

/**
 * Where the page's Markdown would be: the one it advertises, else its URL plus `.md` (`/a/` →
 * `/a/index.md`, `/a.html` → `/a.md`), the llms.txt convention. Undefined off http(s).
 */
export function pageMarkdownUrl(doc: Document = document): string | undefined {
  const advertised = advertisedMarkdownUrl(doc);
  if (advertised) return advertised;
  const url = new URL(doc.location.href);
  if (!/^https?:$/.test(url.protocol)) return undefined;
  url.hash = '';
  url.search = '';
  url.pathname = url.pathname.endsWith('/')
    ? `${url.pathname}index.md`
    : `${url.pathname.replace(/\.html?$/i, '')}.md`;
  return url.href;
}

/**
 * Whether `url` serves Markdown: HEAD (GET where HEAD is refused), a 2xx answer as Markdown or
 * plain text. A page that answers any path with its HTML (an SPA's fallback) is not Markdown.
 */
export async function servesMarkdown(url: string, fetchImpl: typeof fetch = fetch) {
  for (const method of ['HEAD', 'GET']) {
    try {
      const response = await fetchImpl(url, { method, credentials: 'same-origin' });
      // Read to its end (a HEAD's is empty): a body left unread shows as aborted in DevTools.
      await response.arrayBuffer();
      if (response.status === 405 || response.status === 501) continue;
      return (
        response.ok &&
        /^text\/(markdown|x-markdown|plain)\b/i.test(response.headers.get('content-type') ?? '')
      );
    } catch {
      return false;
    }
  }
  return false;
}

/** The page's Markdown as text; rejects when it is not there, so nothing else is copied instead. */
export async function fetchMarkdown(url: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const response = await fetchImpl(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

export interface ConversationLabels {
  you: string;
  assistant: string;
  sources: string;
}

/** Square brackets in a link's words would end it early. */
const linkText = (text: string) => text.replace(/([\\[\]])/g, '\\$1');

const textOf = (message: ChatMessage) =>
  (message.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n') ||
  message.content;

/**
 * The conversation as Markdown: each question and answer under its speaker, each answer followed by
 * its sources, numbered as the answer's `[n]` markers number them.
 */
export function conversationMarkdown(
  messages: readonly ChatMessage[],
  labels: ConversationLabels,
  docsBaseUrl?: string,
): string {
  const blocks: string[] = [];
  for (const message of messages) {
    const text = textOf(message).trim();
    if (message.role === 'user') blocks.push(`## ${labels.you}\n\n${text}`);
    if (message.role !== 'assistant' || !text) continue;
    const { sources } = splitCitations(
      citationsOf(message, docsBaseUrl),
      citedNumbers(message),
      confidenceLevel(message.annotations) === 'refused',
    );
    const list = sources.map(
      (source) => `- [${source.n}] [${linkText(source.title)}](${source.url})`,
    );
    blocks.push(
      [
        `## ${labels.assistant}`,
        text,
        ...(list.length ? [`**${labels.sources}**`, list.join('\n')] : []),
      ].join('\n\n'),
    );
  }
  return blocks.length ? `${blocks.join('\n\n')}\n` : '';
}
