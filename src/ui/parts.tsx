import type { ComponentType } from 'react';
import type { ChatMessage, ReasoningPart, TextPart, ToolInvocation } from '../chat/message.js';
import { fill, useTranslations } from './translations.js';
import { AnswerText } from './answer-text.js';
import { linkTargetProps, safeUrl, urlLabel } from './urls.js';
import type { Citation } from './citation-context.js';
import {
  parseSearchHits,
  SEARCH_TOOL_NAME,
  searchQueryOf,
  type SearchHitView,
} from '../protocol/search-hits.js';

export type { Citation };

/** Props every custom part renderer gets. */
export interface ToolRendererProps {
  invocation: ToolInvocation;
  message: ChatMessage;
}

/**
 * Replace how a part is drawn (in the spirit of assistant-ui's message-part components). A renderer
 * for a tool by name wins over `toolInvocation`, which wins over the built-in line or card.
 */
export interface PartComponents {
  text?: ComponentType<{ part: TextPart; message: ChatMessage; streaming: boolean }>;
  reasoning?: ComponentType<{ part: ReasoningPart; message: ChatMessage }>;
  toolInvocation?: ComponentType<ToolRendererProps>;
  tools?: Record<string, ComponentType<ToolRendererProps>>;
}

function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

/**
 * Numbered, de-duplicated citations of a message: its source parts, then the pages its search
 * tool found (answers number them in that order). URLs that are not http(s) or relative are left
 * out: they cannot be links. A search hit adds its path and snippet to a source of the same page.
 */
