import type { UIMessage } from '@ai-sdk/ui-utils';
import { fill, type Labels } from './labels.js';
import { AnswerText } from './answer-text.js';
import { safeUrl, urlLabel, isExternal } from './urls.js';

type Part = UIMessage['parts'][number];
type ToolInvocation = Extract<Part, { type: 'tool-invocation' }>['toolInvocation'];

export interface Citation {
  url: string;
  title: string;
}

/** The two result shapes a `search` tool returns (NOTES §2): an array, or `{type:'search', results}`. */
function searchHits(result: unknown): { url?: string; path?: string; title?: string }[] {
  const list = Array.isArray(result) ? result : result && typeof result === 'object' && Array.isArray((result as { results?: unknown }).results) ? (result as { results: unknown[] }).results : [];
  return list.flatMap((hit) => {
    if (!hit || typeof hit !== 'object') return [];
    const h = hit as { url?: unknown; path?: unknown; title?: unknown; metadata?: { title?: unknown } };
    const url = typeof h.url === 'string' ? h.url : undefined;
    const path = typeof h.path === 'string' ? h.path : undefined;
    const title = typeof h.title === 'string' ? h.title : typeof h.metadata?.title === 'string' ? h.metadata.title : undefined;
    return url || path ? [{ ...(url ? { url } : {}), ...(path ? { path } : {}), ...(title ? { title } : {}) }] : [];
  });
}

/**
 * Numbered, de-duplicated citations of a message: its source parts, then the pages its search
 * tool found. URLs that are not http(s) or relative are left out: they cannot be links.
 */
export function citationsOf(message: UIMessage, docsBaseUrl: string | undefined): Citation[] {
  const seen = new Map<string, Citation>();
  const add = (raw: string | undefined, title: string | undefined) => {
    const url = safeUrl(raw, docsBaseUrl);
    if (!url) return;
    const key = url.replace(/#.*$/, '');
    if (!seen.has(key)) seen.set(key, { url: key, title: title || urlLabel(key) });
  };
  for (const part of message.parts ?? []) {
    if (part.type === 'source') add(part.source.url, part.source.title);
  }
  for (const part of message.parts ?? []) {
    if (part.type === 'tool-invocation' && part.toolInvocation.state === 'result' && part.toolInvocation.toolName === 'search') {
      for (const hit of searchHits(part.toolInvocation.result)) add(hit.url ?? hit.path, hit.title);
    }
  }
  return [...seen.values()];
}

function summarizeArgs(args: unknown): string {
  if (args === undefined) return '';
  if (args && typeof args === 'object' && 'query' in args && typeof (args as { query: unknown }).query === 'string') {
    return (args as { query: string }).query.replace(/\s+/g, ' ');
  }
  const json = JSON.stringify(args) ?? '';
  return json.length > 160 ? json.slice(0, 157) + '…' : json;
}

function ToolCard({ invocation, labels }: { invocation: ToolInvocation; labels: Labels }) {
  const done = invocation.state === 'result';
  const hits = done && invocation.toolName === 'search' ? searchHits(invocation.result) : undefined;
  return (
    <div className="da-tool" data-state={done ? 'done' : 'pending'} data-tool={invocation.toolName}>
      <span className="da-tool-name">{invocation.toolName}</span>
      <span className="da-tool-args">{summarizeArgs(invocation.args)}</span>
      <span className="da-tool-state" role="img" aria-label={done ? labels.toolDone : labels.toolRunning}>
        {done ? (hits ? fill(labels.searchResults, { count: hits.length }) : labels.toolDone) : labels.toolRunning}
      </span>
    </div>
  );
}

function Reasoning({ part, labels }: { part: Extract<Part, { type: 'reasoning' }>; labels: Labels }) {
  const details = part.details ?? [];
  return (
    <details className="da-reasoning">
      <summary>{labels.reasoning}</summary>
      {details.length === 0 ? (
        <p>{part.reasoning}</p>
      ) : (
        details.map((detail, i) =>
          detail.type === 'text' ? (
            <p key={i}>{detail.text}</p>
          ) : (
            <p key={i} className="da-redacted">
              [{labels.redacted}]
            </p>
          ),
        )
      )}
    </details>
  );
}

export function Citations({ citations, labels }: { citations: Citation[]; labels: Labels }) {
  if (citations.length === 0) return null;
  return (
    // A group, not a <nav>: every answer has one, and landmarks must have unique names.
    <div className="da-sources" role="group" aria-label={labels.sources}>
      <p className="da-sources-title">{labels.sources}</p>
      <ol>
        {citations.map((c, i) => (
          <li key={c.url}>
            <a href={c.url} {...(isExternal(c.url) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
              <span className="da-source-number">{i + 1}</span>
              <span className="da-source-title">{c.title}</span>
            </a>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Renders every part of an assistant message, keyed by index (message ids change mid-stream). */
export function MessageParts({ message, labels, docsBaseUrl }: { message: UIMessage; labels: Labels; docsBaseUrl: string | undefined }) {
  let shown = 0;
  return (
    <>
      {(message.parts ?? []).map((part, index) => {
        switch (part.type) {
          case 'text':
            if (!part.text) return null;
            shown++;
            return <AnswerText key={index} text={part.text} labels={labels} docsBaseUrl={docsBaseUrl} />;
          case 'reasoning':
            shown++;
            return <Reasoning key={index} part={part} labels={labels} />;
          case 'tool-invocation':
            shown++;
            return <ToolCard key={index} invocation={part.toolInvocation} labels={labels} />;
          case 'step-start':
            // A quiet line between steps; none before the first thing shown.
            return shown > 0 ? <hr key={index} className="da-step" aria-hidden="true" /> : null;
          case 'source':
            return null; // gathered into the numbered citations below the message
          default:
            return null; // unknown part types (file, future ones) are skipped, never fatal
        }
      })}
    </>
  );
}
