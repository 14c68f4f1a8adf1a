import { parentPort } from 'node:worker_threads';
import { pieceBuilder } from './flat-index.js';
import type { FromIndexThread, ToIndexThread } from './index-threads.js';
import {
  createTokenizer,
  indexOptions,
  TextWords,
  type PageEntry,
  type Passage,
} from './retrieval.js';

/**
 * An index thread of index-threads.ts: reads its pages' texts and sends back their words, then the
 * words they write as one or two (given every piece's words); given the site's words written as one
 * or two, it indexes its pages as they come and sends back its piece of both indexes.
 */
const port = parentPort!;
let words = new TextWords();
let builders:
  | {
      passages: ReturnType<typeof pieceBuilder<Passage>>;
      pages: ReturnType<typeof pieceBuilder<PageEntry>>;
    }
  | undefined;
port.on('message', (message: ToIndexThread) => {
  let reply: FromIndexThread;
  const transfer: ArrayBuffer[] = [];
  try {
    if ('texts' in message) {
      for (const text of message.texts) words.add(text);
      reply = { taken: true };
    } else if ('read' in message) reply = { words: words.list };
    else if ('vocabulary' in message) {
      reply = { compounds: [...words.compounds(message.vocabulary)] };
      // Read: their numbers go.
      words = new TextWords();
    } else if ('compounds' in message) {
      const options = indexOptions(createTokenizer(new Map(message.compounds)));
      builders = {
        passages: pieceBuilder(options.passages),
        pages: pieceBuilder(options.pages),
      };
      reply = { taken: true };
    } else if ('pages' in message) {
      for (const { entry, passages } of message.pages) {
        builders!.pages.add(entry);
        for (const passage of passages) builders!.passages.add(passage);
      }
      reply = { taken: true };
    } else {
      const piece = { passages: builders!.passages.piece(), pages: builders!.pages.piece() };
      builders = undefined;
      for (const { postings } of [piece.passages, piece.pages])
        transfer.push(postings.buffer as ArrayBuffer);
      reply = piece;
    }
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, transfer);
});
