/** Longest a batch of idle jobs runs before the browser gets the thread back. */
const SLICE_MS = 5;

const queue: (() => void)[] = [];
let scheduled = false;

/** Resolves after the microtasks queued so far: a render a job's state update started (Preact). */
const settled = () => new Promise<void>((resolve) => queueMicrotask(resolve));

async function runSlice() {
  const deadline = performance.now() + SLICE_MS;
  try {
    do {
      const job = queue.shift()!;
      try {
        job();
      } catch (error) {
        // Reported as uncaught, as a job's error in a task of its own would be; the queue goes on.
        queueMicrotask(() => {
          throw error;
        });
      }
      // Preact renders a state update in a microtask, after this job but in the same task: wait
      // for it before the clock is read, or five milliseconds of jobs can start twenty of rendering.
      await settled();
    } while (queue.length > 0 && performance.now() < deadline);
  } finally {
    scheduled = false;
    schedule();
  }
}

function schedule() {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  const run = () => void runSlice();
  // Safari has no requestIdleCallback; a timer still gives the thread back between slices.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 500 });
  else setTimeout(run, 0);
}

/**
 * Runs `job` when the page is idle, in order with the others queued, a few milliseconds of jobs per
 * task (rendering they cause in microtasks included): work that can wait (warming the lexer,
 * highlighting code already on screen as plain text) never adds up to a long task. A job should be
 * small; one that takes long is still one task.
 */
export function whenIdle(job: () => void): void {
  queue.push(job);
  schedule();
}

/** How far outside its scroll container's view an element counts as near: a screen or so. */
const NEAR_MARGIN = '800px 0px';

const observers = new WeakMap<Element, IntersectionObserver>();
const nearJobs = new WeakMap<Element, () => void>();

/**
 * Runs `job` once `element` comes near the visible part of `root` (its scroll container), at once
 * where there is no IntersectionObserver. Returns a cancel function. For work only a reader looking
 * at the element needs, like highlighting code: an answer of 200,000 characters has hundreds of
 * code blocks, and a reader sees a few.
 */
export function whenNear(element: Element, root: Element | null, job: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    job();
    return () => {};
  }
  const key = root ?? element.ownerDocument.documentElement;
  let observer = observers.get(key);
  if (!observer) {
    observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer!.unobserve(entry.target);
          const near = nearJobs.get(entry.target);
          nearJobs.delete(entry.target);
          near?.();
        }
      },
      { root, rootMargin: NEAR_MARGIN },
    );
    observers.set(key, observer);
  }
  nearJobs.set(element, job);
  observer.observe(element);
  return () => {
    observer.unobserve(element);
    nearJobs.delete(element);
  };
}
