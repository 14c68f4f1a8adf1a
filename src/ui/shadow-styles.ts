const sheets = new Map<string, CSSStyleSheet>();

function constructable(root: ShadowRoot): boolean {
  return (
    'adoptedStyleSheets' in root &&
    typeof CSSStyleSheet !== 'undefined' &&
    'replaceSync' in CSSStyleSheet.prototype
  );
}

/**
 * Puts CSS into a shadow root and nowhere else. A constructable stylesheet (shared between roots
 * with the same CSS) needs no <style> element, so a strict CSP's style-src does not block it;
 * older browsers get a <style> carrying the CSP nonce.
 */
export function addShadowStyles(root: ShadowRoot, css: string, nonce?: string): void {
  if (constructable(root)) {
    let sheet = sheets.get(css);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      sheets.set(css, sheet);
    }
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  const style = root.ownerDocument.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  root.prepend(style);
}
