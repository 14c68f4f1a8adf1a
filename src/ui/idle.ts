/** Longest a batch of idle jobs runs before the browser gets the thread back. */
const SLICE_MS = 5;

const queue: (() => void)[] = [];
let scheduled = false;

function runSlice() {
  scheduled = false;
  const deadline = performance.now() + SLICE_MS;
  try {
    do queue.shift()!();
    while (queue.length > 0 && performance.now() < deadline);
  } finally {
    schedule();
  }
}

function schedule() {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  // Safari has no requestIdleCallback; a timer still gives the thread back between slices.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(runSlice, { timeout: 500 });
  else setTimeout(runSlice, 0);
}

/**
 * Runs `job` when the page is idle, in order with the others queued, a few milliseconds of jobs per
 * task: work that can wait (warming the lexer, highlighting code already on screen as plain text)
 * never adds up to a long task. A job should be small; one that takes long is still one task.
 */
export function whenIdle(job: () => void): void {
  queue.push(job);
  schedule();
}
