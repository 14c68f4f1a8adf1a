import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createApp } from '../src/server/http/app.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { listen } from '../src/server/http/serve.js';
import { bundleCli } from '../test/helpers/build.js';

export const PAGES = 1000;
export const KEYS = { assistant: 'svc_dsc_bench', admin: 'svc_bench_admin' };
export const TOPICS = [
  'install',
  'configure',
  'theme',
  'deploy',
  'export',
  'authenticate',
  'search',
  'stream',
  'cache',
  'migrate',
];

/** A generated docs site: 1,000 pages in 10 folders, each with sections, lists and code. */
export async function generateSite(dir: string): Promise<void> {
  for (let i = 0; i < PAGES; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const folder = join(dir, `${topic}s`);
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, `page-${i}.md`),
      `---\ntitle: How to ${topic} part ${i}\n---\n\n# How to ${topic} part ${i}\n\nThis page explains how to ${topic} the widget in scenario ${i}. ` +
        `It covers the options, the defaults and the pitfalls readers meet most often.\n\n## Options for ${topic} ${i}\n\n` +
        `- \`${topic}Mode\` chooses the strategy for case ${i}.\n- \`${topic}Timeout\` bounds how long it may take.\n\n` +
        '```ts\n' +
        `configure({ ${topic}Mode: 'fast', id: ${i} });\n` +
        '```\n\n' +
        `## Troubleshooting ${topic} ${i}\n\nIf ${topic} fails with error E${i}, check the key and retry. See [the overview](/${topic}s/page-${(i + 10) % PAGES}).\n`,
    );
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type FromServer =
  | { type: 'ready'; url: string; loadMs: number }
  | { type: 'exported'; status: string; pageCount: number; ms: number; peakRssMiB: number };

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
    const started = await app.request('http://bench/v1/static-export/jobs', {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'bench' }),
    });
    const { jobId } = (await started.json()) as { jobId: string };
    await app.exports.idle();
    const ms = performance.now() - start;
    clearInterval(sampler);
    const job = (await (
      await app.request(`http://bench/v1/static-export/jobs/${jobId}`, { headers: admin })
    ).json()) as { status: string; pageCount: number };
    send({
      type: 'exported',
      status: job.status,
      pageCount: job.pageCount,
      ms,
      peakRssMiB: (peak - rssBefore) / 2 ** 20,
    });
    await server.close();
    process.exit(0);
  });
  send({ type: 'ready', url: server.url, loadMs });
}

if (process.env.DA_BENCH_ROLE === 'server') void serverRole();

const ROOT = resolve(import.meta.dirname, '..');

/** CPU seconds (user + system) used so far by a process and its children (Linux /proc). */
export function cpuSeconds(pid: number): number {
  const ticks = (id: string) => {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return { ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) };
    } catch {
      return undefined;
    }
  };
  let total = ticks(String(pid))?.cpu ?? 0;
  for (const id of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const info = ticks(id);
    if (info?.ppid === pid) total += info.cpu;
  }
  return total / 100; // USER_HZ
}

export interface Served {
  url: string;
  pid: number;
  child: ChildProcess;
}

/**
 * BENCH_PROFILE=1: every server process (primary and workers) writes a CPU profile on exit and
 * prints its event-loop delay every 2 s, to find where the TTFB tail comes from.
 */
export async function profileOptions(): Promise<
  { env: Record<string, string>; execArgv: string[]; dir: string } | undefined
> {
  if (!process.env.BENCH_PROFILE) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'da-bench-prof-'));
  const monitor = join(dir, 'event-loop.mjs');
  await writeFile(
    monitor,
    `import { monitorEventLoopDelay } from 'node:perf_hooks';
const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
const ms = (ns) => (ns / 1e6).toFixed(1);
setInterval(() => {
  if (h.count) process.stderr.write(\`[event loop \${process.pid}] delay p50 \${ms(h.percentile(50))} p99 \${ms(h.percentile(99))} max \${ms(h.max)} ms\\n\`);
  h.reset();
}, 2000).unref();
`,
  );
  return {
    dir,
    // Node refuses --cpu-prof in NODE_OPTIONS; cluster workers inherit the primary's execArgv.
    execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    env: { NODE_OPTIONS: `--import=${pathToFileURL(monitor).href}` },
  };
}

