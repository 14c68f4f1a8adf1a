import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build as viteBuild } from 'vite';
import { createApp } from '../src/server/http/app.js';
import { DEMO } from '../src/server/config.js';
import { loadDocsSite } from '../src/server/site/docs.js';
import { listen } from '../src/server/http/serve.js';
import {
  launchChromium,
  rendererMainEvents,
  rendererTaskCpu,
  type TraceEvent,
} from './_browser.js';

// Paths from this folder: the compiled benchmark runs from a cache folder.
const ROOT = resolve(import.meta.dirname, '..');
const PAGE = '/docs/guides/page-context';
/** Measured before the loader's idle preload (4 s after load), i.e. "before the reader touches anything". */
const WINDOW_MS = 3000;
/** Page loads are noisy on a shared machine (±20 ms between identical runs): take the median of many. */
const RUNS = 9;

/**
 * BENCH_PROFILE=1 adds where the added time goes: Blink's and V8's trace events on the page's main
 * thread (self thread time per event name, with and without the tag), then a CPU profile of loads
 * with an unminified loader (our functions, inclusive time per load).
 */
const PROFILE = Boolean(process.env.BENCH_PROFILE);
const PROFILE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  'loading',
];

interface PageFigures {
  taskMs: number;
  /** Main-thread CPU time (sum of top-level tasks' thread time): waiting for a busy core is not counted. */
  cpuMs: number;
  requests: number;
  bytes: number;
  longestTaskMs: number;
  /** BENCH_PROFILE only: self thread time per trace event name, in ms. */
  breakdown?: Map<string, number>;
}

/** The complete events on renderer main threads that carry thread time, in time order. */
function mainThreadEvents(trace: Buffer): TraceEvent[] {
  return rendererMainEvents(trace)
    .filter((e) => e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
}

/** Self thread time (own time minus nested events') per event name, in ms; timers and tasks by type. */
function selfTimes(events: TraceEvent[]): Map<string, number> {
  const self = new Map<string, number>();
  const stack: { end: number; key: string; child: number; tdur: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack.at(-1)!.end <= until) {
      const top = stack.pop()!;
      self.set(top.key, (self.get(top.key) ?? 0) + (top.tdur - top.child) / 1000);
    }
  };
  for (const e of events) {
    close(e.ts);
    const parent = stack.at(-1);
    if (parent) parent.child += e.tdur!;
    const type = e.args?.data?.type;
    stack.push({
      end: e.ts + (e.dur ?? 0),
      key: type && e.name === 'EventDispatch' ? `${e.name} ${type}` : e.name,
      child: 0,
      tdur: e.tdur!,
    });
  }
  close(Infinity);
  return self;
}

type CpuProfile = {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples?: number[];
  timeDeltas?: number[];
};

