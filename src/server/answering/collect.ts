// A full garbage collection on demand, for the moments a first start knows it has just let go of
// most of its heap: the index build's working state.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * Collects all garbage now. The index build of a large site leaves hundreds of megabytes of it (its
 * tokens' maps, the pages' bodies it read); left to V8, it was still there while the kept index
 * was loaded and the retriever's tables made (the first start's peak), and was collected during
 * the first answers (a pause of several hundred milliseconds). `gc` is only given to contexts made
 * after `--expose-gc` is set, so it is taken from a new one; where that fails (another engine, a
 * locked-down runtime), nothing is done.
 */
export function collectGarbage(): void {
  if (!collect) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = () => {};
    }
  }
  collect();
}
