import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { formatDataStreamPart } from 'ai';
import type { CDPSession, Page } from 'playwright-core';
import {
  launchChromium,
  rendererMainEvents,
  rendererTaskCpu,
  type TraceEvent,
} from './_browser.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHUNK = 50;
const SENTINEL = 'END-OF-ANSWER';

/** A deterministic Markdown answer: headings, lists, tables and a dozen code blocks per 50k. */
export function makeAnswer(chars: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < chars - 200; i++) {
    const section =
      `## Section ${i}\n\nThe assistant streams this part of the answer with **bold** words, \`inline code\` and a [link](/docs/guides/section-${i}).\n\n` +
      `- First point of section ${i}, long enough to wrap on a narrow panel.\n- Second point with *emphasis*.\n- Third point.\n\n` +
      (i % 3 === 0
        ? `| Option | Default | Meaning |\n|---|---|---|\n| alpha${i} | ${i} | The first knob. |\n| beta${i} | true | The second knob. |\n\n`
        : '') +
      (i % 2 === 0
        ? `\`\`\`ts\nexport function section${i}(input: string): string {\n  return input.trim().toUpperCase() + ${i};\n}\n\`\`\`\n\n`
        : '') +
      `A closing paragraph for section ${i} explains how the pieces fit together and where to read more.\n\n`;
    parts.push(section);
    size += section.length;
  }
  return `${parts.join('').slice(0, chars - SENTINEL.length - 2)}\n\n${SENTINEL}`;
}

function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) out.push(text.slice(i, i + CHUNK));
  return out;
}

/** How the answer reaches the browser: a write per 50-character chunk, or all of it in one write. */
export type Delivery = 'chunks' | 'burst';

/** The pages compared, each fed the same stream in the same browser. */
export const PAGES = ['ours', 'ours-react', 'cookbook', 'streamdown', 'ours-b'] as const;
export type PageName = (typeof PAGES)[number];

