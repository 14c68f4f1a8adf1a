import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import type { Processor } from 'unified';

/**
 * remark-gfm for reading only: tables, strikethrough, autolinks and task lists. remark-gfm also
 * bundles Markdown *serialisation* (mdast-util-to-markdown) and footnotes, which a chat answer never
 * needs; leaving them out saves ~7 KB gzip on every page that opens the assistant.
 */
export function remarkGfmLite(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(gfmAutolinkLiteral(), gfmStrikethrough({ singleTilde: false }), gfmTable(), gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push(gfmAutolinkLiteralFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown());
}
