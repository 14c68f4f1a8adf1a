import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer } from '../test/helpers/llm-server.js';
import { postgresBinDir, startPostgres } from '../test/helpers/postgres.js';
import { createApp } from '../src/server/http/app.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { listen } from '../src/server/http/serve.js';
import { postgresStores } from '../src/server/stores/postgres.js';
import { generateSite, KEYS, PAGES, percentile, TOPICS } from './server.js';

/** The model's reply: a few parts, as a model streams them. */
const REPLY = [
  'Install it with npm [1]',
  ' and add the component to your layout',
  '; the script tag works without a build step [2].',
];

type Point = 'arrival' | 'model_call' | 'model_first_part' | 'first_byte' | 'client_first_byte';

/**
 * One store setup: `runs` questions one after another (so every trace point belongs to the one
 * question in flight), each answered by the local OpenAI-compatible test model through the real
 * AI SDK provider, timed at the points `AppOptions.trace` marks plus the request's arrival and the
 * client's first byte.
 */
async function measure(
  label: string,
  options: {
    docsDir: string;
    dataDir: string;
    stores?: ReturnType<typeof postgresStores>;
    /** The model's time to its first part: the test model answers at once, a real one does not. */
    modelDelayMs: number;
  },
  runs: number,
) {
  const model = await startLlmServer();
  const docs = await loadDocsSite(options.docsDir);
  let marks: Partial<Record<Point, number>> = {};
  const app = createApp({
    orgs: [{ id: 'bench', plan: 'enterprise', keys: [KEYS.assistant, KEYS.admin] }],
    sites: [{ domain: 'bench', org: 'bench', docs }],
    dataDir: options.dataDir,
    limits: { orgPerHour: 1e9, ipPerDay: 1e9 },
    llm: {
      baseUrl: model.baseUrl,
      model: 'bench-model',
      apiKey: 'bench',
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        await new Promise((resolve) => setTimeout(resolve, options.modelDelayMs));
        return response;
      },
    },
    ...(options.stores ? { stores: options.stores } : {}),
    trace: (point) => (marks[point] ??= performance.now()),
  });
  await app.ready;
  const server = await listen(
    {
      fetch: (request, ...rest) => {
        marks.arrival = performance.now();
        return app.fetch(request, ...rest);
      },
    },
    { port: 0, host: '127.0.0.1' },
  );
  const spans = {
    'request → model call': [] as number[],
    'model call → its first part (test model)': [] as number[],
    "model's first part → our first byte written": [] as number[],
    "model's first part → client's first byte": [] as number[],
    'request → model call → … → client first byte (total)': [] as number[],
  };
  try {
    for (let i = 0; i < runs + 20; i++) {
      model.script({ text: REPLY });
      marks = {};
      const question = `How do I ${TOPICS[i % TOPICS.length]} in case ${(i * 7) % PAGES}?`;
      const response = await fetch(`${server.url}/discovery/v1/assistant/bench/message`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEYS.assistant}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          fp: 'anonymous',
          messages: [
            {
              id: `m${i}`,
              role: 'user',
              content: question,
              parts: [{ type: 'text', text: question }],
            },
          ],
        }),
      });
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      const reader = response.body!.getReader();
      await reader.read();
      marks.client_first_byte = performance.now();
      while (!(await reader.read()).done);
      const at = marks as Record<Point, number>;
      if (i < 20) continue; // warm-up: JIT, connection pools, caches
      spans['request → model call'].push(at.model_call - at.arrival);
      spans['model call → its first part (test model)'].push(at.model_first_part - at.model_call);
      spans["model's first part → our first byte written"].push(
        at.first_byte - at.model_first_part,
      );
      spans["model's first part → client's first byte"].push(
        at.client_first_byte - at.model_first_part,
      );
      spans['request → model call → … → client first byte (total)'].push(
        at.client_first_byte - at.arrival,
      );
    }
  } finally {
    await server.close();
    await app.close();
    await model.close();
  }
  console.log(
    `\n${label}, model's first part after ${options.modelDelayMs} ms: ${runs} questions one at a time`,
  );
  for (const [name, values] of Object.entries(spans)) {
    values.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(56)} p50 ${percentile(values, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(values, 99).toFixed(2).padStart(7)} ms`,
    );
  }
}

/**
 * `node bench/run.mjs model`: the time we add on top of a model's own latency, with the thread
 * store on files and on PostgreSQL (when Debian's server binaries are installed). Environment:
 * BENCH_RUNS (default 200). The test model answers at once and then after 250 ms, as a real model
 * would: a write that runs alongside the model call is hidden only behind the latter.
 */
export async function main(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 200);
  const root = await mkdtemp(join(tmpdir(), 'da-bench-model-'));
  const docsDir = join(root, 'docs');
  await generateSite(docsDir);
  console.log(
    `\nOur overhead around a model call (${PAGES}-page generated site, a local OpenAI-compatible test model, the real @ai-sdk/openai-compatible provider)`,
  );
  const delays = [0, 250];
  try {
    for (const modelDelayMs of delays)
      await measure(
        'Thread store: files',
        { docsDir, dataDir: join(root, `data-files-${modelDelayMs}`), modelDelayMs },
        runs,
      );
    if (!postgresBinDir()) {
      console.log('\nPostgreSQL: not measured (no server binaries under /usr/lib/postgresql)');
      return;
    }
    const postgres = await startPostgres();
    try {
      for (const modelDelayMs of delays) {
        const stores = postgresStores(await postgres.createDatabase(`bench_model_${modelDelayMs}`));
        try {
          await measure(
            'Thread store: PostgreSQL (same machine, fsync off)',
            { docsDir, dataDir: join(root, `data-pg-${modelDelayMs}`), stores, modelDelayMs },
            runs,
          );
        } finally {
          await stores.close();
        }
      }
    } finally {
      await postgres.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  console.log(
    "\n(request: when the HTTP request reached the app; first part: the provider's first stream part; first byte written: the response body starts)",
  );
}
