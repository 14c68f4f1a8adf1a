import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { splitGrowing, type BlockSplit } from './blocks.js';
import type { MarkdownProps } from './markdown.js';

type MarkdownModule = typeof import('./markdown.js');

let loaded: MarkdownModule | undefined;
let loading: Promise<MarkdownModule> | undefined;

/**
 * The Markdown renderer (marked's lexer and the token renderer: a good part of the widget) is its own
 * chunk: a page pays for it when the assistant opens, not on load. The dialog calls this on open.
 */
export function loadMarkdown(): Promise<MarkdownModule> {
  return (loading ??= import('./markdown.js').then((module) => (loaded = module)));
}

/**
 * New Markdown formatted per task. Text that arrives faster than that is shown at once as plain
 * text and formatted over the next tasks, so no task grows with the size of a burst.
 */
export const FORMAT_STEP_CHARS = 4000;

/** How many blocks, from `formatted` on, fit one step of parsing (always at least one). */
function formatLimit(blocks: string[], formatted: number): number {
  let budget = FORMAT_STEP_CHARS;
  let limit = formatted;
  while (limit < blocks.length && (limit === formatted || budget - blocks[limit]!.length >= 0))
    budget -= blocks[limit++]!.length;
  return limit;
}

/** Blocks per memoised group: an update re-renders the groups that changed, not every block. */
const GROUP_SIZE = 16;

type GroupProps = Omit<MarkdownProps, 'text'> & {
  blocks: string[];
  formatted: number;
  module: MarkdownModule;
};

/** Finished blocks are the same strings from one split to the next, so this is mostly identity checks. */
function sameGroup(a: GroupProps, b: GroupProps): boolean {
  return (
    a.formatted === b.formatted &&
    a.labels === b.labels &&
    a.docsBaseUrl === b.docsBaseUrl &&
    a.module === b.module &&
    a.blocks.length === b.blocks.length &&
    a.blocks.every((block, i) => block === b.blocks[i])
  );
}

const BlockGroup = memo(function BlockGroup({
  blocks,
  formatted,
  labels,
  docsBaseUrl,
  module,
}: GroupProps) {
  const { MarkdownText } = module;
  return (
    <>
      {blocks.map((block, index) => (
        // Index keys: block i stays block i as the answer grows, so finished blocks are memo hits.
        <div key={index} className="da-block">
          {index < formatted ? (
            <MarkdownText text={block} labels={labels} docsBaseUrl={docsBaseUrl} />
          ) : (
            <p className="da-plain-text" data-pending="">
              {block}
            </p>
          )}
        </div>
      ))}
    </>
  );
}, sameGroup);

/**
 * Answer text: Markdown per block once the renderer is there, plain text for the moment before.
 * `streaming` marks the text still being written, which shows the cursor after its last block.
 */
export function AnswerText({
  text,
  labels,
  docsBaseUrl,
  streaming = false,
}: MarkdownProps & { streaming?: boolean }) {
  const [module, setModule] = useState(loaded);
  const [formatted, setFormatted] = useState(0);
  useEffect(() => {
    if (!module) void loadMarkdown().then(setModule);
  }, [module]);
  const split = useRef<BlockSplit>(undefined);
  const blocks = (split.current = splitGrowing(split.current, text)).blocks;
  const limit = formatLimit(blocks, formatted);
  // A layout effect, because Preact (the script tag's renderer) runs plain effects only after the
  // next animation frame: a burst would be formatted one step per frame instead of back to back.
  useLayoutEffect(() => {
    if (!module || limit <= formatted) return;
    // A task per step: the browser paints and handles input between them.
    const timer = setTimeout(() => setFormatted(limit), 0);
    return () => clearTimeout(timer);
  }, [module, limit, formatted]);
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
          formatted={Math.max(0, Math.min(GROUP_SIZE, limit - start))}
          labels={labels}
          docsBaseUrl={docsBaseUrl}
          module={module}
        />
      ))}
    </div>
  );
}
