import { describe, expect, it } from 'vitest';
import { splitBlocks } from '../src/ui/blocks.js';

describe('splitBlocks', () => {
  it('splits at blank lines between top-level blocks and loses no text', () => {
    const text = '# Title\n\nFirst paragraph\nstill first.\n\n- a\n- b\n\n| x |\n|---|\n| 1 |';
    const blocks = splitBlocks(text);
    expect(blocks).toEqual(['# Title', 'First paragraph\nstill first.', '- a\n- b', '| x |\n|---|\n| 1 |']);
    expect(blocks.join('\n\n')).toBe(text);
  });

  it('keeps fenced code with blank lines, and indented continuations, in one block', () => {
    const fenced = 'Intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    expect(splitBlocks(fenced)).toEqual(['Intro', '```ts\nconst a = 1;\n\nconst b = 2;\n```', 'After']);
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
});
