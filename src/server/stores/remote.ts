import type { Worker } from 'node:cluster';
import { isRecord } from '../../protocol/_guards.js';
import type { Stores } from './types.js';
import { vectorFromBytes, vectorToBytes } from './vectors.js';

/**
 * Stores shared by several server processes (`serve --workers N`): the primary process owns the
 * real stores (files or memory) and every worker reaches them through IPC. One owner keeps what the
 * file stores promise (a thread's writes in order, one rate-limit counter per key, a job claimed
 * once) true across workers, where each worker opening the files itself would not: each would
 * count its own quota and cache its own copy of a thread.
 */

type StoreName = 'threads' | 'insights' | 'jobs' | 'rateLimits' | 'signingKey' | 'vectors';

/** The names of a store's methods (a property such as `leases` is not one). */
type MethodOf<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];
/** What a worker calls through the primary: every method but open/close, which belong to the owner. */
type StoreOf<S extends StoreName> = NonNullable<Stores[S]>;
type RemoteMethod<S extends StoreName> = Exclude<MethodOf<StoreOf<S>>, 'open' | 'close'>;
type RemoteStore<S extends StoreName> = Pick<StoreOf<S>, MethodOf<StoreOf<S>>>;

interface Call {
  da: 'store-call';
  id: number;
  store: StoreName;
  method: string;
  args: unknown[];
}

interface Reply {
  da: 'store-reply';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/**
 * The methods a worker may call, checked against the store types: a method added to a store and
 * missing here (or named here and gone from the store) fails the type check, not `--workers`.
 */
const METHODS: { [S in StoreName]: Record<RemoteMethod<S>, true> } = {
  threads: {
    create: true,
    get: true,
    appendTurn: true,
    discard: true,
    hashFingerprints: true,
    prune: true,
  },
  insights: { recordTurn: true, recordFeedback: true, list: true, deleteDomain: true, prune: true },
  jobs: { insert: true, get: true, update: true, claim: true, list: true, delete: true },
  rateLimits: { increment: true },
  signingKey: { getOrCreate: true },
  // The workers share the primary's section vectors: one indexing embeds them, the others wait
  // for it (lock) and read them back.
  vectors: { load: true, save: true, lock: true, unlock: true },
};

// Another process's message is read through guards, not typed on trust: a process may also get
// IPC messages that are not ours (cluster's own, a library's).
const isStoreName = (value: unknown): value is StoreName =>
  typeof value === 'string' && Object.hasOwn(METHODS, value);

const isCall = (message: unknown): message is Call =>
  isRecord(message) &&
  message.da === 'store-call' &&
  typeof message.id === 'number' &&
  isStoreName(message.store) &&
  typeof message.method === 'string' &&
  Object.hasOwn(METHODS[message.store], message.method) &&
  Array.isArray(message.args);

const isReply = (message: unknown): message is Reply =>
  isRecord(message) &&
  message.da === 'store-reply' &&
  typeof message.id === 'number' &&
  typeof message.ok === 'boolean';

// IPC messages are JSON: the signing key (the one Buffer) travels as base64, and a map of section
// vectors as base64 float32 by hash.
const toWire = (value: unknown) =>
  Buffer.isBuffer(value)
    ? { base64: value.toString('base64') }
    : value instanceof Map
      ? {
          vectors: Object.fromEntries(
            [...(value as Map<string, Float32Array>)].map(([hash, vector]) => [
              hash,
              vectorToBytes(vector).toString('base64'),
            ]),
          ),
        }
      : value;
const fromWire = (value: unknown) => {
  if (!isRecord(value)) return value;
  if (typeof value.base64 === 'string') return Buffer.from(value.base64, 'base64');
  if (isRecord(value.vectors))
    return new Map(
      Object.entries(value.vectors).flatMap(([hash, data]) =>
        typeof data === 'string' ? [[hash, vectorFromBytes(Buffer.from(data, 'base64'))]] : [],
      ),
    );
  return value;
};

/** In the primary: answers a worker's store calls with `stores`. */
export function serveStores(stores: Stores, worker: Worker): void {
  // The vector locks a worker holds are let go when it exits, so a crash mid-indexing blocks no one.
  const held = new Set<string>();
  worker.on('exit', () => {
    for (const token of held) void stores.vectors?.unlock(token);
    held.clear();
  });
  worker.on('message', async (message: unknown) => {
    if (!isCall(message)) return;
    const store = stores[message.store] as unknown as
      Record<string, (...args: unknown[]) => Promise<unknown>> | undefined;
    let reply: Reply;
    try {
      if (!store) throw new Error(`The primary has no ${message.store} store.`);
      const value = await store[message.method]!(...message.args.map(fromWire));
      if (message.store === 'vectors' && message.method === 'lock') {
        // Taken for a worker that is gone meanwhile: let go at once.
        if (!worker.isConnected()) await stores.vectors?.unlock(String(value));
        else held.add(String(value));
      }
      if (message.store === 'vectors' && message.method === 'unlock')
        held.delete(String(message.args[0]));
      reply = { da: 'store-reply', id: message.id, ok: true, value: toWire(value) };
    } catch (error) {
      reply = {
        da: 'store-reply',
        id: message.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    // A worker that exited meanwhile gets no reply; the primary keeps serving the others.
    if (worker.isConnected()) worker.send(reply);
  });
}

/** In a worker: stores whose every call is answered by the primary's `serveStores`. */
export function remoteStores(channel: NodeJS.Process = process): Stores {
  if (!channel.send)
    throw new Error('remoteStores() needs an IPC channel (run as a cluster worker).');
  let next = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  channel.on('message', (message: unknown) => {
    if (!isReply(message)) return;
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    if (message.ok) call.resolve(fromWire(message.value));
    else call.reject(new Error(message.error));
  });
  channel.on('disconnect', () => {
    for (const call of pending.values()) call.reject(new Error('The primary process is gone.'));
    pending.clear();
  });
  const call =
    (store: StoreName, method: string) =>
    (...args: unknown[]) =>
      new Promise<unknown>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        channel.send!({
          da: 'store-call',
          id,
          store,
          method,
          args: args.map(toWire),
        } satisfies Call);
      });
  const remote = <S extends StoreName>(store: S) => {
    const methods = Object.keys(METHODS[store]).map((method) => [method, call(store, method)]);
    // Every key of METHODS[store] is a method of the store (its type says so), and each call
    // resolves to what the primary's store resolved to.
    return {
      ...Object.fromEntries(methods),
      // The primary opened the stores before forking and closes them after the workers.
      open: async () => {},
      close: async () => {},
    } as unknown as RemoteStore<S>;
  };
  return {
    threads: remote('threads'),
    insights: remote('insights'),
    jobs: remote('jobs'),
    rateLimits: remote('rateLimits'),
    signingKey: remote('signingKey'),
    vectors: remote('vectors'),
  };
}