/** Inclusive time (ms) of each function of `file` in a CPU profile, recursion counted once. */
function functionTimes(profile: CpuProfile, file: string): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) node.children?.forEach((child) => parent.set(child, node.id));
  const times = new Map<string, number>();
  profile.samples?.forEach((id, i) => {
    const ms = (profile.timeDeltas?.[i + 1] ?? 0) / 1000;
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const { functionName, url, lineNumber } = byId.get(n)!.callFrame;
      if (!url.endsWith(file)) continue;
      const key = `${functionName || '(top level)'} :${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      times.set(key, (times.get(key) ?? 0) + ms);
    }
  });
  return times;
}

/** The loader as `npm run build` makes it but unminified, so a profile names our functions. */
async function unminifiedLoader(): Promise<Buffer> {
  const outDir = await mkdtemp(join(tmpdir(), 'da-page-'));
  try {
    await viteBuild({
      configFile: join(ROOT, 'vite.config.ts'),
      mode: 'embed-loader',
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false, minify: false },
    });
    return await readFile(join(outDir, 'docs-assistant.js'));
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

type NumberKey = Exclude<keyof PageFigures, 'breakdown'>;

type Measure = (
  withScript: boolean,
  profile?: { loader: Buffer; times: Map<string, number> },
) => Promise<PageFigures>;

/** BENCH_PROFILE=1: where the added time goes, by Blink/V8 trace event and by our function. */
async function printProfile(
  runs: { with: PageFigures[]; without: PageFigures[] },
  measure: Measure,
): Promise<void> {
  const names = new Set(runs.with.flatMap((f) => [...f.breakdown!.keys()]));
  const medianOf = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  const rows = [...names].map((name) => {
    const w = runs.with.map((f) => f.breakdown!.get(name) ?? 0);
    const wo = runs.without.map((f) => f.breakdown!.get(name) ?? 0);
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    return { name, with: medianOf([...w]), without: medianOf([...wo]), added: mean(w) - mean(wo) };
  });
  rows.sort((a, b) => b.added - a.added);
  console.log(
    `\nWhere it goes (BENCH_PROFILE: self thread time per trace event on the page's main thread, ms per load;`,
  );
  console.log(
    ' medians, and the mean difference with − without; tracing more categories slows every load)\n',
  );
  console.log(
    `${'event'.padEnd(44)}${'with'.padStart(8)}${'without'.padStart(9)}${'added'.padStart(8)}`,
  );
  for (const row of rows.filter((r) => Math.abs(r.added) >= 0.05).slice(0, 30))
    console.log(
      `${row.name.slice(0, 43).padEnd(44)}${row.with.toFixed(2).padStart(8)}${row.without.toFixed(2).padStart(9)}${row.added.toFixed(2).padStart(8)}`,
    );
  const sum = (key: 'with' | 'without' | 'added') => rows.reduce((a, r) => a + r[key], 0);
  console.log(
    `${'all events'.padEnd(44)}${''.padStart(8)}${''.padStart(9)}${sum('added').toFixed(2).padStart(8)}`,
  );

  const loads = 5;
  const profile = { loader: await unminifiedLoader(), times: new Map<string, number>() };
  for (let i = 0; i < loads; i++) await measure(true, profile);
  console.log(
    `\nOur functions (CPU profile of ${loads} loads with the loader unminified, 50 µs sampling; inclusive ms per load)\n`,
  );
  for (const [key, ms] of [...profile.times].sort((a, b) => b[1] - a[1]).slice(0, 25))
    if (ms / loads >= 0.02) console.log(`${(ms / loads).toFixed(2).padStart(8)}  ${key}`);
}

export async function main(): Promise<void> {
  const app = createApp({
    orgs: [{ id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey] }],
    sites: [
      {
        domain: DEMO.domain,
        org: DEMO.org,
        docs: await loadDocsSite(join(ROOT, 'test/fixtures/sample-docs')),
      },
    ],
    assetsDir: join(ROOT, 'dist'),
    demoKey: DEMO.assistantKey,
  });
  const server = await listen(app, { port: 0, host: '127.0.0.1' });
  const browser = await launchChromium();
  const measure = async (
    withScript: boolean,
    profile?: { loader: Buffer; times: Map<string, number> },
  ): Promise<PageFigures> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    if (profile)
      await page.route('**/embed/docs-assistant.js', (route) =>
        route.fulfill({ body: profile.loader, contentType: 'text/javascript' }),
      );
    if (!withScript) {
      await page.route(`**${PAGE}`, async (route) => {
        const response = await route.fetch();
        await route.fulfill({
          response,
          body: (await response.text()).replace(
            /<script[^>]*docs-assistant\.js[^>]*><\/script>/,
            '',
          ),
        });
      });
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Network.enable');
    let requests = 0;
    let bytes = 0;
    cdp.on('Network.requestWillBeSent', () => void requests++);
    cdp.on('Network.loadingFinished', (event) => void (bytes += event.encodedDataLength));
    await page.addInitScript(() => {
      const w = window as unknown as { __longest: number };
      w.__longest = 0;
      new PerformanceObserver((list) =>
        list.getEntries().forEach((e) => (w.__longest = Math.max(w.__longest, e.duration))),
      ).observe({ type: 'longtask', buffered: true });
    });
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
      await cdp.send('Profiler.start');
    }
    await browser.startTracing(page, { categories: PROFILE ? PROFILE_CATEGORIES : ['toplevel'] });
    await page.goto(`${server.url}${PAGE}`, { waitUntil: 'load' });
    await page.waitForTimeout(WINDOW_MS);
    const events = mainThreadEvents(await browser.stopTracing());
    const cpuMs = rendererTaskCpu(events);
    if (profile) {
      const { profile: cpu } = await cdp.send('Profiler.stop');
      for (const [key, ms] of functionTimes(cpu, '/embed/docs-assistant.js'))
        profile.times.set(key, (profile.times.get(key) ?? 0) + ms);
    }
    const { metrics } = await cdp.send('Performance.getMetrics');
    const task = metrics.find((m) => m.name === 'TaskDuration')!.value * 1000;
    const longestTaskMs = await page.evaluate(
      () => (window as unknown as { __longest: number }).__longest,
    );
    await context.close();
    return {
      taskMs: task,
      cpuMs,
      requests,
      bytes,
      longestTaskMs,
      ...(PROFILE ? { breakdown: selfTimes(events) } : {}),
    };
  };
  try {
    // Warm-up, then alternate so neither side always runs first on a noisy machine.
    await measure(true);
    const runs = { with: [] as PageFigures[], without: [] as PageFigures[] };
    for (let i = 0; i < RUNS; i++) {
      runs.without.push(await measure(false));
      runs.with.push(await measure(true));
    }
    const values = (list: PageFigures[], key: NumberKey) =>
      list.map((f) => f[key]).sort((x, y) => x - y);
    const median = (list: PageFigures[], key: NumberKey) =>
      values(list, key)[Math.floor(list.length / 2)]!;
    const spread = (list: PageFigures[], key: NumberKey) =>
      `${median(list, key).toFixed(1)} (${values(list, key)[0]!.toFixed(1)}–${values(list, key).at(-1)!.toFixed(1)})`;
    console.log(
      `\nPage cost of the script tag before any interaction (sample docs page, first ${WINDOW_MS / 1000} s, median of ${RUNS} with min–max)\n`,
    );
    console.log(
      `${''.padEnd(24)}${'main thread ms'.padStart(22)}${'main-thread CPU ms'.padStart(22)}${'requests'.padStart(10)}${'bytes'.padStart(10)}${'longest task'.padStart(14)}`,
    );
    for (const [name, list] of [
      ['without script tag', runs.without],
      ['with script tag', runs.with],
    ] as const) {
      console.log(
        `${name.padEnd(24)}${spread(list, 'taskMs').padStart(22)}${spread(list, 'cpuMs').padStart(22)}${String(median(list, 'requests')).padStart(10)}${String(median(list, 'bytes')).padStart(10)}${`${median(list, 'longestTaskMs').toFixed(0)} ms`.padStart(14)}`,
      );
    }
    // Loads alternate, so each "with" has a "without" next to it in time: their differences cancel slow phases of the machine.
    const paired = (key: NumberKey) =>
      runs.with.map((w, i) => w[key] - runs.without[i]![key]).sort((x, y) => x - y);
    const pairedText = (key: NumberKey) =>
      `${paired(key)[Math.floor(RUNS / 2)]!.toFixed(1)} (${paired(key)[0]!.toFixed(1)}–${paired(key).at(-1)!.toFixed(1)})`;
    console.log(
      `${'added (paired loads)'.padEnd(24)}${pairedText('taskMs').padStart(22)}${pairedText('cpuMs').padStart(22)}${String(median(runs.with, 'requests') - median(runs.without, 'requests')).padStart(10)}${String(median(runs.with, 'bytes') - median(runs.without, 'bytes')).padStart(10)}`,
    );
    console.log(
      '(main thread: CDP TaskDuration (wall); main-thread CPU: thread time of top-level tasks; target: ≤ 1 request and ≤ 10 ms added, no task over 50 ms;',
    );
    console.log(
      ' the spread of the page alone (without the tag) is the noise floor; the chat file loads later, when idle or when first needed)',
    );
    if (PROFILE) await printProfile(runs, measure);
  } finally {
    await browser.close();
    await server.close();
  }
}
