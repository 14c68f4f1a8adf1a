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

/** A reading column narrower than a phone's is no room made: the panel covers the page instead. */
const MIN_COLUMN_PX = 360;

/**
 * Makes room for the panel: a right margin on the page's `<html>` (the panel sits on the right in
 * every writing direction), and `--da-push` on it for hosts whose fixed header or sidebar must
 * make room too. Set through the CSSOM, which a CSP without 'unsafe-inline' allows.
 *
 * Media queries and `vw` still see the whole window, so a layout sized by them may not fit the
 * narrower page: when the page then spills sideways (VitePress centres its content between fixed
 * sidebars) or its `<main>` is squeezed under MIN_COLUMN_PX (Starlight keeps three columns), the
 * push is undone at once and the panel covers the page, as without `push`: returns undefined.
 * Otherwise returns what restores the element exactly as it was, after the margin slid back.
 */
export function pushPage(
  root: HTMLElement,
  width: number,
  animate: boolean,
): ((immediately?: boolean) => void) | undefined {
  settling?.();
  const { style } = root;
  const hadStyle = root.hasAttribute('style');
  const saved = PROPERTIES.map(
    (name) => [name, style.getPropertyValue(name), style.getPropertyPriority(name)] as const,
  );
  const put = (name: (typeof PROPERTIES)[number]) => {
    const [, value, priority] = saved.find(([n]) => n === name)!;
    if (value) style.setProperty(name, value, priority);
    else style.removeProperty(name);
  };

  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const restore = () => {
    if (done) return;
    done = true;
    if (settling === restore) settling = undefined;
    clearTimeout(timer);
    root.removeEventListener('transitionend', onEnd);
    PROPERTIES.forEach(put);
    if (!hadStyle && !root.getAttribute('style')) root.removeAttribute('style');
  };
  const onEnd = (event: TransitionEvent) => {
    if (event.target === root && event.propertyName === 'margin-right') restore();
  };

  // Tried at the final width first: the layout either makes room or it doesn't.
  const body = root.ownerDocument.body;
  const spills = () => !!body && body.scrollWidth > body.clientWidth + 1;
  const spilledBefore = spills();
  style.setProperty('margin-right', `${width}px`);
  style.setProperty('--da-push', `${width}px`);
  const main = root.querySelector('main')?.getBoundingClientRect().width;
  if ((!spilledBefore && spills()) || (main && main < MIN_COLUMN_PX)) {
    restore();
    return undefined;
  }
  if (animate) {
    // Slide from where the page was, in step with the panel's own entrance (widget.css).
    put('margin-right');
    void getComputedStyle(root).marginRight;
    style.setProperty('transition', 'margin-right 0.16s ease-out');
    style.setProperty('margin-right', `${width}px`);
  }

  return (immediately = false) => {
    if (done || settling === restore) return;
    if (!animate || immediately) return restore();
    // Slide back first, then put everything back (a transitionend may never come: a hidden tab).
    settling = restore;
    root.addEventListener('transitionend', onEnd);
    timer = setTimeout(restore, 400);
    put('margin-right');
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
