// The reference server at scale: a generated docs site of N pages (bench/_scale-site.ts) and the
// largest real docs set fetched here, each served by `docs-assistant serve` as a real process.
// Per site: index time, peak memory, size on disk, warm start, answer latency with one worker, and
// how each grows with N. Prints figures; never asserts a time.
//
//   npm run bench:scale                          1,000 pages, one run
//   npm run bench:scale -- --full                1k, 5k and 20k pages and the real set, 3 runs each
//   npm run bench:scale -- --pages 5000 --runs 3 --site --real --questions 200 --skip-warm
//   npm run bench:scale -- --pages 0 --real    the real set alone
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRetriever } from '../src/server/answering/retrieval.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { loadHtmlSite } from '../src/server/site/html.js';
import { bundleCli } from '../test/helpers/build.js';
import { generateScaleSite } from './_scale-site.js';
import {
  ask,
  cpuSeconds,
  percentile,
  printProfiles,
  profileOptions,
  startCli,
  type Served,
} from './server.js';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'docs-assistant-bench', 'scale');
/** The largest real docs set found on npm for this: Mastra's docs, shipped for its MCP server. */
const REAL = { spec: '@mastra/mcp-docs-server@1.2.27', folder: '.docs' };

interface Target {
  label: string;
  pages: number;
  /** Markdown folder, or built HTML folder when `site`. */
  dir: string;
  site: boolean;
  questions: string[];
  megabytes: number;
}

/** Stage timings measured inside one process (a forked copy of this module). */
interface Stages {
  /** CPU time (user + system, this process's threads) of each stage. */
  loadMs: number;
  indexMs: number;
  heapMiB: number;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function stagesRole(): Promise<void> {
  const dir = process.env.DA_SCALE_DIR!;
  const start = cpuMs();
  const docs =
    process.env.DA_SCALE_SITE === '1' ? (await loadHtmlSite(dir)).site : await loadDocsSite(dir);
  const loaded = cpuMs();
  const retriever = createRetriever(docs);
  const indexed = cpuMs();
  globalThis.gc?.();
  const stages: Stages = {
    loadMs: loaded - start,
    indexMs: indexed - loaded,
    heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
  };
  process.send!(stages, () => process.exit(retriever ? 0 : 1));
}
if (process.env.DA_SCALE_ROLE === 'stages') void stagesRole();

function measureStages(target: Target): Promise<Stages> {
  return new Promise((done, fail) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--expose-gc'],
      env: {
        ...process.env,
        DA_SCALE_ROLE: 'stages',
        DA_SCALE_DIR: target.dir,
        DA_SCALE_SITE: target.site ? '1' : '0',
      },
    });
    child.once('message', (stages: Stages) => done(stages));
    child.once('exit', (code) => code && fail(new Error(`stages exited with ${code}`)));
  });
}

/** A generated site, kept between runs under node_modules/.cache (the same seed writes the same bytes). */
async function generated(pages: number, site: boolean, seed: number): Promise<Target> {
  const dir = join(CACHE, `generated-${pages}-seed${seed}`);
  const meta = join(dir, 'questions.json');
  if (!existsSync(meta) || (site && !existsSync(join(dir, 'site')))) {
    await rm(dir, { recursive: true, force: true });
    const made = await generateScaleSite(pages, join(dir, 'docs'), {
      seed,
      ...(site ? { siteDir: join(dir, 'site') } : {}),
    });
    await writeFile(
      meta,
      JSON.stringify({ bytes: made.bytes, pages: made.pages.map((page) => page.questions) }),
    );
  }
  const { bytes, pages: asked } = JSON.parse(await readFile(meta, 'utf8')) as {
    bytes: number;
    pages: string[][];
  };
  return {
    label: `${pages.toLocaleString('en')} generated${site ? ' (--site)' : ''}`,
    pages,
    dir: join(dir, site ? 'site' : 'docs'),
    site,
    questions: drawn(asked, seed),
    megabytes: bytes / 2 ** 20,
  };
}

/** Questions from random pages (one each, seeded), so every part of the site is asked about. */
function drawn(questions: string[][], seed: number, count = QUESTIONS): string[] {
  // A page with no sections (only front matter, or only an import) has nothing to ask about.
  const byPage = questions.filter((page) => page.length > 0);
  let state = seed * 2654435761;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => {
    const page = byPage[Math.floor(next() * byPage.length)]!;
    return page[Math.floor(next() * page.length)]!;
  });
}

