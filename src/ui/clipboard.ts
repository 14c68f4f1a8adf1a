/**
 * Writes to the clipboard. Text still being fetched goes in as a promise inside a ClipboardItem,
 * so the reader's click still counts as the permission once it arrives (Safari refuses a write
 * made after an await; Chromium takes both). False when the clipboard or the text failed.
 */
export async function writeClipboard(text: string | Promise<string>): Promise<boolean> {
  try {
    if (typeof text !== 'string' && typeof ClipboardItem !== 'undefined') {
      const blob = text.then((value) => new Blob([value], { type: 'text/plain' }));
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
    } else await navigator.clipboard.writeText(typeof text === 'string' ? text : await text);
    return true;
  } catch {
    return false;
  }
}
