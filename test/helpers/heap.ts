import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap in use once the garbage is collected (V8's `gc`, turned on for this process). */
export function liveHeap(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
