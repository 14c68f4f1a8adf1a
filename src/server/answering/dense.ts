import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, embed, embedMany, RetryError, type EmbeddingModel } from 'ai';
import { createHash } from 'node:crypto';
import { searchedSite, type DocSection, type DocsSite } from '../site/docs.js';
import type { VectorStore } from '../stores/vectors.js';

export { createFileVectorStore, memoryVectorStore, type VectorStore } from '../stores/vectors.js';

/** How the reference server reaches the site owner's embedding model (`serve --embed-…`). */
export interface EmbedConfig {
  /** API root of an OpenAI-compatible `/v1/embeddings` server (`http://127.0.0.1:11434/v1` for Ollama). */
  baseUrl: string;
  /** Model name as the server knows it (`nomic-embed-text`, `text-embedding-3-small`). */
  model: string;
  /** Secret key; read only from DOCS_ASSISTANT_EMBED_API_KEY by the CLI, never shown anywhere. */
  apiKey?: string;
  /**
   * Texts per request while indexing (small: a CPU-bound local server must answer each within its
   * timeout). A batch that fails is tried again in halves, down to one text. @default 16
   */
  batchSize?: number;
  /** The fetch the provider uses (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
}

export const EMBED_API_KEY_VARIABLE = 'DOCS_ASSISTANT_EMBED_API_KEY';

/** "nomic-embed-text at http://…/v1": for logs, never with the key. */
export function describeEmbed(config: EmbedConfig): string {
  return `${config.model} at ${config.baseUrl}${config.apiKey ? ` (key from ${EMBED_API_KEY_VARIABLE})` : ''}`;
}

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

/**
 * Sections scored per question: enough that a section the keywords rank well but the model places
 * far still gets its (low) cosine rather than none.
 */
const DENSE_CANDIDATES = 200;
/**
 * A long section is embedded as passages of about this many characters, each with its place
 * (page › heading): small models read 256 tokens (about 1,000 characters of English) and cut the
 * rest, and one vector of a long reference section is the average of everything in it. A section
 * is as close to a question as its closest passage.
 */
const PASSAGE_CHARS = 1000;
/** A passage is cut at a line or sentence end when one falls past this share of PASSAGE_CHARS. */
const PASSAGE_MIN_SHARE = 0.5;
/** Passages embedded per section at most (a huge generated reference section is read this far). */
const MAX_PASSAGES = 16;
/** A long indexing logs its progress (and keeps the vectors it has) this often. */
const PROGRESS_EVERY_MS = 30_000;

/**
 * What the model reads of a section: where it sits (page › heading) and its text and code, as one
 * text, or as passages of about PASSAGE_CHARS for a long section, each with the place again.
 */
export function embeddingTextsOf(section: DocSection): string[] {
  const place = [section.pageTitle, section.parent, section.heading].filter(Boolean).join(' › ');
  const code = section.code.map((sample) => sample.value).join('\n');
  let body = `${section.text}\n${code}`;
  const passages: string[] = [];
  while (passages.length < MAX_PASSAGES) {
    if (body.length <= PASSAGE_CHARS * 1.2) {
      if (passages.length === 0 || body.trim()) passages.push(`${place}\n${body}`);
      break;
    }
    const window = body.slice(0, PASSAGE_CHARS);
    const floor = PASSAGE_CHARS * PASSAGE_MIN_SHARE;
    let cut = window.lastIndexOf('\n');
    if (cut < floor) cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? ')) + 1;
    if (cut < floor) cut = window.lastIndexOf(' ');
    if (cut < floor) cut = PASSAGE_CHARS;
    passages.push(`${place}\n${body.slice(0, cut).trim()}`);
    body = body.slice(cut).replace(/^\s+/, '');
  }
  return passages;
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
  const sections = searchedSite(site).pages.flatMap((page) => page.sections);
  // Every passage of every section, and the section each belongs to.
  const owners: number[] = [];
  const texts = sections.flatMap((section, i) =>
    embeddingTextsOf(section).map((text) => (owners.push(i), text)),
  );
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
    // One indexing of this model at a time over the store: the sites of this server, the workers
    // of `--workers`, the instances on one database. The next one finds what this one embedded.
    const token = await options.store.lock(config.model).catch((error: unknown) => {
      log(
        `[docs-assistant] could not wait for the other indexing of the vectors: ${String(error)}`,
      );
      return undefined;
    });
    try {
      await index();
    } finally {
      if (token !== undefined) await options.store.unlock(token).catch(() => {});
    }
  })();

  async function index() {
    const unique = [...new Set(hashes)];
    const kept = await options.store
      .load(config.model, unique)
      .catch(() => new Map<string, Float32Array>());
    const byHash = new Map<string, Float32Array>();
    for (const [hash, vector] of kept)
      if (vector.length > 0 && (dims === undefined || vector.length === dims)) {
        dims ??= vector.length;
        byHash.set(hash, vector);
      }
    // Sections of the same text share one vector: each text is sent once.
    const missing = unique.filter((hash) => !byHash.has(hash));
    const textOf = new Map(hashes.map((hash, i) => [hash, texts[i]!]));
    const fresh = new Map<string, Float32Array>();
    const keep = async () => {
      const found = new Map(fresh);
      fresh.clear();
      await options.store.save(config.model, found, unique).catch((error: unknown) => {
        log(`[docs-assistant] could not keep the section vectors: ${String(error)}`);
      });
    };
    const started = Date.now();
    let lastNews = started;
    /** Embeds `part`; a failed batch is tried again in halves (a slow server may time out on a big one). */
    const embedPart = async (part: string[]): Promise<void> => {
      try {
        const { embeddings } = await embedMany({
          model,
          values: part.map((hash) => textOf.get(hash)!),
          maxRetries: 1,
        });
        checkDims(embeddings);
        part.forEach((hash, n) => {
          const vector = normalized(embeddings[n]!);
          byHash.set(hash, vector);
          fresh.set(hash, vector);
        });
        embedded += part.length;
      } catch (error) {
        if (part.length === 1 || !helpedBySmallerBatches(error)) throw error;
        const half = Math.ceil(part.length / 2);
        await embedPart(part.slice(0, half));
        await embedPart(part.slice(half));
      }
    };
    const batch = config.batchSize ?? 16;
    try {
      for (let start = 0; start < missing.length; start += batch) {
        await embedPart(missing.slice(start, start + batch));
        // A long indexing says how far it is, and keeps what it has: a restart resumes there.
        if (Date.now() - lastNews >= PROGRESS_EVERY_MS) {
          lastNews = Date.now();
          const perSecond = embedded / ((lastNews - started) / 1000);
          log(
            `[docs-assistant] embedding sections with ${config.model}: ${embedded} of ${missing.length} passages (${perSecond.toFixed(1)} per second)`,
          );
          await keep();
        }
      }
    } catch (error) {
      fail(error);
    }
    hashes.forEach((hash, i) => (vectors[i] = byHash.get(hash)));
    await keep();
  }

  return {
    ready,
    get embedded() {
      return embedded;
    },
    async scores(question, signal) {
      await ready;
      if (dims === undefined) return undefined;
      let query: Float32Array;
      try {
        const { embedding } = await embed({
          model,
          value: question,
          maxRetries: 0,
          ...(signal ? { abortSignal: signal } : {}),
        });
        checkDims([embedding]);
        query = normalized(embedding);
      } catch (error) {
        if (!signal?.aborted) fail(error);
        return undefined;
      }
      if (failing) {
        failing = false;
        log(`[docs-assistant] embedding model ${describeEmbed(config)} answers again`);
      }
      // A section is as close as its closest passage.
      const best = new Map<number, number>();
      vectors.forEach((vector, p) => {
        if (!vector) return;
        let dot = 0;
        for (let d = 0; d < query.length; d++) dot += query[d]! * vector[d]!;
        const owner = owners[p]!;
        if (dot > (best.get(owner) ?? -Infinity)) best.set(owner, dot);
      });
      const found = [...best].map(([i, similarity]): [string, number] => [
        sections[i]!.id,
        similarity,
      ]);
      found.sort((a, b) => b[1] - a[1]);
      return new Map(found.slice(0, DENSE_CANDIDATES));
    },
  };
}

