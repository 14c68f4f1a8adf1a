// `node bench/run.mjs embed -- --embed-base-url URL --embed-model NAME [--docs DIR]`: what the
// owner's embedding model costs (docs/embeddings.md). Prints the vectors per second while indexing
// a docs folder (every section sent, nothing reused), and the milliseconds a question's search takes
// with and without the model (the model's query embedding is the added part). A benchmark: it
// prints figures, it asserts nothing. scripts/embed-server.sh serves all-MiniLM-L6-v2 locally.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadDocsSite } from '../src/server/site/docs.js';
import { createRetriever } from '../src/server/answering/retrieval.js';
import {
  createDenseRetrieval,
  describeEmbed,
  EMBED_API_KEY_VARIABLE,
  memoryVectorStore,
} from '../src/server/answering/dense.js';

const QUESTIONS = [
  'The chat button never shows up on my website',
  'How do I keep my admin key out of the browser?',
  'Can the assistant answer in French?',
  'What happens when too many people ask at once?',
  'How do I install the widget with npm?',
];

export async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [],
    options: {
      'embed-base-url': { type: 'string', default: 'http://127.0.0.1:8089/v1' },
      'embed-model': { type: 'string', default: 'all-MiniLM-L6-v2' },
      docs: { type: 'string', default: join(import.meta.dirname, '../test/fixtures/sample-docs') },
    },
  });
  const key = process.env[EMBED_API_KEY_VARIABLE];
  const config = {
    baseUrl: values['embed-base-url'],
    model: values['embed-model'],
    ...(key ? { apiKey: key } : {}),
  };
  const site = await loadDocsSite(values.docs);
  const retriever = createRetriever(site);
  console.log(`model: ${describeEmbed(config)}; docs: ${values.docs}`);
  const started = performance.now();
  const dense = createDenseRetrieval(site, config, { store: memoryVectorStore() });
  await dense.ready;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `indexing: ${site.pages.reduce((n, page) => n + page.sections.length, 0)} sections, ${dense.embedded} passages in ${seconds.toFixed(1)} s = ${(dense.embedded / seconds).toFixed(1)} vectors/s`,
  );
  let keywordMs = 0;
  let denseMs = 0;
  for (const question of QUESTIONS) {
    let t = performance.now();
    const keywords = retriever.search(question, { limit: 5 });
    keywordMs += performance.now() - t;
    t = performance.now();
    const scores = await dense.scores(question);
    const fused = retriever.search(question, { limit: 5, ...(scores ? { dense: scores } : {}) });
    denseMs += performance.now() - t;
    console.log(`  ${question}`);
    console.log(`    keywords: ${keywords.hits.map((h) => h.section.id).join(', ')}`);
    console.log(`    fused:    ${fused.hits.map((h) => h.section.id).join(', ')}`);
  }
  const n = QUESTIONS.length;
  console.log(
    `per question: keywords ${(keywordMs / n).toFixed(1)} ms, with the model ${(denseMs / n).toFixed(1)} ms (added ${((denseMs - keywordMs) / n).toFixed(1)} ms)`,
  );
}
