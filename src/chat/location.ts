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
    navigation.addEventListener('currententrychange', check);
    return () => navigation.removeEventListener('currententrychange', check);
  }
  addEventListener('popstate', check);
  const poll = setInterval(check, 1000);
  return () => {
    removeEventListener('popstate', check);
    clearInterval(poll);
  };
}
