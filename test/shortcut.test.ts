import { describe, expect, it } from 'vitest';
import { describeShortcut } from '../src/ui/shortcut.js';

describe('describeShortcut (the launcher hint and its aria-keyshortcuts)', () => {
  it('shows mod+i as ⌘I on Apple and Ctrl+I elsewhere', () => {
    expect(describeShortcut('mod+i', true)).toEqual({ label: '⌘I', aria: 'Meta+I' });
    expect(describeShortcut('mod+i', false)).toEqual({ label: 'Ctrl+I', aria: 'Control+I' });
  });

  it('keeps every modifier, in aria-keyshortcuts order', () => {
    expect(describeShortcut('shift+ctrl+alt+k', true)).toEqual({
      label: '⌃⌥⇧K',
      aria: 'Control+Alt+Shift+K',
    });
    expect(describeShortcut('cmd+shift+k', false)).toEqual({
      label: 'Shift+Meta+K',
      aria: 'Shift+Meta+K',
    });
  });

  it('has nothing to show for no shortcut', () => {
    expect(describeShortcut('+', false)).toBeUndefined();
    expect(describeShortcut('', true)).toBeUndefined();
  });
});
