import { describe, expect, it } from 'vitest';
import { whenIdle } from '../src/ui/idle.js';
import { taskCounter } from './helpers/tasks.js';

/** Busy for `ms`: a job that does real work on the thread. */
const work = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('whenIdle', () => {
  it('runs jobs in order, gives the thread back after a slow one (its microtasks included), and survives a failing one', async () => {
    // Which task each job ran in: tasks are counted while the queue drains.
    const tasks = taskCounter();
    const ran: [string, number][] = [];
    const done = new Promise<void>((resolve) => {
      whenIdle(() => ran.push(['quick 1', tasks.now()]));
      whenIdle(() => ran.push(['quick 2', tasks.now()]));
      whenIdle(() => {
        ran.push(['slow 1', tasks.now()]);
        work(8);
      });
      whenIdle(() => {
        ran.push(['slow 2', tasks.now()]);
        work(8);
      });
      whenIdle(() => {
        ran.push(['renders later 1', tasks.now()]);
        // How Preact renders a job's state update: in a microtask, after the job returned.
        queueMicrotask(() => work(8));
      });
      whenIdle(() => ran.push(['renders later 2', tasks.now()]));
      whenIdle(() => {
        throw new Error('a broken job');
      });
      whenIdle(() => {
        ran.push(['after the failure', tasks.now()]);
        resolve();
      });
    });
    const failure = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
    await done;
    tasks.stop();
    expect(((await failure) as Error).message).toBe('a broken job');
    expect(ran.map(([name]) => name)).toEqual([
      'quick 1',
      'quick 2',
      'slow 1',
      'slow 2',
      'renders later 1',
      'renders later 2',
      'after the failure',
    ]);
    const at = Object.fromEntries(ran);
    // A job that used up the slice ends it: the next one runs in a later task.
    expect(at['slow 2']).toBeGreaterThan(at['slow 1']!);
    // Work a job started in a microtask counts toward the slice as well.
    expect(at['renders later 2']).toBeGreaterThan(at['renders later 1']!);
  });
});