export function citationsOf(message: ChatMessage, docsBaseUrl: string | undefined): Citation[] {
  const seen = new Map<string, Citation>();
  const add = (raw: string | undefined, hit: SearchHitView, fromSource: boolean) => {
    const url = safeUrl(raw, docsBaseUrl);
    if (!url) return;
    const key = url.replace(/#.*$/, '');
    const known = seen.get(key);
    if (known) {
      known.path ??= hit.path;
      known.snippet ??= hit.snippet;
      return;
    }
    const path = hit.path ?? pathOf(key);
    seen.set(key, {
      n: seen.size + 1,
      url: key,
      title: hit.title || urlLabel(key),
      fromSource,
      ...(path ? { path } : {}),
      ...(hit.snippet ? { snippet: hit.snippet } : {}),
    });
  };
  for (const part of message.parts ?? []) {
    if (part.type === 'source')
      add(part.source.url, { ...(part.source.title ? { title: part.source.title } : {}) }, true);
  }
  for (const part of message.parts ?? []) {
    if (
      part.type === 'tool-invocation' &&
      part.toolInvocation.state === 'result' &&
      part.toolInvocation.toolName === SEARCH_TOOL_NAME
    ) {
      for (const hit of parseSearchHits(part.toolInvocation.result))
        add(hit.url ?? hit.path, hit, false);
    }
  }
  return [...seen.values()];
}

/** The `[n]` markers in an answer's text (not inside code). */
export function citedNumbers(message: ChatMessage): Set<number> {
  const numbers = new Set<number>();
  for (const part of message.parts ?? []) {
    if (part.type !== 'text') continue;
    const prose = part.text.replace(/```[\s\S]*?(```|$)/g, '').replace(/`[^`\n]*`/g, '');
    for (const match of prose.matchAll(/\[(\d{1,3})\](?![(:[])/g)) numbers.add(Number(match[1]));
  }
  return numbers;
}

/**
 * Which citations are the answer's sources and which were only searched: the ones its text cites
 * by `[n]`; if it cites none by number, the source parts; if there are none, every hit (nothing
 * says which were used, so none is hidden).
 */
export function splitCitations(
  citations: Citation[],
  cited: Set<number>,
  /** The answer says the docs don't cover the question: nothing it searched is a source. */
  refused = false,
): { sources: Citation[]; searched: Citation[] } {
  if (refused) return { sources: [], searched: citations };
  const known = citations.filter((c) => cited.has(c.n));
  const isSource =
    known.length > 0
      ? (c: Citation) => cited.has(c.n)
      : citations.some((c) => c.fromSource)
        ? (c: Citation) => c.fromSource
        : () => true;
  return { sources: citations.filter(isSource), searched: citations.filter((c) => !isSource(c)) };
}

function summarizeArgs(args: unknown): string {
  if (args === undefined) return '';
  const query = searchQueryOf(args);
  if (query !== undefined) return query;
  const json = JSON.stringify(args) ?? '';
  return json.length > 160 ? json.slice(0, 157) + '…' : json;
}

/** The developer's view of a tool call: name, arguments, state. */
function ToolCard({ invocation }: { invocation: ToolInvocation }) {
  const {
    toolDone = 'Done',
    toolRunning = 'Running…',
    searchResults = '{count} results',
  } = useTranslations('parts');
  const done = invocation.state === 'result';
  const hits =
    done && invocation.toolName === SEARCH_TOOL_NAME
      ? parseSearchHits(invocation.result)
      : undefined;
  return (
    <div className="da-tool" data-state={done ? 'done' : 'pending'} data-tool={invocation.toolName}>
      <span className="da-tool-name">{invocation.toolName}</span>
      <span className="da-tool-args">{summarizeArgs(invocation.args)}</span>
      <span className="da-tool-state" role="img" aria-label={done ? toolDone : toolRunning}>
        {done ? (hits ? fill(searchResults, { count: hits.length }) : toolDone) : toolRunning}
      </span>
    </div>
  );
}

/** The reader's view of a tool call: one quiet line saying what the assistant did. */
function ToolLine({ invocation }: { invocation: ToolInvocation }) {
  const {
    searchingFor = 'Searching the docs for “{query}”…',
    searchedFor = 'Searched the docs for “{query}”',
    searching = 'Searching the docs…',
    searched = 'Searched the docs',
    usingTool = 'Using {tool}…',
    usedTool = 'Used {tool}',
  } = useTranslations('parts');
  const done = invocation.state === 'result';
  const query =
    invocation.toolName === SEARCH_TOOL_NAME ? searchQueryOf(invocation.args) : undefined;
  const text =
    invocation.toolName === SEARCH_TOOL_NAME
      ? query
        ? fill(done ? searchedFor : searchingFor, { query })
        : done
          ? searched
          : searching
      : fill(done ? usedTool : usingTool, {
          tool: invocation.toolName.replace(/[_-]+/g, ' '),
        });
  return (
    <p className="da-status" data-state={done ? 'done' : 'running'} data-tool={invocation.toolName}>
      {text}
    </p>
  );
}

function Reasoning({ part, developer }: { part: ReasoningPart; developer: boolean }) {
  const {
    reasoning = 'Reasoning',
    howIFound = 'How I found this',
    redacted = 'redacted',
  } = useTranslations('parts');
  const label = developer ? reasoning : howIFound;
  const details = part.details ?? [];
  return (
    <details className="da-reasoning">
      <summary>{label}</summary>
      {details.length === 0 ? (
        <p>{part.reasoning}</p>
      ) : (
        details.map((detail, i) =>
          detail.type === 'text' ? (
            <p key={i}>{detail.text}</p>
          ) : (
            <p key={i} className="da-redacted">
              [{redacted}]
            </p>
          ),
        )
      )}
    </details>
  );
}

function SourceLinks({ citations, newTab }: { citations: Citation[]; newTab: boolean }) {
  return (
    <ol>
      {citations.map((c) => (
        <li key={c.url}>
          <a href={c.url} {...linkTargetProps(c.url, newTab)}>
            <span className="da-source-number">{c.n}</span>
            <span className="da-source-title">{c.title}</span>
          </a>
        </li>
      ))}
    </ol>
  );
}

/** The answer's sources, then (collapsed) what was searched but not cited. */
export function Citations({
  citations,
  cited,
  newTab,
  refused = false,
}: {
  citations: Citation[];
  cited: Set<number>;
  newTab: boolean;
  /** The answer is a refusal: its search hits are listed as searched, never as sources. */
  refused?: boolean;
}) {
  const { title = 'Sources', alsoSearched = 'Also searched ({count})' } =
    useTranslations('sources');
  if (citations.length === 0) return null;
  const { sources, searched } = splitCitations(citations, cited, refused);
  return (
    <>
      {sources.length > 0 && (
        // A group, not a <nav>: every answer has one, and landmarks must have unique names.
        <div className="da-sources" role="group" aria-label={title}>
          <p className="da-sources-title">{title}</p>
          <SourceLinks citations={sources} newTab={newTab} />
        </div>
      )}
      {searched.length > 0 && (
        <details className="da-sources da-also-searched">
          <summary className="da-sources-title">
            {fill(alsoSearched, { count: searched.length })}
          </summary>
          <SourceLinks citations={searched} newTab={newTab} />
        </details>
      )}
    </>
  );
}

export interface MessagePartsProps {
  message: ChatMessage;
  streaming: boolean;
  showDeveloperDetails: boolean;
  components: PartComponents | undefined;
}

/**
 * Renders every part of an assistant message, keyed by index (message ids change mid-stream).
 * Readers see what the assistant did as quiet lines and its reasoning collapsed; developers can ask
 * for the raw tool cards and step lines.
 */
export function MessageParts({
  message,
  streaming,
  showDeveloperDetails,
  components = {},
}: MessagePartsProps) {
  const { thinking = 'Thinking…', writing = 'Writing the answer…' } = useTranslations('parts');
  const parts = message.parts ?? [];
  const lastText = parts.findLastIndex((p) => p.type === 'text' && p.text);
  let shown = 0;
  const rendered = parts.map((part, index) => {
    switch (part.type) {
      case 'text': {
        if (!part.text) return null;
        shown++;
        const live = streaming && index === lastText;
        const Custom = components.text;
        return Custom ? (
          <Custom key={index} part={part} message={message} streaming={live} />
        ) : (
          <AnswerText key={index} text={part.text} streaming={live} />
        );
      }
      case 'reasoning': {
        shown++;
        const Custom = components.reasoning;
        return Custom ? (
          <Custom key={index} part={part} message={message} />
        ) : (
          <Reasoning key={index} part={part} developer={showDeveloperDetails} />
        );
      }
      case 'tool-invocation': {
        shown++;
        const invocation = part.toolInvocation;
        const Custom = components.tools?.[invocation.toolName] ?? components.toolInvocation;
        if (Custom) return <Custom key={index} invocation={invocation} message={message} />;
        return showDeveloperDetails ? (
          <ToolCard key={index} invocation={invocation} />
        ) : (
          <ToolLine key={index} invocation={invocation} />
        );
      }
      case 'step-start':
        // A quiet line between steps for developers; none before the first thing shown.
        return showDeveloperDetails && shown > 0 ? (
          <hr key={index} className="da-step" aria-hidden="true" />
        ) : null;
      case 'source':
        return null; // gathered into the numbered citations below the message
      default:
        return null; // unknown part types (file, future ones) are skipped, never fatal
    }
  });
  // Between the question and the first words, say what is happening: never a blank space.
  const waiting =
    streaming &&
    lastText < 0 &&
    !parts.some((p) => p.type === 'tool-invocation' && p.toolInvocation.state !== 'result');
  return (
    <>
      {rendered}
      {waiting && (
        <p className="da-status" data-state="running">
          {parts.some((p) => p.type === 'tool-invocation') ? writing : thinking}
        </p>
      )}
    </>
  );
}
