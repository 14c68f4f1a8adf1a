import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/server/app.js';
import { loadDocsSite } from '../src/server/docs.js';
import { listen } from '../src/server/serve.js';

const PAGES = 1000;
const KEYS = { assistant: 'svc_dsc_bench', admin: 'svc_bench_admin' };
const TOPICS = ['install', 'configure', 'theme', 'deploy', 'export', 'authenticate', 'search', 'stream', 'cache', 'migrate'];

/** A generated docs site: 1,000 pages in 10 folders, each with sections, lists and code. */
async function generateSite(dir: string): Promise<void> {
  for (let i = 0; i < PAGES; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const folder = join(dir, `${topic}s`);
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, `page-${i}.md`),
      `---\ntitle: How to ${topic} part ${i}\n---\n\n# How to ${topic} part ${i}\n\nThis page explains how to ${topic} the widget in scenario ${i}. ` +
        `It covers the options, the defaults and the pitfalls readers meet most often.\n\n## Options for ${topic} ${i}\n\n` +
        `- \`${topic}Mode\` chooses the strategy for case ${i}.\n- \`${topic}Timeout\` bounds how long it may take.\n\n` +
        '```ts\n' + `configure({ ${topic}Mode: 'fast', id: ${i} });\n` + '```\n\n' +
        `## Troubleshooting ${topic} ${i}\n\nIf ${topic} fails with error E${i}, check the key and retry. See [the overview](/${topic}s/page-${(i + 10) % PAGES}).\n`,
    );
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type FromServer = { type: 'ready'; url: string; loadMs: number } | { type: 'exported'; status: string; pageCount: number; ms: number; peakRssMiB: number };

/** The server side runs in its own process, so the load generator does not share its thread. */
async function serverRole(): Promise<void> {
  const send = (message: FromServer) => process.send!(message);
  const loadStart = performance.now();
  const docs = await loadDocsSite(process.env.DA_BENCH_DOCS!);
  const loadMs = performance.now() - loadStart;
  const app = createApp({
    orgs: [{ id: 'bench', plan: 'enterprise', keys: [KEYS.assistant, KEYS.admin] }],
    sites: [{ domain: 'bench', org: 'bench', docs }],
    dataDir: process.env.DA_BENCH_DATA!,
    limits: { orgPerHour: 1e9, ipPerDay: 1e9 },
  });
  const server = await listen(app, { port: 0, host: '127.0.0.1' });
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'export') return;
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const start = performance.now();
    const admin = { Authorization: `Bearer ${KEYS.admin}` };
    const started = await app.request('http://bench/v1/static-export/jobs', { method: 'POST', headers: { ...admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ domain: 'bench' }) });
    const { jobId } = (await started.json()) as { jobId: string };
    await app.exports.idle();
    const ms = performance.now() - start;
    clearInterval(sampler);
    const job = (await (await app.request(`http://bench/v1/static-export/jobs/${jobId}`, { headers: admin })).json()) as { status: string; pageCount: number };
    send({ type: 'exported', status: job.status, pageCount: job.pageCount, ms, peakRssMiB: (peak - rssBefore) / 2 ** 20 });
    await server.close();
    process.exit(0);
  });
  send({ type: 'ready', url: server.url, loadMs });
}

if (process.env.DA_BENCH_ROLE === 'server') void serverRole();

export async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'da-bench-server-'));
  const docsDir = join(root, 'docs');
  await generateSite(docsDir);
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, DA_BENCH_ROLE: 'server', DA_BENCH_DOCS: docsDir, DA_BENCH_DATA: join(root, 'data') } });
  const next = <T extends FromServer['type']>(type: T) =>
    new Promise<Extract<FromServer, { type: T }>>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
      const onMessage = (message: FromServer) => {
        if (message.type === type) {
          child.off('message', onMessage);
          resolve(message as Extract<FromServer, { type: T }>);
        }
      };
      child.on('message', onMessage);
    });
  const { url, loadMs } = await next('ready');
  const server = { url };
  console.log(`\nReference server over a ${PAGES}-page generated site (its own process; load and index: ${loadMs.toFixed(0)} ms)\n`);
  console.log(`${'clients'.padStart(8)}${'answers/s'.padStart(11)}${'TTFB p50'.padStart(11)}${'TTFB p99'.padStart(11)}${'total p50'.padStart(11)}${'total p99'.padStart(11)}`);
  try {
    for (const clients of [1, 10, 50]) {
      const perClient = clients === 1 ? 200 : clients === 10 ? 40 : 12;
      const ttfb: number[] = [];
      const total: number[] = [];
      const start = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async (_, c) => {
          for (let i = 0; i < perClient; i++) {
            const question = `How do I ${TOPICS[(c + i) % TOPICS.length]} in case ${(c * 31 + i * 7) % PAGES}?`;
            const t0 = performance.now();
            const response = await fetch(`${server.url}/discovery/v1/assistant/bench/message`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${KEYS.assistant}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ fp: 'anonymous', messages: [{ id: `m${c}-${i}`, role: 'user', content: question, parts: [{ type: 'text', text: question }] }] }),
            });
            const reader = response.body!.getReader();
            await reader.read();
            ttfb.push(performance.now() - t0);
            while (!(await reader.read()).done);
            total.push(performance.now() - t0);
            if (response.status !== 200) throw new Error(`status ${response.status}`);
          }
        }),
      );
      const elapsed = (performance.now() - start) / 1000;
      ttfb.sort((a, b) => a - b);
      total.sort((a, b) => a - b);
      const ms = (n: number) => `${n.toFixed(1)} ms`;
      console.log(`${String(clients).padStart(8)}${(ttfb.length / elapsed).toFixed(0).padStart(11)}${ms(percentile(ttfb, 50)).padStart(11)}${ms(percentile(ttfb, 99)).padStart(11)}${ms(percentile(total, 50)).padStart(11)}${ms(percentile(total, 99)).padStart(11)}`);
    }
    child.send({ type: 'export' });
    const exported = await next('exported');
    console.log(`\nStatic export of ${exported.pageCount} pages: ${exported.status} in ${(exported.ms / 1000).toFixed(2)} s = ${(exported.pageCount / (exported.ms / 1000)).toFixed(0)} pages/s; peak RSS +${exported.peakRssMiB.toFixed(0)} MiB`);
    console.log('(targets: TTFB p99 ≤ 100 ms at 50 concurrent clients; export ≥ 100 pages/s)');
  } finally {
    child.kill();
    await rm(root, { recursive: true, force: true });
  }
}