/**
 * Whether a failed batch may pass in halves: a server that timed out or broke under the load (5xx,
 * 408, 413). Not a refusal (bad key, unknown model), a server that is down, or vectors of the wrong
 * size: those fail the same way however small the batch, and questions wait on the indexing.
 */
function helpedBySmallerBatches(error: unknown): boolean {
  // Retried already: judged by the last attempt's error.
  if (RetryError.isInstance(error)) return helpedBySmallerBatches(error.lastError);
  const status = APICallError.isInstance(error) ? error.statusCode : undefined;
  if (status !== undefined) return status >= 500 || status === 408 || status === 413;
  const cause = error instanceof Error ? error.cause : undefined;
  return /time(d)? ?out/i.test(`${String(error)} ${String(cause)}`);
}

function normalized(vector: number[] | Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(vector, (x) => x / norm);
}

/**
 * The model's cosine as a share of closeness: nothing at DENSE_FLOOR (all-MiniLM-L6-v2 places
 * unrelated texts of one site around there) and full at DENSE_FULL.
 */
export const DENSE_FLOOR = 0.2;
export const DENSE_FULL = 0.8;
/** The model's part of a fused score; the keywords' is the rest. */
export const DENSE_WEIGHT = 0.5;

/**
 * Keyword and model scores fused on a fixed scale: the keyword score relative to the best one, the
 * cosine between DENSE_FLOOR and DENSE_FULL, weighed together. Scores, not ranks (reciprocal rank
 * fusion): ranks erase how far apart two hits are, so under RRF the best two sections were always
 * close and nearly every answer was unsure; on these scales a section far ahead in both lists
 * stays far ahead, and one only the model found still enters.
 */
export function fuseScores(keyword: Map<string, number>, dense: DenseScores): Map<string, number> {
  let top = 0;
  for (const score of keyword.values()) top = Math.max(top, score);
  const fused = new Map<string, number>();
  for (const id of new Set([...keyword.keys(), ...dense.keys()])) {
    const words = top ? (keyword.get(id) ?? 0) / top : 0;
    const similarity = dense.get(id) ?? DENSE_FLOOR;
    const meaning = Math.min(
      1,
      Math.max(0, (similarity - DENSE_FLOOR) / (DENSE_FULL - DENSE_FLOOR)),
    );
    fused.set(id, (1 - DENSE_WEIGHT) * words + DENSE_WEIGHT * meaning);
  }
  return fused;
}
