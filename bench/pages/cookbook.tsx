import { marked } from 'marked';
import { memo, useMemo } from 'react';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { mountBaseline } from './_chat.js';

// The AI SDK 4 cookbook's "Markdown chatbot with memoization": the message is split into blocks
// with marked's lexer and each block is a memoised ReactMarkdown, so only changed blocks re-parse.
// remark-gfm is added because the answer has tables, as ours renders them.
function parseMarkdownIntoBlocks(markdown: string): string[] {
  return marked.lexer(markdown).map((token) => token.raw);
}

const MemoizedMarkdownBlock = memo(
  function MemoizedMarkdownBlock({ content }: { content: string }) {
    return <ReactMarkdown remarkPlugins={[remarkGfm]}>{content}</ReactMarkdown>;
  },
  (prev, next) => prev.content === next.content,
);

const MemoizedMarkdown = memo(function MemoizedMarkdown({
  content,
  id,
}: {
  content: string;
  id: string;
}) {
  const blocks = useMemo(() => parseMarkdownIntoBlocks(content), [content]);
  return blocks.map((block, index) => (
    <MemoizedMarkdownBlock content={block} key={`${id}-block_${index}`} />
  ));
});

mountBaseline(MemoizedMarkdown);
