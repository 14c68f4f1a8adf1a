import { parentPort } from 'node:worker_threads';
import { parsePage, readPageFile } from './docs.js';
import type { ParseReply, ParseTask } from './parse-pool.js';
import { packPage } from './page-format.js';

/**
 * A parse thread of parse-pool.ts: reads each page it is sent, parses it and sends the page back
 * (a structured clone, with the others parsed since: REPLIES_AT_ONCE), packed as the page cache
 * keeps it when asked: then the server's thread takes two strings instead of rebuilding every
 * block and link object, and writes the body's JSON as it came. What the read or the parse throws
 * goes back as its message, as `loadDocsSite` and `loadHtmlSite` would have caught it in the
 * server's own thread.
 */
const port = parentPort!;
// Built HTML needs parse5 and its entity tables (a third of a second to load): only for `--site`.
let html: Promise<typeof import('./html.js')> | undefined;

/**
 * Replies sent in one message: each message wakes the server's thread, and a parse thread spent 7%
 * of its time in `postMessage` sending pages one at a time (docs/scale-history.md). With IN_FLIGHT
 * (parse-pool.ts) pages at a thread, the server's thread still hears of its pages while the thread
 * parses the rest.
 */
const REPLIES_AT_ONCE = 8;
let replies: ParseReply<unknown>[] = [];
let flushing = false;

/** Sends the replies held; a page that cannot be cloned is parsed by the server's thread instead. */
function flush() {
  flushing = false;
  const sending = replies;
  replies = [];
  if (sending.length === 0) return;
  try {
    port.postMessage(sending);
  } catch {
    for (const reply of sending)
      try {
        port.postMessage([reply]);
      } catch {
        port.postMessage([{ id: reply.id, inThread: true } satisfies ParseReply<unknown>]);
      }
  }
}

port.on('message', async ({ id, ...task }: ParseTask & { id: number }) => {
  let reply: ParseReply<unknown>;
  try {
    const source = readPageFile(task.path);
    const page =
      task.kind === 'site'
        ? (await (html ??= import('./html.js'))).parseHtmlPage(task.file, source, task.language)
        : parsePage(task.file, source, task.language);
    reply = { id, page: task.packed && !('skipped' in page) ? packPage(page) : page };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  replies.push(reply);
  if (replies.length >= REPLIES_AT_ONCE) flush();
  // The rest once the pages already sent to this thread are parsed.
  else if (!flushing) {
    flushing = true;
    setImmediate(flush);
  }
});
