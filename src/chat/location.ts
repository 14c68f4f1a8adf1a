/**
 * Calls `onChange(path)` when the page's path changes without a page load: a docs framework's
 * client-side router (VitePress, Docusaurus) calling history.pushState, or back/forward. Nothing of
 * the page's history API is patched: the Navigation API reports every same-document navigation
 * where the browser has it; elsewhere `popstate` and a light poll of `location` catch them.
 */
export function watchPath(onChange: (path: string) => void): () => void {
  let path = location.pathname;
  const check = () => {
    if (location.pathname !== path) onChange((path = location.pathname));
  };
  const navigation = (window as { navigation?: EventTarget }).navigation;
  if (navigation) {
    // The event fires inside history.pushState, which Next.js calls from a useInsertionEffect;
    // updating React state there is an error in development. A microtask runs right after it.
    const later = () => queueMicrotask(check);
    navigation.addEventListener('currententrychange', later);
    return () => navigation.removeEventListener('currententrychange', later);
  }
  addEventListener('popstate', check);
  const poll = setInterval(check, 1000);
  return () => {
    removeEventListener('popstate', check);
    clearInterval(poll);
  };
}