/** The functions with the most self time across the profiles in `dir` (every server process). */
export function printProfiles(dir: string) {
  const self = new Map<string, number>();
  let total = 0;
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
      nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
      samples: number[];
      timeDeltas: number[];
    };
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, i) => {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      if (functionName === '(idle)') return;
      const key = `${functionName || '(anonymous)'} ${url
        .replace(/^.*node_modules\//, '')
        .split('/')
        .slice(-2)
        .join('/')}:${lineNumber + 1}`;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      self.set(key, (self.get(key) ?? 0) + ms);
      total += ms;
    });
  }
  console.log(`  busy ${total.toFixed(0)} ms across the server processes; most self time:`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(
      `  ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`,
    );
}

/**
 * `docs-assistant serve` as a real process; resolves once it listens. `site` serves `docsDir` as
 * built HTML (`--site`); `data` is its data folder (a new temporary one when absent).
 */
export async function startCli(
  cli: string,
  docsDir: string,
  workers: number,
  profile?: { env: Record<string, string>; execArgv: string[] },
  options: { site?: boolean; data?: string } = {},
): Promise<Served> {
  const data = options.data ?? (await mkdtemp(join(tmpdir(), 'da-bench-data-')));
  const child = spawn(
    process.execPath,
    [
      ...(profile?.execArgv ?? []),
      cli,
      'serve',
      options.site ? '--site' : '--docs',
      docsDir,
      '--domain',
      'bench',
      '--port',
      '0',
      '--data',
      data,
      '--workers',
      String(workers),
      // The bench asks thousands of questions from one IP; the default limits would answer 429.
      '--rate-limit-org',
      '1000000000',
      '--rate-limit-ip',
      '1000000000',
    ],
    {
      env: {
        ...process.env,
        ...profile?.env,
        DOCS_ASSISTANT_SERVER_KEYS: `${KEYS.assistant},${KEYS.admin}`,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /running at (http:\/\/[^/\s]+)\//.exec(out);
      if (match) done(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
  });
  return { url, pid: child.pid!, child };
}

/**
 * One question through the real assistant route; resolves to when it was sent, its time to first
 * byte and its time to the answer's end (ms).
 */
export async function ask(
  url: string,
  question: string,
  id: string,
): Promise<{ start: number; ttfb: number; total: number }> {
  const t0 = performance.now();
  const response = await fetch(`${url}/discovery/v1/assistant/bench/message`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEYS.assistant}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      fp: 'anonymous',
      messages: [
        { id, role: 'user', content: question, parts: [{ type: 'text', text: question }] },
      ],
    }),
  });
  if (response.status !== 200)
    throw new Error(`status ${response.status} for "${question}": ${await response.text()}`);
  const reader = response.body!.getReader();
  await reader.read();
  const ttfb = performance.now() - t0;
  while (!(await reader.read()).done);
  return { start: t0, ttfb, total: performance.now() - t0 };
}

let asked = 0;
/** One of the generated site's questions; resolves to its time to first byte and total time (ms). */
function askOnce(url: string): Promise<{ start: number; ttfb: number }> {
  const i = asked++;
  return ask(url, `How do I ${TOPICS[i % TOPICS.length]} in case ${(i * 7) % PAGES}?`, `m${i}`);
}

/** Closed loop: `clients` each ask, wait for the whole answer, ask again. */
async function closedLoop(url: string, clients: number, perClient: number) {
  const ttfb: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < perClient; i++) ttfb.push((await askOnce(url)).ttfb);
    }),
  );
  return {
    perSecond: ttfb.length / ((performance.now() - start) / 1000),
    ttfb: ttfb.sort((a, b) => a - b),
  };
}

