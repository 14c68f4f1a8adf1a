import { useEffect, useState } from 'react';
import { splitBlocks } from './blocks.js';
import type { MarkdownProps } from './markdown.js';

type MarkdownModule = typeof import('./markdown.js');

let loaded: MarkdownModule | undefined;
let loading: Promise<MarkdownModule> | undefined;

/**
 * The Markdown renderer (micromark, mdast, react-markdown: most of the widget's weight) is its own
 * chunk: a page pays for it when the assistant opens, not on load. The dialog calls this on open.
 */
export function loadMarkdown(): Promise<MarkdownModule> {
  return (loading ??= import('./markdown.js').then((module) => (loaded = module)));
}

/** Answer text: Markdown per block once the renderer is there, plain text for the moment before. */
export function AnswerText({ text, labels, docsBaseUrl }: MarkdownProps) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (!module) void loadMarkdown().then(setModule);
  }, [module]);
  if (!module) return <p className="da-plain-text">{text}</p>;
  const { MarkdownText } = module;
  return (
    <div className="da-markdown">
      {splitBlocks(text).map((block, index) => (
        // Index keys: block i stays block i as the answer grows, so finished blocks are memo hits.
        <MarkdownText key={index} text={block} labels={labels} docsBaseUrl={docsBaseUrl} />
      ))}
    </div>
  );
}