async function bundle(entry: string, splitting: boolean) {
  const result = await build({
    entryPoints: [join(ROOT, 'bench/pages', entry)],
    bundle: true,
    minify: !process.env.BENCH_PROFILE && !process.env.BENCH_TRACE,
    write: false,
    format: splitting ? 'esm' : 'iife',
    splitting,
    outdir: '/out',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  return result.outputFiles.filter((file) => file.path.endsWith('.js'));
}

async function startServer(
  answer: () => { text: string; delivery: Delivery },
): Promise<{ server: Server; url: string }> {
  const files: Record<string, [string, Buffer | string]> = {
    '/embed/docs-assistant.js': [
      'text/javascript',
      await readFile(join(ROOT, 'dist/embed/docs-assistant.js')),
    ],
    '/embed/docs-assistant.chat.js': [
      'text/javascript',
      await readFile(join(ROOT, 'dist/embed/docs-assistant.chat.js')),
    ],
    '/styles.css': ['text/css', await readFile(join(ROOT, 'dist/styles.css'))],
    '/ours.html': [
      'text/html',
      '<!doctype html><html><body><main><h1>Docs</h1></main><script src="/embed/docs-assistant.js" data-domain="bench" data-base-url="/" data-theme="light"></script></body></html>',
    ],
    '/ours-react.html': [
      'text/html',
      '<!doctype html><html><head><link rel="stylesheet" href="/styles.css"></head><body><main><h1>Docs</h1></main><div id="root"></div><script type="module" src="/pages/ours-react.js"></script></body></html>',
    ],
  };
  // BENCH_B_DIR=<a dist/embed of another build>: page `ours-b`, that build's script tag, for A/B runs.
  if (process.env.BENCH_B_DIR) {
    for (const name of ['docs-assistant.js', 'docs-assistant.chat.js'])
      files[`/b/embed/${name}`] = [
        'text/javascript',
        await readFile(join(process.env.BENCH_B_DIR, name)),
      ];
    files['/ours-b.html'] = [
      'text/html',
      files['/ours.html']![1].toString().replace('/embed/', '/b/embed/'),
    ];
  }
  for (const file of await bundle('ours-react.tsx', true))
    files[`/pages/${file.path.slice('/out/'.length)}`] = [
      'text/javascript',
      Buffer.from(file.contents),
    ];
  for (const name of ['cookbook', 'streamdown']) {
    files[`/pages/${name}.js`] = [
      'text/javascript',
      Buffer.from((await bundle(`${name}.tsx`, false))[0]!.contents),
    ];
    files[`/${name}.html`] = [
      'text/html',
      `<!doctype html><html><body><main><h1>Docs</h1></main><div id="root"></div><script src="/pages/${name}.js"></script></body></html>`,
    ];
  }
  const server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/message')) {
      for await (const _ of req) void _;
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Vercel-AI-Data-Stream': 'v1',
        'X-Thread-Id': '01JBENCH000000000000000000',
      });
      const { text, delivery } = answer();
      const parts = chunks(text).map((piece) => formatDataStreamPart('text', piece));
      if (delivery === 'burst') {
        // The whole answer in one write: a proxy that buffers, or a model far faster than the page.
        res.write(parts.join(''));
      } else {
        // As fast as possible, but each chunk its own write, as a model's tokens arrive.
        for (const part of parts) {
          res.write(part);
          await new Promise((r) => setImmediate(r));
        }
      }
      res.end(formatDataStreamPart('finish_message', { finishReason: 'stop' }));
      return;
    }
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file[0] }).end(file[1]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export interface StreamFigures {
  taskMs: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  longestTaskMs: number;
  /**
   * The longest main-thread task by the CPU time its thread got (trace `tdur`): on a machine shared
   * with other work a task's wall time includes waiting for a core; this does not.
   */
  longestTaskCpuMs: number;
  /** Main-thread time by its thread's CPU time: the renderer's top-level tasks' `tdur`, summed. */
  taskCpuMs: number;
  longTasks: number;
  frames: number;
  lastByteToScreenMs: number;
  /** Until no block waits for formatting (ours formats bursts over several tasks). */
  lastByteToFormattedMs: number;
  heapMB: number;
  /** The machine's 1-minute load average when the run ended (2 cores here, shared). */
  load: number;
}

// Runs in the page before anything else: long tasks and the moment the sentinel reaches the DOM.
const PROBE = `(() => {
  window.__longest = 0; window.__longTasks = 0; window.__frames = 0; window.__counting = false;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) { window.__longTasks++; window.__longest = Math.max(window.__longest, e.duration); } }).observe({ type: 'longtask' });
  const frame = () => { if (window.__counting) window.__frames++; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  const seen = (node) => (node.textContent || '').includes('${SENTINEL}');
  const watch = (root) => new MutationObserver((records) => {
    if (!window.__doneAt) {
      for (const r of records) {
        if ((r.type === 'characterData' && seen(r.target)) || [...r.addedNodes].some(seen)) { window.__doneAt = performance.now(); break; }
      }
    }
    if (window.__doneAt && !window.__formattedAt && !root.querySelector('[data-pending]')) window.__formattedAt = performance.now();
  }).observe(root, { childList: true, subtree: true, characterData: true });
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) { const root = attach.call(this, init); watch(root); return root; };
  document.addEventListener('DOMContentLoaded', () => watch(document.body));
})();`;

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** BENCH_PROFILE=1: the functions with the most self time while streaming (build unminified to read them). */
function printProfile(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples?.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [key, ms] of top) console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
}

type CpuProfile = {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  samples?: number[];
  timeDeltas?: number[];
};

/** The longest top-level task on a renderer's main thread, by thread CPU time, in ms. */
function longestRendererTask(events: TraceEvent[]): number {
  let longest = 0;
  for (const e of events) if (e.tdur !== undefined) longest = Math.max(longest, e.tdur / 1000);
  return longest;
}