/** Mastra's docs from npm, with questions from their own headings ("How do I <heading>?"). */
async function real(seed: number): Promise<Target> {
  // @ts-expect-error -- a plain ES module script, no types
  const { fetchSet } = (await import('./eval/fetch.mjs')) as {
    fetchSet: (cacheDir: string, name: string, set: typeof REAL) => string;
  };
  const dir = fetchSet(CACHE, 'mastra', REAL);
  const docs = await loadDocsSite(dir);
  const byPage = docs.pages.map((page) =>
    page.sections.map((section) =>
      section.anchor
        ? `How do I use ${section.heading} in ${page.title}?`
        : `What is ${page.title}?`,
    ),
  );
  const bytes = docs.pages.reduce((sum, page) => sum + page.markdown.length, 0);
  return {
    label: `${docs.pages.length.toLocaleString('en')} real (Mastra)`,
    pages: docs.pages.length,
    dir,
    site: false,
    questions: drawn(byPage, seed),
    megabytes: bytes / 2 ** 20,
  };
}

/**
 * A process's CPU time and its child processes', ms, summed over their threads' scheduler
 * statistics (nanoseconds; /proc's tick counts are 10 ms apart, too coarse for one answer).
 */
function threadCpuMs(pid: number): number {
  const pids = [pid];
  for (const id of readdirSync('/proc').filter((name) => /^\d+$/.test(name)))
    try {
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === pid) pids.push(Number(id));
    } catch {
      // Gone since listed.
    }
  let ns = 0;
  for (const owner of pids)
    for (const task of readdirSync(`/proc/${owner}/task`, { withFileTypes: false }))
      try {
        ns += Number(readFileSync(`/proc/${owner}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // A thread that ended.
      }
  return ns / 1e6;
}

/** Peak and current resident memory of a process (Linux /proc), MiB. */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peak: kib('VmHWM') / 1024, now: kib('VmRSS') / 1024 };
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

async function stop(served: Served): Promise<void> {
  const exited = new Promise((done) => served.child.once('exit', done));
  served.child.kill('SIGTERM');
  await exited;
}

interface Run {
  load: number;
  readyMs: number;
  /** CPU seconds the server process had used when it listened. */
  readyCpu: number;
  /** Peak resident memory when it listened, before any question (MiB). */
  readyPeakMiB: number;
  warmMs: number;
  warmCpu: number;
  /** Peak resident memory of the warm start when it listened (MiB). */
  warmPeakMiB: number;
  /** The server's CPU time per answer, ms. */
  answerCpuMs: number;
  /** Percentiles of one answer's CPU time, ms. */
  answerCpu50: number;
  answerCpu99: number;
  peakMiB: number;
  dataMiB: number;
  p50: number;
  p99: number;
  ttfb50: number;
  stages?: Stages;
}

let QUESTIONS = 200;
const WARM_UP = 20;
const STAGES_UP_TO = 5000;

/** One run: a start on an empty data folder, the questions, then a second start on that folder. */
async function measure(
  cli: string,
  target: Target,
  withStages: boolean,
  warm: boolean,
): Promise<Run> {
  const load = loadavg()[0]!;
  const data = await mkdtemp(join(tmpdir(), 'da-bench-scale-'));
  const profile = await profileOptions();
  try {
    let start = performance.now();
    let served = await startCli(cli, target.dir, 1, profile, { site: target.site, data });
    const readyMs = performance.now() - start;
    const readyCpu = cpuSeconds(served.pid);
    const readyPeakMiB = memoryOf(served.pid).peak;
    const totals: number[] = [];
    const ttfbs: number[] = [];
    const answerCpus: number[] = [];
    let peak = 0;
    let answersCpu = 0;
    try {
      for (let i = 0; i < WARM_UP + target.questions.length; i++) {
        if (i === WARM_UP) answersCpu = -cpuSeconds(served.pid);
        const question = target.questions[i % target.questions.length]!;
        const cpuBefore = threadCpuMs(served.pid);
        const { ttfb, total } = await ask(served.url, question, `q${i}`);
        const cpu = threadCpuMs(served.pid) - cpuBefore;
        if (i < WARM_UP) continue;
        answerCpus.push(cpu);
        totals.push(total);
        ttfbs.push(ttfb);
      }
      answersCpu += cpuSeconds(served.pid);
    } finally {
      peak = memoryOf(served.pid).peak;
      await stop(served);
    }
    if (profile) printProfiles(profile.dir);
    const dataMiB = sizeOf(data) / 2 ** 20;
    let [warmMs, warmCpu, warmPeakMiB] = [NaN, NaN, NaN];
    if (warm) {
      start = performance.now();
      served = await startCli(cli, target.dir, 1, undefined, { site: target.site, data });
      [warmMs, warmCpu] = [performance.now() - start, cpuSeconds(served.pid)];
      warmPeakMiB = memoryOf(served.pid).peak;
      await stop(served);
    }
    totals.sort((a, b) => a - b);
    ttfbs.sort((a, b) => a - b);
    answerCpus.sort((a, b) => a - b);
    return {
      load,
      readyMs,
      readyCpu,
      readyPeakMiB,
      warmMs,
      warmCpu,
      warmPeakMiB,
      answerCpuMs: (1000 * answersCpu) / totals.length,
      answerCpu50: percentile(answerCpus, 50),
      answerCpu99: percentile(answerCpus, 99),
      peakMiB: peak,
      dataMiB,
      p50: percentile(totals, 50),
      p99: percentile(totals, 99),
      ttfb50: percentile(ttfbs, 50),
      ...(withStages ? { stages: await measureStages(target) } : {}),
    };
  } finally {
    await rm(data, { recursive: true, force: true });
    if (profile) await rm(profile.dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

interface Row {
  target: Target;
  runs: Run[];
}

const COLUMNS: [string, number][] = [
  ['site', 22],
  ['MiB md', 8],
  ['load avg', 16],
  ['index s', 9],
  ['CPU s', 7],
  ['(read', 7],
  ['+ index)', 9],
  ['heap MiB', 10],
  ['peak RSS MiB', 14],
  ['(at ready)', 11],
  ['disk MiB', 10],
  ['warm s', 8],
  ['CPU s', 7],
  ['RSS MiB', 9],
  ['answer p50', 12],
  ['p99 ms', 8],
  ['CPU ms', 8],
  ['CPU p50', 9],
  ['p99', 7],
];

function printRow(cells: string[]): void {
  console.log(
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(COLUMNS[0]![1]) : cell.padStart(COLUMNS[i]![1])))
      .join(''),
  );
}

/** A figure, or a dash where it was not measured (`--skip-warm`). */
const fixed = (value: number, digits: number) =>
  Number.isNaN(value) ? '–' : value.toFixed(digits);

function summary(row: Row): string[] {
  const of = (pick: (run: Run) => number) => median(row.runs.map(pick));
  const stages = row.runs.flatMap((run) => (run.stages ? [run.stages] : []));
  const stage = (pick: (s: Stages) => number, digits: number) =>
    stages.length ? median(stages.map(pick)).toFixed(digits) : '–';
  return [
    row.target.label,
    row.target.megabytes.toFixed(1),
    row.runs.map((run) => run.load.toFixed(1)).join('/'),
    (of((run) => run.readyMs) / 1000).toFixed(1),
    of((run) => run.readyCpu).toFixed(1),
    stage((s) => s.loadMs / 1000, 1),
    stage((s) => s.indexMs / 1000, 1),
    stage((s) => s.heapMiB, 0),
    of((run) => run.peakMiB).toFixed(0),
    of((run) => run.readyPeakMiB).toFixed(0),
    of((run) => run.dataMiB).toFixed(2),
    fixed(of((run) => run.warmMs) / 1000, 1),
    fixed(
      of((run) => run.warmCpu),
      1,
    ),
    fixed(
      of((run) => run.warmPeakMiB),
      0,
    ),
    of((run) => run.p50).toFixed(1),
    of((run) => run.p99).toFixed(1),
    of((run) => run.answerCpuMs).toFixed(1),
    of((run) => run.answerCpu50).toFixed(1),
    of((run) => run.answerCpu99).toFixed(1),
  ];
}

/** How a figure grows from the smallest generated site to the largest: ×ratio and the exponent k of N^k. */
function printGrowth(rows: Row[]): void {
  const generatedRows = rows.filter((row) => !row.target.label.includes('real'));
  const [first, last] = [generatedRows[0], generatedRows.at(-1)];
  if (!first || !last || first === last || first.target.site !== last.target.site) return;
  const scale = last.target.pages / first.target.pages;
  const figures: [string, (run: Run) => number][] = [
    ['index (start on an empty data folder)', (run) => run.readyMs],
    ['index CPU', (run) => run.readyCpu],
    ['peak RSS', (run) => run.peakMiB],
    ['warm start', (run) => run.warmMs],
    ['warm start CPU', (run) => run.warmCpu],
    ['server CPU per answer', (run) => run.answerCpuMs],
    ['server CPU of one answer, p99', (run) => run.answerCpu99],
    ['answer p50', (run) => run.p50],
    ['answer p99', (run) => run.p99],
  ];
  console.log(
    `\nGrowth from ${first.target.pages.toLocaleString('en')} to ${last.target.pages.toLocaleString('en')} pages (×${scale}):`,
  );
  for (const [name, pick] of figures) {
    const ratio = median(last.runs.map(pick)) / median(first.runs.map(pick));
    console.log(
      `  ${name.padEnd(40)} ×${ratio.toFixed(1).padEnd(6)} ~ N^${(Math.log(ratio) / Math.log(scale)).toFixed(2)}`,
    );
  }
}

export async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [],
    options: {
      pages: { type: 'string' },
      full: { type: 'boolean' },
      real: { type: 'boolean' },
      site: { type: 'boolean' },
      runs: { type: 'string' },
      questions: { type: 'string' },
      seed: { type: 'string' },
      'skip-warm': { type: 'boolean' },
    },
  });
  const full = values.full === true;
  const sizes = (values.pages ?? (full ? '1000,5000,20000' : '1000'))
    .split(',')
    .map(Number)
    .filter((pages) => pages > 0);
  const runs = Number(values.runs ?? process.env.BENCH_RUNS ?? (full ? 3 : 1));
  const seed = Number(values.seed ?? 1);
  QUESTIONS = Number(values.questions ?? 200);
  await mkdir(CACHE, { recursive: true });
  const cli = await bundleCli(ROOT, 'docs-assistant-bench');
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `\nThe reference server at scale (docs-assistant serve, one worker, no model: the quoting answerer), ${new Date().toISOString().slice(0, 16)}Z`,
  );
  console.log(
    `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${runs} run(s) per site, medians; ${QUESTIONS} questions per run after ${WARM_UP} to warm up\n`,
  );
  printRow(COLUMNS.map(([name]) => name));
  const rows: Row[] = [];
  const targets: (() => Promise<Target>)[] = [
    ...sizes.map((n) => () => generated(n, false, seed)),
    ...(values.site ? sizes.map((n) => () => generated(n, true, seed)) : []),
    ...(values.real || full ? [() => real(seed)] : []),
  ];
  for (const make of targets) {
    const target = await make();
    const row: Row = { target, runs: [] };
    // In-process stage timings once per site, and not above 5,000 pages: they cost a start each.
    for (let i = 0; i < runs; i++)
      row.runs.push(
        await measure(cli, target, i === 0 && target.pages <= STAGES_UP_TO, !values['skip-warm']),
      );
    rows.push(row);
    printRow(summary(row));
  }
  printGrowth(rows);
  console.log(
    `
index s: \`serve\` started on an empty data folder until it listens (Node's start, reading and parsing the
  pages, building the index), wall clock and the server's CPU seconds by then; (read + index): the CPU
  seconds of those two stages inside one process, and the heap they leave after a full GC (up to
  ${STAGES_UP_TO.toLocaleString('en')} pages: above, it would cost one more start). peak RSS: the server process's high-water mark (VmHWM) after indexing
  and answering, and (at ready) before the first question. disk: its data folder afterwards (the kept pages and index under cache/, threads and
  insights of the questions). warm start: \`serve\` again on that data folder until it listens (pages
  and index read from its cache), and that process's peak RSS (VmHWM) then.
  answer: the whole streamed answer, one question at a time, through POST …/assistant/bench/message;
  CPU ms: the server's CPU time per answer (its CPU seconds over all answers); CPU p50 / p99: one answer's,
  from each thread's scheduler statistics (garbage collection included). On a loaded machine wall clock inflates by the load;
  CPU time does not (much): compare builds by it.
Targets at 20,000 pages: index ≤ 60 s, peak RSS ≤ 1 GiB, warm start ≤ 5 s, answer p99 ≤ 150 ms.`,
  );
}
