import { describe, expect, it } from 'vitest';
import { splitBlocks, splitGrowing, type BlockSplit } from '../src/ui/blocks.js';

describe('splitBlocks', () => {
  it('splits at blank lines between top-level blocks and loses no text', () => {
    const text = '# Title\n\nFirst paragraph\nstill first.\n\n- a\n- b\n\n| x |\n|---|\n| 1 |';
    const blocks = splitBlocks(text);
    expect(blocks).toEqual([
      '# Title',
      'First paragraph\nstill first.',
      '- a\n- b',
      '| x |\n|---|\n| 1 |',
    ]);
    expect(blocks.join('\n\n')).toBe(text);
  });

  it('keeps fenced code with blank lines, and indented continuations, in one block', () => {
    const fenced = 'Intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    expect(splitBlocks(fenced)).toEqual([
      'Intro',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```',
      'After',
    ]);
    const list = '1. First\n\n   more about first\n\n2. Second';
    expect(splitBlocks(list)).toEqual(['1. First\n\n   more about first', '2. Second']);
    const longFence = '````md\n```\n\nnot closed by three\n````\n\nEnd';
    expect(splitBlocks(longFence)).toEqual(['````md\n```\n\nnot closed by three\n````', 'End']);
  });

  it('leaves a growing last block alone so earlier blocks stay identical while streaming', () => {
    const partial = 'Done block.\n\nGrowing blo';
    const more = 'Done block.\n\nGrowing block, now longer';
    expect(splitBlocks(partial)[0]).toBe(splitBlocks(more)[0]);
    expect(splitBlocks('```js\nstill open\n\nin the fence')).toHaveLength(1);
  });

  it('splits a growing text as a whole split would, keeping finished blocks as they were', () => {
    const full =
      '# Title\n\nPara one\nstill one.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n- a\n\n  more a\n- b\n\nLast  \n  \nEnd';
    let split: BlockSplit | undefined;
    for (let end = 1; end <= full.length; end += 3) {
      const previous = split;
      split = splitGrowing(split, full.slice(0, end));
      expect(split.blocks).toEqual(splitBlocks(full.slice(0, end)));
      // Every block before the previous last one is unchanged.
      previous?.blocks.slice(0, -1).forEach((block, i) => expect(split!.blocks[i]).toBe(block));
    }
    // A text that is not a continuation (a retry, a new answer) is split from scratch.
    expect(splitGrowing(split, 'Other\n\ntext').blocks).toEqual(['Other', 'text']);
  });
});
