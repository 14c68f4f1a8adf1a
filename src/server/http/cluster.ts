import cluster, { type Worker } from 'node:cluster';
import type { Stores } from '../stores/index.js';
import { remoteStores, serveStores } from '../stores/remote.js';

/** True in a process forked by `startWorkers`: it serves HTTP with the primary's stores. */
export const isClusterWorker = cluster.isWorker;

/**
 * Whether this process recovers export jobs at start: a single server does, and of the workers only
 * the first one forked at start; a replacement for a crashed worker must not fail live jobs.
 */
export const recoversOnStart = !cluster.isWorker || process.env.DA_CLUSTER_RECOVER === '1';

/** The stores a cluster worker uses: the primary's, over IPC. */
export const workerStores = (): Stores => remoteStores();

/** A worker that has closed its server lets go of the IPC channel, which would keep it alive. */
export function leaveCluster(): void {
  if (cluster.isWorker) cluster.worker?.disconnect();
}

export interface Workers {
  url: string;
  close(): Promise<void>;
}

/**
 * `serve --workers N`: forks N processes that run the same command and share its port (node:cluster
 * hands connections out round-robin), with `stores` (already open) owned by this one, if given.
 * The first starts alone (it recovers export jobs), then the rest. A worker that dies is replaced;
 * one that cannot start makes this reject with its exit code.
 */
export function startWorkers(
  count: number,
  stores: Stores | undefined,
  host: string,
): Promise<Workers> {
  let stopping = false;
  const live = new Set<Worker>();
  const fork = (recover = false) => {
    const worker = cluster.fork(recover ? { DA_CLUSTER_RECOVER: '1' } : {});
    live.add(worker);
    if (stores) serveStores(stores, worker);
    return worker;
  };
  return new Promise((resolve, reject) => {
    let listening = 0;
    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      live.delete(worker);
      if (stopping) return;
      if (listening < count) {
        stopping = true;
        for (const other of live) other.process.kill('SIGTERM');
        return reject(new Error(`a worker exited while starting (${signal ?? `code ${code}`})`));
      }
      console.error(
        `[docs-assistant] worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`,
      );
      fork();
    };
    cluster.on('exit', onExit);
    cluster.on('listening', (_worker, address) => {
      // The first worker recovers the export jobs before the others may claim any.
      if (++listening === 1) for (let i = 1; i < count; i++) fork();
      if (listening !== count) return;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${address.port}`,
        close: async () => {
          stopping = true;
          const exits = [...live].map((worker) => new Promise((done) => worker.once('exit', done)));
          // Each worker closes its server and app on SIGTERM, as a single `serve` does on Ctrl-C.
          for (const worker of live) worker.process.kill('SIGTERM');
          await Promise.all(exits);
          cluster.off('exit', onExit);
        },
      });
    });
    fork(true);
  });
}
