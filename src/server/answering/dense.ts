import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embed, embedMany, type EmbeddingModel } from 'ai';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocSection, DocsSite } from '../site/docs.js';
import { writeFileDurably } from '../stores/fs.js';

/** How the reference server reaches the site owner's embedding model (`serve --embed-…`). */
export interface EmbedConfig {
  /** API root of an OpenAI-compatible `/v1/embeddings` server (`http://127.0.0.1:11434/v1` for Ollama). */
  baseUrl: string;
  /** Model name as the server knows it (`nomic-embed-text`, `text-embedding-3-small`). */
  model: string;
  /** Secret key; read only from DOCS_ASSISTANT_EMBED_API_KEY by the CLI, never shown anywhere. */
  apiKey?: string;
  /** Texts per request while indexing (small: a CPU-bound local server must answer each within its timeout). @default 16 */
  batchSize?: number;
  /** The fetch the provider uses (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
}

export const EMBED_API_KEY_VARIABLE = 'DOCS_ASSISTANT_EMBED_API_KEY';

/** "nomic-embed-text at http://…/v1": for logs, never with the key. */
export function describeEmbed(config: EmbedConfig): string {
  return `${config.model} at ${config.baseUrl}${config.apiKey ? ` (key from ${EMBED_API_KEY_VARIABLE})` : ''}`;
}

/**
 * Where section vectors are kept between runs, by content hash: a section whose text did not
 * change is never sent to the model again.
 */
export interface VectorStore {
  load(model: string): Promise<Map<string, Float32Array>>;
  save(model: string, vectors: Map<string, Float32Array>): Promise<void>;
}

/** Vectors in one file per model under `dir` (the data folder's `vectors/`), as base64 float32. */
export function createFileVectorStore(dir: string): VectorStore {
  const fileOf = (model: string) =>
    join(dir, `${createHash('sha256').update(model).digest('hex').slice(0, 16)}.json`);
  return {
    async load(model) {
      let stored: { model: string; vectors: Record<string, string> };
      try {
        stored = JSON.parse(await readFile(fileOf(model), 'utf8'));
      } catch {
        return new Map();
      }
      if (stored.model !== model) return new Map();
      return new Map(
        Object.entries(stored.vectors).map(([hash, data]) => {
          const bytes = Buffer.from(data, 'base64');
          return [hash, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)];
        }),
      );
    },
    async save(model, vectors) {
      await mkdir(dir, { recursive: true });
      const encoded: Record<string, string> = {};
      for (const [hash, vector] of vectors)
        encoded[hash] = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString(
          'base64',
        );
      await writeFileDurably(fileOf(model), JSON.stringify({ model, vectors: encoded }));
    },
  };
}

/** A store that keeps nothing between runs (no data folder). */
export const memoryVectorStore = (): VectorStore => {
  const kept = new Map<string, Map<string, Float32Array>>();
  return {
    load: async (model) => new Map(kept.get(model)),
    save: async (model, vectors) => void kept.set(model, new Map(vectors)),
  };
};

/** Section id → cosine similarity to the question, for the sections the model placed closest. */
export type DenseScores = Map<string, number>;

export interface DenseRetrieval {
  /** Settles once every section has its vector (or the model failed and keywords carry on alone). */
  ready: Promise<void>;
  /** How many sections were sent to the model by the last indexing (the rest came from the store). */
  readonly embedded: number;
  /** The sections nearest the question; undefined when the model cannot be reached. */
  scores(question: string, signal?: AbortSignal): Promise<DenseScores | undefined>;
}

/** Sections scored per question; the fusion reads ranks, and the rest would rank below keywords anyway. */
const DENSE_CANDIDATES = 50;
/** Characters of a section that are embedded: small models read 256–512 tokens, the rest is cut. */
const SECTION_CHARS = 2000;

/** What the model reads of a section: where it sits (page › heading) and its text. */
export function embeddingTextOf(section: DocSection): string {
  const place = [section.pageTitle, section.heading].filter(Boolean).join(' › ');
  const code = section.code.map((sample) => sample.value).join('\n');
  return `${place}\n${section.text}\n${code}`.slice(0, SECTION_CHARS);
}

const hashOf = (model: string, text: string) =>
  createHash('sha256').update(model).update('\0').update(text).digest('base64url');

/** The AI SDK 4 embedding model for a configuration (any OpenAI-compatible `/v1/embeddings`). */
export function createEmbeddingModel(config: EmbedConfig): EmbeddingModel<string> {
  return createOpenAICompatible({
    name: 'embed',
    baseURL: config.baseUrl,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
  }).textEmbeddingModel(config.model);
}