/** Open loop: questions arrive at `rate` per second (Poisson arrivals) whatever the server's pace, for `seconds`. */
async function openLoop(url: string, rate: number, seconds: number) {
  const ttfb: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let next = start;
  while (next - start < seconds * 1000) {
    next += (-Math.log(1 - Math.random()) / rate) * 1000;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // Measured from the planned arrival, so a late client (a busy load generator) counts as waiting.
    const planned = next;
    pending.push(
      askOnce(url).then(
        ({ start: sent, ttfb: first }) => void ttfb.push(first + Math.max(0, sent - planned)),
      ),
    );
  }
  await Promise.all(pending);
  return ttfb.sort((a, b) => a - b);
}

export async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'da-bench-server-'));
  const docsDir = join(root, 'docs');
  await generateSite(docsDir);
  const cli = await bundleCli(ROOT, 'docs-assistant-bench');
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    `\nReference server per core (docs-assistant serve --workers N over a ${PAGES}-page generated site; the load generator shares the machine)\n`,
  );
  console.log(
    `${'workers'.padStart(8)}${'answers/s'.padStart(11)}${'server CPU s'.padStart(14)}${'answers/CPU-s'.padStart(15)}${'open loop at'.padStart(14)}${'TTFB p50'.padStart(11)}${'TTFB p99'.padStart(11)}${'50 clients p50/p99 (queueing)'.padStart(32)}`,
  );
  try {
    for (const workers of (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number)) {
      const profile = await profileOptions();
      const served = await startCli(cli, docsDir, workers, profile);
      try {
        await closedLoop(served.url, 4, 25); // warm-up: JIT, caches
        const cpuBefore = cpuSeconds(served.pid);
        const capacity = await closedLoop(served.url, 8, 100);
        const cpu = cpuSeconds(served.pid) - cpuBefore;
        const rate = Math.max(1, Math.round(0.8 * capacity.perSecond));
        const open = await openLoop(served.url, rate, 8);
        const queue = await closedLoop(served.url, 50, 12);
        console.log(
          `${String(workers).padStart(8)}${capacity.perSecond.toFixed(0).padStart(11)}${cpu.toFixed(2).padStart(14)}${(800 / cpu).toFixed(0).padStart(15)}${`${rate}/s`.padStart(14)}${ms(percentile(open, 50)).padStart(11)}${ms(percentile(open, 99)).padStart(11)}${`${ms(percentile(queue.ttfb, 50))} / ${ms(percentile(queue.ttfb, 99))}`.padStart(32)}`,
        );
      } finally {
        served.child.kill('SIGTERM');
        await new Promise((done) => served.child.once('exit', done));
        if (profile) {
          printProfiles(profile.dir);
          await rm(profile.dir, { recursive: true, force: true });
        }
      }
    }
    console.log(
      '(answers/s: 8 clients in a closed loop, 800 answers; answers/CPU-s: those answers per CPU second of all server processes, i.e. per core;',
    );
    console.log(
      ' open loop: Poisson arrivals at 80% of that capacity for 8 s, TTFB from each planned arrival, target p99 ≤ 100 ms;',
    );
    console.log(
      ' 50 clients: each waits for its answer before asking again, so the figure is mostly time spent queueing)',
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  await exportBench();
}

/** The static export's speed, in its own server process as before. */
async function exportBench(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'da-bench-server-'));
  const docsDir = join(root, 'docs');
  await generateSite(docsDir);
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: {
      ...process.env,
      DA_BENCH_ROLE: 'server',
      DA_BENCH_DOCS: docsDir,
      DA_BENCH_DATA: join(root, 'data'),
    },
  });
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
  const { loadMs } = await next('ready');
  try {
    child.send({ type: 'export' });
    const exported = await next('exported');
    console.log(
      `\nStatic export of ${exported.pageCount} pages (load and index ${loadMs.toFixed(0)} ms once): ${exported.status} in ${(exported.ms / 1000).toFixed(2)} s = ${(exported.pageCount / (exported.ms / 1000)).toFixed(0)} pages/s; peak RSS +${exported.peakRssMiB.toFixed(0)} MiB`,
    );
    console.log('(target: export ≥ 100 pages/s)');
  } finally {
    child.kill();
    await rm(root, { recursive: true, force: true });
  }
}
