import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurably } from './fs.js';

/**
 * Where the section vectors of the owner's embedding model are kept, by content hash, so a section
 * whose text did not change is never sent to the model again: files under the data folder, the
 * database with `--database`, the primary's store over IPC for `--workers`. One store serves every
 * site of a server (and, with a database, every instance).
 */
export interface VectorStore {
  /** The kept vectors of `model` among `hashes`. */
  load(model: string, hashes: string[]): Promise<Map<string, Float32Array>>;
  /**
   * Keeps `vectors` (added or replaced), marks `used` as used now, and drops the vectors of `model`
   * no section has used for VECTOR_RETENTION_DAYS (another site's or instance's are still used).
   */
  save(model: string, vectors: Map<string, Float32Array>, used: string[]): Promise<void>;
  /**
   * Waits until no other indexing of `model` holds the store (another site of this server, another
   * worker, another instance on the database), then holds it until `unlock(token)`: the vectors
   * one indexing computes are the ones the next finds, so each section is embedded once.
   */
  lock(model: string): Promise<string>;
  unlock(token: string): Promise<void>;
}

/** Vectors no section used for this long are dropped (a removed page's, an old model's). */
export const VECTOR_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

/** float32 bytes, as the file store, IPC and the database carry a vector. */
export const vectorToBytes = (vector: Float32Array) =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  // Copied: a Buffer's bytes may sit at an offset no Float32Array can start at.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}

/** Locks of one process, one queue per model: each holder in turn. */
export function processLocks(): Pick<VectorStore, 'lock' | 'unlock'> {
  const tails = new Map<string, Promise<void>>();
  const held = new Map<string, () => void>();
  let next = 0;
  return {
    async lock(model) {
      const before = tails.get(model) ?? Promise.resolve();
      let release!: () => void;
      const tail = before.then(() => new Promise<void>((done) => (release = done)));
      tails.set(model, tail);
      await before;
      const token = `${++next}`;
      held.set(token, () => {
        release();
        if (tails.get(model) === tail) tails.delete(model);
      });
      return token;
    },
    async unlock(token) {
      held.get(token)?.();
      held.delete(token);
    },
  };
}

interface VectorFile {
  model: string;
  vectors: Record<string, string>;
  /** Day (ms since the epoch) each vector was last used; a file written before this was kept has none. */
  seen?: Record<string, number>;
}

/** Vectors in one file per model under `dir` (the data folder's `vectors/`), as base64 float32. */
export function createFileVectorStore(dir: string, now: () => number = Date.now): VectorStore {
  const fileOf = (model: string) =>
    join(dir, `${createHash('sha256').update(model).digest('hex').slice(0, 16)}.json`);
  const read = async (model: string): Promise<VectorFile> => {
    try {
      const stored = JSON.parse(await readFile(fileOf(model), 'utf8')) as VectorFile;
      if (stored.model === model && stored.vectors && typeof stored.vectors === 'object')
        return stored;
    } catch {
      // Missing or unreadable: the vectors are computed again.
    }
    return { model, vectors: {} };
  };
  return {
    ...processLocks(),
    async load(model, hashes) {
      const { vectors } = await read(model);
      const found = new Map<string, Float32Array>();
      for (const hash of hashes)
        if (typeof vectors[hash] === 'string')
          found.set(hash, vectorFromBytes(Buffer.from(vectors[hash], 'base64')));
      return found;
    },
    async save(model, vectors, used) {
      const stored = await read(model);
      const at = now();
      const seen: Record<string, number> = {};
      for (const hash of Object.keys(stored.vectors)) seen[hash] = stored.seen?.[hash] ?? at;
      for (const [hash, vector] of vectors)
        stored.vectors[hash] = vectorToBytes(vector).toString('base64');
      for (const hash of [...vectors.keys(), ...used]) seen[hash] = at;
      for (const hash of Object.keys(stored.vectors))
        if (!(at - seen[hash]! < VECTOR_RETENTION_DAYS * DAY_MS)) {
          delete stored.vectors[hash];
          delete seen[hash];
        }
      await mkdir(dir, { recursive: true });
      await writeFileDurably(fileOf(model), JSON.stringify({ ...stored, seen }));
    },
  };
}

/** A store that keeps nothing between runs (no data folder); its sites still share it. */
export function memoryVectorStore(): VectorStore {
  const kept = new Map<string, Map<string, Float32Array>>();
  return {
    ...processLocks(),
    load: async (model, hashes) => {
      const vectors = kept.get(model);
      return new Map(
        hashes.flatMap((hash) => (vectors?.has(hash) ? [[hash, vectors.get(hash)!]] : [])),
      );
    },
    save: async (model, vectors) => {
      const own = kept.get(model) ?? new Map<string, Float32Array>();
      for (const [hash, vector] of vectors) own.set(hash, vector);
      kept.set(model, own);
    },
  };
}