/**
 * Dense retrieval over a site's sections with the owner's embedding model. Section vectors are
 * computed once per content hash and kept in `store`; a restart sends only new or changed sections.
 * Any failure of the model (down, 4xx/5xx, vectors of the wrong size) is logged once, key blanked,
 * and the site answers with keywords alone until the model answers again.
 */
export function createDenseRetrieval(
  site: DocsSite,
  config: EmbedConfig,
  options: { store: VectorStore; log?: (line: string) => void },
): DenseRetrieval {
  const model = createEmbeddingModel(config);
  const log = options.log ?? ((line) => console.error(line));
  const sections = site.pages.flatMap((page) => page.sections);
  const texts = sections.map(embeddingTextOf);
  const hashes = texts.map((text) => hashOf(config.model, text));
  const vectors: (Float32Array | undefined)[] = [];
  let dims: number | undefined;
  let embedded = 0;
  let failing = false;

  const blank = (text: string) => (config.apiKey ? text.split(config.apiKey).join('***') : text);
  const fail = (error: unknown) => {
    if (failing) return;
    failing = true;
    const message = error instanceof Error ? error.message : String(error);
    log(
      `[docs-assistant] embedding model ${describeEmbed(config)} failed, answering with keywords alone: ${blank(message).replace(/\s+/g, ' ').slice(0, 300)}`,
    );
  };
  const checkDims = (found: number[][]) => {
    for (const vector of found) {
      dims ??= vector.length;
      if (vector.length !== dims || vector.length === 0)
        throw new Error(
          `the model returned vectors of ${vector.length} dimensions, expected ${dims}`,
        );
    }
  };

  const ready = (async () => {
    const kept = await options.store
      .load(config.model)
      .catch(() => new Map<string, Float32Array>());
    const missing: number[] = [];
    hashes.forEach((hash, i) => {
      const vector = kept.get(hash);
      if (vector && (dims === undefined || vector.length === dims)) {
        dims ??= vector.length;
        vectors[i] = vector;
      } else missing.push(i);
    });
    if (missing.length === 0) return;
    const batch = config.batchSize ?? 16;
    try {
      for (let start = 0; start < missing.length; start += batch) {
        const part = missing.slice(start, start + batch);
        const { embeddings } = await embedMany({
          model,
          values: part.map((i) => texts[i]!),
          maxRetries: 0,
        });
        checkDims(embeddings);
        part.forEach((i, n) => (vectors[i] = normalized(embeddings[n]!)));
        embedded += part.length;
      }
    } catch (error) {
      fail(error);
    }
    // Everything known is kept, the vectors of sections that no longer exist dropped.
    const keep = new Map<string, Float32Array>();
    hashes.forEach((hash, i) => vectors[i] && keep.set(hash, vectors[i]));
    await options.store.save(config.model, keep).catch((error: unknown) => {
      log(`[docs-assistant] could not keep the section vectors: ${String(error)}`);
    });
  })();

  return {
    ready,
    get embedded() {
      return embedded;
    },
    async scores(question, signal) {
      await ready;
      if (dims === undefined) return undefined;
      let query: number[];
      try {
        ({ embedding: query } = await embed({
          model,
          value: question,
          maxRetries: 0,
          ...(signal ? { abortSignal: signal } : {}),
        }));
        checkDims([query]);
      } catch (error) {
        if (!signal?.aborted) fail(error);
        return undefined;
      }
      if (failing) {
        failing = false;
        log(`[docs-assistant] embedding model ${describeEmbed(config)} answers again`);
      }
      const q = normalized(query);
      const found: [string, number][] = [];
      sections.forEach((section, i) => {
        const vector = vectors[i];
        if (!vector) return;
        let dot = 0;
        for (let d = 0; d < q.length; d++) dot += q[d]! * vector[d]!;
        found.push([section.id, dot]);
      });
      found.sort((a, b) => b[1] - a[1]);
      return new Map(found.slice(0, DENSE_CANDIDATES));
    },
  };
}

function normalized(vector: number[] | Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(vector, (x) => x / norm);
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009): each list gives a section 1 / (k + rank). Ranks,
 * not scores, are fused, because keyword scores (BM25 with boosts) and cosines live on unrelated
 * scales that shift with every site and model; a section high in both lists wins, and one that only
 * the model found still enters. k = 60 is the paper's value.
 */
export const RRF_K = 60;

export function fuseRanks(keyword: string[], dense: string[]): Map<string, number> {
  const fused = new Map<string, number>();
  const add = (ids: string[]) =>
    ids.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  add(keyword);
  add(dense);
  return fused;
}
