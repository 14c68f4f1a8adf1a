import { useEffect, type RefObject } from 'react';

/**
 * Widths at which an open panel pushes the page aside. Narrower, the page would be left a column
 * too thin to read, so the panel covers it (on phones, ≤ 640 px, as a full-screen sheet).
 */
export const PUSH_MEDIA = '(min-width: 1024px)';

/** The page's own `<html>` style properties the push sets, and restores when it ends. */
const PROPERTIES = ['margin-right', 'transition', '--da-push'] as const;

/** A push still sliding back: finished at once when a new one starts, so each saves the page's own values. */
let settling: (() => void) | undefined;

/**
 * Makes room for the panel: a right margin on the page's `<html>` (the panel sits on the right in
 * every writing direction), and `--da-push` on it for hosts whose fixed header or sidebar must
 * make room too. Set through the CSSOM, which a CSP without 'unsafe-inline' allows. Returns what
 * restores the element exactly as it was, after the margin has slid back.
 */
export function pushPage(
  root: HTMLElement,
  width: number,
  animate: boolean,
): (immediately?: boolean) => void {
  settling?.();
  const { style } = root;
  const hadStyle = root.hasAttribute('style');
  const saved = PROPERTIES.map(
    (name) => [name, style.getPropertyValue(name), style.getPropertyPriority(name)] as const,
  );
  // Same length and curve as the panel's own entrance (widget.css).
  if (animate) style.setProperty('transition', 'margin-right 0.16s ease-out');
  style.setProperty('margin-right', `${width}px`);
  style.setProperty('--da-push', `${width}px`);

  let done = false;
  const restore = () => {
    if (done) return;
    done = true;
    if (settling === restore) settling = undefined;
    clearTimeout(timer);
    root.removeEventListener('transitionend', onEnd);
    for (const [name, value, priority] of saved)
      if (value) style.setProperty(name, value, priority);
      else style.removeProperty(name);
    if (!hadStyle && !root.getAttribute('style')) root.removeAttribute('style');
  };
  const onEnd = (event: TransitionEvent) => {
    if (event.target === root && event.propertyName === 'margin-right') restore();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (immediately = false) => {
    if (done || settling === restore) return;
    const margin = saved[0]!;
    if (!animate || immediately) return restore();
    // Slide back first, then put everything back (a transitionend may never come: a hidden tab).
    settling = restore;
    root.addEventListener('transitionend', onEnd);
    timer = setTimeout(restore, 400);
    if (margin[1]) style.setProperty(margin[0], margin[1], margin[2]);
    else style.removeProperty(margin[0]);
    style.removeProperty('--da-push');
  };
}

/**
 * While `active`, the page makes room for the panel `panel` points to, at desktop widths only,
 * following the window across the breakpoint. Motion follows the reader's
 * `prefers-reduced-motion`.
 */
export function usePushPage(active: boolean, panel: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!active || typeof matchMedia === 'undefined') return;
    const wide = matchMedia(PUSH_MEDIA);
    const still = matchMedia('(prefers-reduced-motion: reduce)');
    let release: ((immediately?: boolean) => void) | undefined;
    const update = () => {
      release?.(true);
      release = undefined;
      // Measured, so a host's own panel width is honoured; offsetWidth ignores the entrance's translate.
      const width = panel.current?.offsetWidth;
      if (wide.matches && width)
        release = pushPage(document.documentElement, width, !still.matches);
    };
    // The panel is portalled: it is in the page from the next frame.
    const frame = requestAnimationFrame(update);
    wide.addEventListener('change', update);
    return () => {
      cancelAnimationFrame(frame);
      wide.removeEventListener('change', update);
      release?.();
    };
  }, [active, panel]);
}
