import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { parsePage } from './docs.js';
import type { ParseReply, ParseTask } from './parse-pool.js';
import { packPage } from './page-format.js';

/**
 * A parse thread of parse-pool.ts: reads each page it is sent, parses it and sends the page back
 * (a structured clone), packed as the page cache keeps it when asked: then the server's thread
 * takes two strings instead of rebuilding every block and link object, and writes the body's JSON
 * as it came. What the read or the parse throws goes back as its message, as `loadDocsSite` and
 * `loadHtmlSite` would have caught it in the server's own thread.
 */
const port = parentPort!;
// Built HTML needs parse5 and its entity tables (a third of a second to load): only for `--site`.
let html: Promise<typeof import('./html.js')> | undefined;
port.on('message', async ({ id, ...task }: ParseTask & { id: number }) => {
  let reply: ParseReply<unknown>;
  try {
    const source = readFileSync(task.path, 'utf8');
    const page =
      task.kind === 'site'
        ? (await (html ??= import('./html.js'))).parseHtmlPage(task.file, source, task.language)
        : parsePage(task.file, source, task.language);
    reply = { id, page: task.packed && !('skipped' in page) ? packPage(page) : page };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  try {
    port.postMessage(reply);
  } catch {
    // A page that cannot be cloned (not plain data) is parsed by the server's thread instead.
    port.postMessage({ id, inThread: true } satisfies ParseReply<unknown>);
  }
});