/** A page-side mark on the trace clock (µs): when, how long (ms), what, how much. */
type Mark = [number, number, string, number];

/**
 * BENCH_TRACE=n: the n longest tasks (by thread CPU time) of a run, each with where its time went:
 * self time per trace event (layout, style, paint, GC, script entry points) and, from the CPU
 * profile's samples inside the task, the JS functions with the most self time.
 */
function explainLongTasks(
  events: TraceEvent[],
  profile: CpuProfile | undefined,
  count: number,
  marks: Mark[],
) {
  const tasks = events
    .filter((e) => e.name === 'RunTask' && e.tdur !== undefined)
    .sort((a, b) => b.tdur! - a.tdur!)
    .slice(0, count);
  const samples: { ts: number; key: string; stack: string[] }[] = [];
  if (profile) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parent.set(child, node.id);
    const name = (id: number) => {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      return `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
    };
    let ts = profile.startTime;
    profile.samples?.forEach((id, i) => {
      ts += profile.timeDeltas?.[i] ?? 0;
      const stack = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
        stack.add(name(at));
      samples.push({ ts, key: name(id), stack: [...stack] });
    });
  }
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    const inside = events
      .filter(
        (e) =>
          e !== task && e.tid === task.tid && e.pid === task.pid && e.ts >= task.ts && e.ts < end,
      )
      .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    // Self time: an event's duration minus that of the events nested directly in it.
    const self = new Map<string, number>();
    const stack: { e: TraceEvent; child: number }[] = [];
    const close = (upTo: number) => {
      while (stack.length && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= upTo) {
        const { e, child } = stack.pop()!;
        const fn = e.args?.data?.functionName || e.args?.data?.type;
        const key = fn ? `${e.name}(${fn})` : e.name;
        self.set(key, (self.get(key) ?? 0) + (e.dur! - child) / 1000);
        if (stack.length) stack.at(-1)!.child += e.dur!;
      }
    };
    for (const e of inside) {
      close(e.ts);
      stack.push({ e, child: 0 });
    }
    close(Infinity);
    const js = new Map<string, number>();
    const total = new Map<string, number>();
    for (let i = 1; i < samples.length; i++) {
      const { ts, key, stack } = samples[i]!;
      if (ts < task.ts || ts >= end) continue;
      const ms = (ts - samples[i - 1]!.ts) / 1000;
      js.set(key, (js.get(key) ?? 0) + ms);
      for (const frame of stack) total.set(frame, (total.get(frame) ?? 0) + ms);
    }
    const top = (map: Map<string, number>, n: number) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([key, ms]) => `${ms.toFixed(1)} ${key}`)
        .join('; ');
    // Marks a debugging build pushed as `globalThis.__marks.push([performance.now(), ms, kind, size])`.
    const own = new Map<string, [number, number, number]>();
    for (const [ts, ms, kind, size] of marks)
      if (ts >= task.ts && ts < end) {
        const [n, t, c] = own.get(kind) ?? [0, 0, 0];
        own.set(kind, [n + 1, t + ms, c + size]);
      }
    if (own.size)
      console.log(
        `    marks: ${[...own].map(([kind, [n, ms, size]]) => `${kind} ×${n} ${ms.toFixed(1)} ms ${size}`).join('; ')}`,
      );
    console.log(
      `  task ${(task.tdur! / 1000).toFixed(1)} ms CPU / ${(task.dur! / 1000).toFixed(1)} ms wall\n    events: ${top(self, 8)}\n    js self: ${top(js, 10)}\n    js total: ${top(total, 25)}`,
    );
  }
}

async function measure(
  page: Page,
  url: string,
  ask: (page: Page) => Promise<void>,
  prepare: (page: Page) => Promise<void>,
): Promise<StreamFigures> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Network.enable');
  let lastByte = 0;
  cdp.on('Network.loadingFinished', (event) => {
    lastByte = Math.max(lastByte, event.timestamp);
  });
  await page.addInitScript(PROBE);
  await page.goto(url);
  await prepare(page);
  await page.waitForTimeout(300);
  const before = await metrics(cdp);
  lastByte = 0;
  await page.evaluate(() => ((window as unknown as { __counting: boolean }).__counting = true));
  if (process.env.BENCH_PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const trace = Number(process.env.BENCH_TRACE ?? 0);
  if (trace && !process.env.BENCH_PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    categories: trace
      ? ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8']
      : ['toplevel'],
  });
  await ask(page);
  await page.waitForFunction(
    () => (window as unknown as { __formattedAt?: number }).__formattedAt !== undefined,
    undefined,
    { timeout: 120_000, polling: 100 },
  );
  await page.waitForTimeout(300);
  const events = rendererMainEvents(await browser.stopTracing());
  const dump = (dir: string | undefined, ext: string, data: unknown) =>
    dir &&
    writeFile(join(dir, `${url.split('/').pop()}-${Date.now()}.${ext}`), JSON.stringify(data));
  await dump(process.env.BENCH_TRACE_DIR, 'trace.json', events);
  const longestTaskCpuMs = longestRendererTask(events);
  if (process.env.BENCH_PROFILE) {
    const { profile } = await cdp.send('Profiler.stop');
    await dump(process.env.BENCH_PROFILE_DIR, 'cpuprofile', profile);
    printProfile(profile);
  } else if (trace) {
    const nav = (await metrics(cdp)).NavigationStart!;
    const marks = await page.evaluate(
      () => (globalThis as unknown as { __marks?: Mark[] }).__marks ?? [],
    );
    console.log(`${url}:`);
    explainLongTasks(
      events,
      (await cdp.send('Profiler.stop')).profile,
      trace,
      // performance.now() counts from NavigationStart, on the trace's monotonic clock.
      marks.map(([at, ...rest]) => [(nav * 1000 + at) * 1000, ...rest]),
    );
  }
  const after = await metrics(cdp);
  const probe = await page.evaluate(() => {
    const w = window as unknown as {
      __doneAt: number;
      __formattedAt: number;
      __longest: number;
      __longTasks: number;
      __frames: number;
    };
    return {
      doneAt: w.__doneAt,
      formattedAt: w.__formattedAt,
      longest: w.__longest,
      longTasks: w.__longTasks,
      frames: w.__frames,
    };
  });
  // CDP timestamps are monotonic seconds; performance.now() counts from NavigationStart on that clock.
  const lastByteMs = (lastByte - after.NavigationStart!) * 1000;
  return {
    taskMs: (after.TaskDuration! - before.TaskDuration!) * 1000,
    scriptMs: (after.ScriptDuration! - before.ScriptDuration!) * 1000,
    layoutMs: (after.LayoutDuration! - before.LayoutDuration!) * 1000,
    styleMs: (after.RecalcStyleDuration! - before.RecalcStyleDuration!) * 1000,
    longestTaskMs: probe.longest,
    longestTaskCpuMs,
    taskCpuMs: rendererTaskCpu(events),
    longTasks: probe.longTasks,
    frames: probe.frames,
    lastByteToScreenMs: Math.max(0, probe.doneAt - lastByteMs),
    lastByteToFormattedMs: Math.max(0, probe.formattedAt - lastByteMs),
    heapMB: after.JSHeapUsedSize! / 2 ** 20,
    load: loadavg()[0]!,
  };
}

const QUESTION = 'Show me the whole configuration reference';

const ask = (p: Page) =>
  p.evaluate(
    (q) => (window as unknown as { DocsAssistant: { ask(q: string): void } }).DocsAssistant.ask(q),
    QUESTION,
  );
// Open first, so loading the chat code and the Markdown renderer is not counted as streaming cost.
const openOurs = async (p: Page) => {
  await p.waitForFunction(
    () =>
      typeof (window as unknown as { DocsAssistant?: { open?: unknown } }).DocsAssistant?.open ===
      'function',
  );
  await p.evaluate(() =>
    (window as unknown as { DocsAssistant: { open(): void } }).DocsAssistant.open(),
  );
  await p.locator('.da-dialog').waitFor();
  await p.waitForTimeout(500);
};
const askBaseline = (p: Page) =>
  p.evaluate((q) => (window as unknown as { __ask(q: string): void }).__ask(q), QUESTION);
const baselineReady = (p: Page) =>
  p
    .waitForFunction(() => typeof (window as unknown as { __ask?: unknown }).__ask === 'function')
    .then(() => undefined);

const RUNNERS: Record<PageName, [(p: Page) => Promise<unknown>, (p: Page) => Promise<void>]> = {
  ours: [ask, openOurs],
  'ours-b': [ask, openOurs],
  'ours-react': [ask, openOurs],
  cookbook: [askBaseline, baselineReady],
  streamdown: [askBaseline, baselineReady],
};

export interface StreamCase {
  chars: number;
  delivery: Delivery;
  pages: readonly PageName[];
}

export interface StreamResult {
  name: PageName;
  chars: number;
  delivery: Delivery;
  run: number;
  figures: StreamFigures;
}

/** Every case, `runs` times over; within a round each page runs once per case, so noise hits all alike. */
export async function runStreamBench(cases: StreamCase[], runs = 1): Promise<StreamResult[]> {
  let current: { text: string; delivery: Delivery } = { text: '', delivery: 'chunks' };
  const { server, url } = await startServer(() => current);
  const browser = await launchChromium();
  const results: StreamResult[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      for (const { chars, delivery, pages } of cases) {
        current = { text: makeAnswer(chars), delivery };
        for (const name of pages) {
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
          const page = await context.newPage();
          const [askPage, prepare] = RUNNERS[name];
          results.push({
            name,
            chars,
            delivery,
            run,
            figures: await measure(
              page,
              `${url}/${name}.html`,
              (p) => askPage(p).then(() => undefined),
              prepare,
            ),
          });
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  return results;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * `node bench/run.mjs stream`; environment: BENCH_RUNS (default 3), BENCH_PAGES (comma list, default
 * all), BENCH_SIZES (default 50000,200000), BENCH_DELIVERY (default chunks,burst); for finding where
 * time goes: BENCH_TRACE=n, BENCH_PROFILE=1, BENCH_TRACE_DIR / BENCH_PROFILE_DIR (write each run's
 * renderer trace events / CPU profile there), BENCH_B_DIR (another build's dist/embed, as page
 * `ours-b`: an A/B comparison in the same browser and rounds, fairer than two runs on a busy machine).
 */
export async function main(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const pages = (process.env.BENCH_PAGES?.split(',') ??
    PAGES.filter((p) => p !== 'ours-b')) as PageName[];
  const sizes = (process.env.BENCH_SIZES ?? '50000,200000').split(',').map(Number);
  const deliveries = (process.env.BENCH_DELIVERY ?? 'chunks,burst').split(',') as Delivery[];
  const cases = deliveries.flatMap((delivery) =>
    sizes.map((chars) => ({ chars, delivery, pages })),
  );
  const results = await runStreamBench(cases, runs);
  console.log(
    `\nStreaming a Markdown answer (${CHUNK}-character text parts), Chromium, median of ${runs} (min–max in brackets)\n`,
  );
  console.log(
    `${'page'.padEnd(12)}${'delivery'.padEnd(9)}${'chars'.padStart(8)}${'main thread ms'.padStart(22)}${'main CPU ms'.padStart(20)}${'longest task ms'.padStart(20)}${'longest CPU ms'.padStart(18)}${'>50 wall/CPU'.padStart(14)}${'byte→text ms'.padStart(20)}${'byte→formatted ms'.padStart(22)}${'script/layout/style'.padStart(21)}`,
  );
  const cell = (list: StreamFigures[], key: keyof StreamFigures) => {
    const values = list.map((f) => f[key]);
    return `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  };
  const of = (name: PageName, chars: number, delivery: Delivery) =>
    results
      .filter((r) => r.name === name && r.chars === chars && r.delivery === delivery)
      .map((r) => r.figures);
  for (const { chars, delivery } of cases) {
    for (const name of pages) {
      const list = of(name, chars, delivery);
      console.log(
        `${name.padEnd(12)}${delivery.padEnd(9)}${String(chars).padStart(8)}${cell(list, 'taskMs').padStart(22)}${cell(list, 'taskCpuMs').padStart(20)}${cell(list, 'longestTaskMs').padStart(20)}${cell(list, 'longestTaskCpuMs').padStart(18)}${`${list.filter((f) => f.longestTaskMs > 50).length}/${list.filter((f) => f.longestTaskCpuMs > 50).length} of ${list.length}`.padStart(14)}${cell(list, 'lastByteToScreenMs').padStart(20)}${cell(list, 'lastByteToFormattedMs').padStart(22)}${(
          ['scriptMs', 'layoutMs', 'styleMs'] as const
        )
          .map((key) => median(list.map((f) => f[key])).toFixed(0))
          .join('/')
          .padStart(21)}`,
      );
    }
  }
  console.log('\nEach run of ours, in order: longest task wall / CPU ms (load average)');
  for (const { chars, delivery } of cases)
    for (const name of pages.filter((p) => p.startsWith('ours')))
      console.log(
        `${name.padEnd(12)}${delivery.padEnd(9)}${String(chars).padStart(8)}  ${of(
          name,
          chars,
          delivery,
        )
          .map(
            (f) =>
              // The longtask observer reports only tasks over 50 ms: none is "<50".
              `${f.longestTaskMs ? f.longestTaskMs.toFixed(0) : '<50'} / ${f.longestTaskCpuMs.toFixed(0)} (${f.load.toFixed(1)})`,
          )
          .join('  ')}`,
      );
  console.log(
    '(main thread: CDP TaskDuration from asking to 300 ms after fully formatted, split into script/layout/style (medians); main CPU: the same tasks by their thread CPU time (trace tdur);',
  );
  console.log(
    " longest: longtask entries (wall time), 0 = none over 50 ms; longest CPU: the longest task by its thread's CPU time (trace tdur), which a busy machine does not inflate;",
  );
  console.log(
    ' byte→text: last byte received → the whole answer text in the DOM; byte→formatted: → no block left unformatted)',
  );
  const ours = pages.filter((p) => p.startsWith('ours'));
  const baselines = pages.filter((p) => !p.startsWith('ours'));
  for (const { chars, delivery } of cases) {
    if (!ours.length || !baselines.length) continue;
    const ratios = (key: 'taskMs' | 'taskCpuMs') => {
      const time = (name: PageName) => median(of(name, chars, delivery).map((f) => f[key]));
      const best = Math.min(...baselines.map(time));
      return ours.map((name) => `${name} ${(best / time(name)).toFixed(2)}×`).join(', ');
    };
    console.log(
      `${delivery} ${chars}: best baseline / ours main thread = ${ratios('taskMs')}; by CPU time ${ratios('taskCpuMs')} (target ≥ 2×)`,
    );
  }
  for (const delivery of deliveries) {
    if (!sizes.includes(50_000) || !sizes.includes(200_000)) break;
    const growth = (name: PageName) =>
      median(of(name, 200_000, delivery).map((f) => f.taskMs)) /
      median(of(name, 50_000, delivery).map((f) => f.taskMs));
    console.log(
      `${delivery}: 200k / 50k main thread = ${pages.map((name) => `${name} ${growth(name).toFixed(2)}×`).join(', ')} (target for ours ≤ 4.5×)`,
    );
  }
}
