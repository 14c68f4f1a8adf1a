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
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    } else if (marker) {
      fence = marker;
    }
    const next = lines[i + 1];
    if (!fence && line.trim() === '' && current.length > 0 && next !== undefined && next.trim() !== '' && !/^\s/.test(next)) {
      blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
