import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocPage, DocsSite } from '../site/docs.js';
import { joinPieces, type IndexPiece } from './flat-index.js';
import {
  compoundsText,
  createTokenizer,
  indexOptions,
  pageEntryOf,
  passagesOfPage,
  type BuiltIndexes,
  type PageEntry,
  type Passage,
} from './retrieval.js';

/** What the server's thread sends an index thread, in this order. */
export type ToIndexThread =
  /** Its pages' texts for the words written as one or two (`compoundsText`), a batch. */
  | { texts: string[] }
  /** Its pages' texts are all sent: reply with their words (`{ words }`). */
  | { read: true }
  /** Every piece's words: reply with the words its pages write as one or two (`{ compounds }`). */
  | { vocabulary: string[] }
  /** The site's words written as one or two, to index its pages with. */
  | { compounds: [string, string[]][] }
  /** Its pages' index entries, a batch. */
  | { pages: { entry: PageEntry; passages: Passage[] }[] }
  /** Its pages are all sent: reply with the piece (`{ passages, pages }`). */
  | { built: true };

/** What an index thread replies, or what it threw. */
export type FromIndexThread =
  /** A batch is taken: the next may come. */
  | { taken: true }
  | { words: string[] }
  | { compounds: [string, string[]][] }
  | { passages: IndexPiece; pages: IndexPiece }
  | { error: string };

/** Pages sent to a thread in one message. */
const BATCH = 128;
/** Messages sent to a thread and not yet taken. */
const IN_FLIGHT = 2;
/** Fewer pages than this a thread are built in the server's thread: a thread's start costs more. */
const PAGES_EACH = 500;

/**
 * The thread's module, beside this one once built to JavaScript (dist/, the CLI bundle's folder).
 * Run from the TypeScript sources (vitest) there is none: the index is then built in the server's
 * thread, as before.
 */
function workerFile(): string | undefined {
  try {
    const file = fileURLToPath(import.meta.resolve('./index-worker.js'));
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A first start's index built on `threads` threads, each a piece of consecutive pages
 * (flat-index.ts `pieceOf`), then joined here into the index one thread would have built
 * (`joinPieces`): the words written as one or two first (each thread's words, all of them sent
 * back, each thread's pairs), then the pieces. At 20,000 pages the build was 74 s of the server's
 * one thread while the parse threads sat idle (docs/scale.md). Undefined when there is no thread
 * module to run (the sources under vitest), fewer than two threads, or a thread failed (`warn`
 * says so): the retriever then builds the index in the server's thread, which says any error in
 * the pages.
 */
export async function buildOnThreads(
  site: DocsSite,
  threads: number,
  {
    pagesEach = PAGES_EACH,
    warn,
  }: {
    /** Pages a thread takes at the least. */
    pagesEach?: number;
    /** Says why the index is built in the server's thread after all. */
    warn?: (line: string) => void;
  } = {},
): Promise<BuiltIndexes | undefined> {
  const file = workerFile();
  const count = Math.min(threads, Math.floor(site.pages.length / pagesEach));
  if (!file || count < 2) return undefined;
  const workers = Array.from({ length: count }, () => new Worker(file));
  // Each thread's replies, in the order asked for.
  const replies = workers.map((worker) => {
    const waiting: ((reply: FromIndexThread) => void)[] = [];
    const fail = (message: string) => {
      for (const resolve of waiting.splice(0)) resolve({ error: message });
    };
    worker.on('message', (reply: FromIndexThread) => waiting.shift()?.(reply));
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => fail(`its thread stopped (exit code ${code})`));
    return () => new Promise<FromIndexThread>((resolve) => waiting.push(resolve));
  });
  const ask = async <K extends string>(n: number, message: ToIndexThread, key: K) => {
    const reply = replies[n]!();
    workers[n]!.postMessage(message);
    const answer = await reply;
    if ('error' in answer) throw new Error(answer.error);
    if (!(key in answer)) throw new Error(`the thread replied without ${key}`);
    return answer as Extract<FromIndexThread, Record<K, unknown>>;
  };
  /** Sends a thread its batches, two at a time, so they are not all copied at once. */
  const feed = async (n: number, batches: Iterable<ToIndexThread>) => {
    const taken: Promise<unknown>[] = [];
    for (const batch of batches) {
      const reply = ask(n, batch, 'taken');
      // Awaited below, unless an earlier one failed: then this one's failure is the same.
      reply.catch(() => {});
      taken.push(reply);
      if (taken.length >= IN_FLIGHT) await taken.shift();
    }
    await Promise.all(taken);
  };
  const size = Math.ceil(site.pages.length / count);
  /** Thread `n`'s pages, `BATCH` at a time, each batch as `of` makes it. */
  function* batchesOf<M>(n: number, of: (pages: DocPage[]) => M) {
    for (let at = n * size; at < Math.min((n + 1) * size, site.pages.length); at += BATCH)
      yield of(site.pages.slice(at, Math.min(at + BATCH, (n + 1) * size)));
  }
  try {
    const wordsOf = workers.map(async (_, n) => {
      await feed(
        n,
        batchesOf(n, (pages) => ({ texts: pages.map(compoundsText) })),
      );
      return ask(n, { read: true }, 'words');
    });
    const vocabulary = new Set<string>();
    for (const { words } of await Promise.all(wordsOf))
      for (const word of words) vocabulary.add(word);
    const all = [...vocabulary];
    vocabulary.clear();
    const compounds = new Map<string, string[]>();
    const pairsOf = workers.map((_, n) => ask(n, { vocabulary: all }, 'compounds'));
    // In the order of the pieces: a word's place is where it was first met, its parts the last.
    for (const reply of await Promise.all(pairsOf))
      for (const [word, parts] of reply.compounds) compounds.set(word, parts);
    const pieces = await Promise.all(
      workers.map(async (_, n) => {
        await ask(n, { compounds: [...compounds] }, 'taken');
        await feed(
          n,
          batchesOf(n, (pages) => ({
            pages: pages.map((page) => ({
              entry: pageEntryOf(page),
              passages: [...passagesOfPage(page)],
            })),
          })),
        );
        return ask(n, { built: true }, 'passages');
      }),
    );
    const { passages, pages } = indexOptions(createTokenizer(compounds));
    return {
      compounds,
      passages: joinPieces(
        pieces.map((piece) => piece.passages),
        passages.fields,
      ),
      pages: joinPieces(
        pieces.map((piece) => piece.pages),
        pages.fields,
      ),
    };
  } catch (error) {
    warn?.(
      `Could not build the index on threads (${(error as Error).message}); building it in one.`,
    );
    return undefined;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
