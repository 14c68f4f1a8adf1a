/**
 * Counts tasks while it runs: a chain of zero-delay timers, one per task. `now()` says which task
 * the caller is in, so a test can tell whether two things happened in the same task.
 */
export function taskCounter(): { now(): number; stop(): void } {
  let task = 0;
  let ticking = true;
  const tick = () => {
    task++;
    if (ticking) setTimeout(tick, 0);
  };
  tick();
  return {
    now: () => task,
    stop: () => {
      ticking = false;
    },
  };
}
