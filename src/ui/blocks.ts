/**
 * Splits Markdown into top-level blocks at blank lines outside code fences, keeping indented
 * continuations (list items, indented code) with their block. While an answer streams, only its
 * last block changes, so earlier blocks keep their parsed output instead of being parsed again on
 * every token (the cost that makes whole-message rendering quadratic).
 */
export function splitBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (
        marker &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        line.trim() === marker
      )
        fence = undefined;
    } else if (marker) {
      fence = marker;
    }
    const next = lines[i + 1];
    if (
      !fence &&
      line.trim() === '' &&
      current.length > 0 &&
      next !== undefined &&
      next.trim() !== '' &&
      !/^\s/.test(next)
    ) {
      blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

export interface BlockSplit {
  text: string;
  blocks: string[];
}

/**
 * `splitBlocks` for a text that grew since `previous`: the finished blocks are kept (the very same
 * strings, so memoised renders compare them by identity) and only the last one is split again, so a
 * streamed update costs the size of the new text, not of the whole answer.
 */
export function splitGrowing(previous: BlockSplit | undefined, text: string): BlockSplit {
  if (previous?.text === text) return previous;
  const last = previous?.blocks.at(-1);
  if (!previous || last === undefined || !text.startsWith(previous.text))
    return { text, blocks: splitBlocks(text) };
  // The last block is always a suffix of its text, and no fence is open where it starts.
  const start = previous.text.length - last.length;
  return { text, blocks: [...previous.blocks.slice(0, -1), ...splitBlocks(text.slice(start))] };
}
