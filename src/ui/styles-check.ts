let warned = false;

/**
 * Without `docs-assistant/styles.css` the widget renders as plain, unstyled inline HTML, which is
 * easy to miss in a hurry. Development builds say so once; production builds drop this code (the
 * bundler replaces `process.env.NODE_ENV`, as it does for React itself).
 */
export function warnIfUnstyled(root: HTMLElement | null): void {
  if (process.env.NODE_ENV === 'production' || warned || !root) return;
  // A stylesheet still loading when the widget mounts gets until the page's load event.
  const check = () => {
    if (warned || !root.isConnected || getComputedStyle(root).getPropertyValue('--da-z') !== '')
      return;
    warned = true;
    console.warn(
      "docs-assistant: the widget's styles are missing. Add `import 'docs-assistant/styles.css'` next to the component (or link dist/styles.css).",
    );
  };
  if (document.readyState === 'complete') check();
  else window.addEventListener('load', check, { once: true });
}
