import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { splitGrowing, type BlockSplit } from './blocks.js';
import type { Token } from 'marked';
import type { MarkdownProps } from './markdown.js';

type MarkdownModule = typeof import('./markdown.js');

let loaded: MarkdownModule | undefined;
let loading: Promise<MarkdownModule> | undefined;

/**
 * The Markdown renderer (marked's lexer and the token renderer: a good part of the widget) is its own
 * chunk: a page pays for it when the assistant opens, not on load. The dialog calls this on open.
 */
export function loadMarkdown(): Promise<MarkdownModule> {
  return (loading ??= import('./markdown.js').then((module) => {
    module.warmUp();
    return (loaded = module);
  }));
}

/**
 * Unlexed Markdown a render may format itself: what streaming adds between two frames. Anything
 * more (a burst from a buffering proxy or a fast model) shows at once as plain text and is lexed
 * in later tasks, about `STEP_MS` each, so no task grows with the size of a burst.
 */
export const INLINE_CHARS = 1500;

/**
 * Time a step of formatting a backlog aims at: lexing ahead and rendering what it lexed. Time, not
 * characters: the first steps run before the JIT has compiled the lexer, several times slower than
 * later ones, and a slow phone is slower throughout.
 */
const STEP_MS = 10;

/**
 * Milliseconds of rendering per millisecond of lexing, measured on each step and used to size the
 * next: rendering what was lexed costs 2–6 times the lexing (more with Preact, which renders in the
 * step's own task, and while the JIT is cold), so a fixed lexing budget made steps of 20–40 ms.
 * Starts high, so the first step is small; shared by every answer, as the cost is the page's.
 */
let renderPerLexMs = 4;

/** A block lexed ahead of rendering, kept while the block's text stays the same. */
type Lexed = { text: string; tokens: Token[] };

/**
 * How many blocks, from `done` on, this render formats: those lexed ahead, and new ones up to
 * `INLINE_CHARS` of text.
 */
function formatLimit(blocks: string[], done: number, lexed: Lexed[]): number {
  let budget = INLINE_CHARS;
  let limit = done;
  for (; limit < blocks.length; limit++) {
    const block = blocks[limit]!;
    if (lexed[limit]?.text === block) continue;
    if (block.length > budget) break;
    budget -= block.length;
  }
  return limit;
}

const tokensOf = (ahead: Lexed | undefined, block: string) =>
  ahead?.text === block ? ahead.tokens : undefined;

/** Blocks per memoised group: an update re-renders the groups that changed, not every block. */
const GROUP_SIZE = 16;

interface GroupProps {
  blocks: string[];
  /** The group's first block's index in the answer. */
  start: number;
  /** Blocks lexed ahead, by index in the answer (read, not compared: they change with `formatted`). */
  lexed: Lexed[];
  formatted: number;
  module: MarkdownModule;
}

/** Finished blocks are the same strings from one split to the next, so this is mostly identity checks. */
function sameGroup(a: GroupProps, b: GroupProps): boolean {
  return (
    a.formatted === b.formatted &&
    a.module === b.module &&
    a.blocks.length === b.blocks.length &&
    a.blocks.every((block, i) => block === b.blocks[i])
  );
}

const BlockGroup = memo(function BlockGroup({
  blocks,
  start,
  lexed,
  formatted,
  module,
}: GroupProps) {
  const { MarkdownText } = module;
  const plain = blocks.slice(formatted);
  // A group, not each block, is what skips rendering off screen: the browser checks every such
  // element's visibility each frame, and a 200,000-character answer has ~2,000 blocks.
  return (
    <div className="da-group">
      {blocks.slice(0, formatted).map((block, index) => (
        // Index keys: block i stays block i as the answer grows, so finished blocks are memo hits.
        <div key={index} className="da-block">
          <MarkdownText text={block} tokens={tokensOf(lexed[start + index], block)} />
        </div>
      ))}
      {plain.length > 0 && (
        // The group's blocks waiting to be formatted are one text: a burst puts thousands of
        // blocks on screen at once, and elements for each were made only to be replaced.
        <div key="plain" className="da-block">
          <p className="da-plain-text" data-pending="">
            {plain.join('\n\n')}
          </p>
        </div>
      )}
    </div>
  );
}, sameGroup);

/**
 * Answer text: Markdown per block once the renderer is there, plain text for the moment before.
 * `streaming` marks the text still being written, which shows the cursor after its last block.
 */
export function AnswerText({ text, streaming = false }: MarkdownProps & { streaming?: boolean }) {
  const [module, setModule] = useState(loaded);
  // Bumped after each step of lexing ahead, to render what it lexed.
  const [, setSteps] = useState(0);
  useEffect(() => {
    if (!module) void loadMarkdown().then(setModule);
  }, [module]);
  const split = useRef<BlockSplit>(undefined);
  /** Blocks before this index were formatted by a committed render. */
  const done = useRef(0);
  /** Lexing time of the step this render shows (0: none), to measure what rendering it cost. */
  const stepLexMs = useRef(0);
  const renderStart = useRef(0);
  renderStart.current = performance.now();
  const lexed = useRef<Lexed[]>([]).current;
  const previous = split.current;
  const blocks = (split.current = splitGrowing(previous, text)).blocks;
  if (previous && !text.startsWith(previous.text)) {
    // Not the same answer grown: start formatting over.
    done.current = 0;
    lexed.length = 0;
  }
  const limit = module ? formatLimit(blocks, done.current, lexed) : 0;
  // A layout effect, because Preact (the script tag's renderer) runs plain effects only after the
  // next animation frame: a burst would be formatted one step per frame instead of back to back.
  useLayoutEffect(() => {
    done.current = Math.max(done.current, limit);
    if (stepLexMs.current > 0) {
      const ratio = (performance.now() - renderStart.current) / stepLexMs.current;
      renderPerLexMs = Math.min(20, Math.max(0.5, (renderPerLexMs + ratio) / 2));
      stepLexMs.current = 0;
    }
    if (!module || limit >= blocks.length) return;
    // A task per step: the browser paints and handles input between them.
    const timer = setTimeout(() => {
      const start = performance.now();
      const deadline = start + STEP_MS / (1 + renderPerLexMs);
      let next = limit;
      do lexed[next] = { text: blocks[next]!, tokens: module.lex(blocks[next]!) };
      while (++next < blocks.length && performance.now() < deadline);
      stepLexMs.current = Math.max(0.1, performance.now() - start);
      // Rendered in this task, so a step is one task of about STEP_MS with React as with Preact
      // (which renders in a microtask), and its rendering is measured.
      flushSync(() => setSteps((n) => n + 1));
    }, 0);
    return () => clearTimeout(timer);
  }, [module, limit, blocks, lexed]);
  const live = streaming ? { 'data-streaming': '' } : {};
  if (!module)
    return (
      <p className="da-plain-text" {...live}>
        {text}
      </p>
    );
  const groups: number[] = [];
  for (let start = 0; start < blocks.length; start += GROUP_SIZE) groups.push(start);
  return (
    <div className="da-markdown" {...live}>
      {groups.map((start) => (
        <BlockGroup
          key={start}
          blocks={blocks.slice(start, start + GROUP_SIZE)}
          start={start}
          lexed={lexed}
          formatted={Math.max(0, Math.min(GROUP_SIZE, limit - start))}
          module={module}
        />
      ))}
    </div>
  );
}
