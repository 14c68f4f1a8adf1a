import { collectGarbage } from '../../src/server/answering/collect.js';

/** The heap in use once the garbage is collected. */
export function liveHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
