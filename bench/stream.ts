import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { formatDataStreamPart } from 'ai';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from './_browser.js';

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
      (i % 3 === 0 ? `| Option | Default | Meaning |\n|---|---|---|\n| alpha${i} | ${i} | The first knob. |\n| beta${i} | true | The second knob. |\n\n` : '') +
      (i % 2 === 0 ? `\`\`\`ts\nexport function section${i}(input: string): string {\n  return input.trim().toUpperCase() + ${i};\n}\n\`\`\`\n\n` : '') +
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

async function startServer(answer: () => string): Promise<{ server: Server; url: string }> {
  const baseline = await build({ entryPoints: [join(ROOT, 'bench/baseline.tsx')], bundle: true, minify: true, write: false, format: 'iife', jsx: 'automatic', define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'silent', absWorkingDir: ROOT });
  const files: Record<string, [string, Buffer | string]> = {
    '/embed/docs-assistant.js': ['text/javascript', await readFile(join(ROOT, 'dist/embed/docs-assistant.js'))],
    '/embed/docs-assistant.chat.js': ['text/javascript', await readFile(join(ROOT, 'dist/embed/docs-assistant.chat.js'))],
    '/baseline.js': ['text/javascript', Buffer.from(baseline.outputFiles[0]!.contents)],
    '/ours.html': ['text/html', '<!doctype html><html><body><main><h1>Docs</h1></main><script src="/embed/docs-assistant.js" data-domain="bench" data-base-url="/" data-theme="light"></script></body></html>'],
    '/baseline.html': ['text/html', '<!doctype html><html><body><main><h1>Docs</h1></main><div id="root"></div><script src="/baseline.js"></script></body></html>'],
  };
  const server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/message')) {
      for await (const _ of req) void _;
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Vercel-AI-Data-Stream': 'v1', 'X-Thread-Id': '01JBENCH000000000000000000' });
      // As fast as possible, but each chunk its own write, as a model's tokens arrive.
      for (const piece of chunks(answer())) {
        res.write(formatDataStreamPart('text', piece));
        await new Promise((r) => setImmediate(r));
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
  longestTaskMs: number;
  longTasks: number;
  frames: number;
  lastByteToScreenMs: number;
  /** Until no block waits for formatting (ours formats bursts over several tasks). */
  lastByteToFormattedMs: number;
  heapMB: number;
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

async function measure(page: Page, url: string, ask: (page: Page) => Promise<void>, prepare: (page: Page) => Promise<void>): Promise<StreamFigures> {
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
  await ask(page);
  await page.waitForFunction(() => (window as unknown as { __formattedAt?: number }).__formattedAt !== undefined, undefined, { timeout: 120_000, polling: 100 });
  await page.waitForTimeout(300);
  const after = await metrics(cdp);
  const probe = await page.evaluate(() => {
    const w = window as unknown as { __doneAt: number; __formattedAt: number; __longest: number; __longTasks: number; __frames: number };
    return { doneAt: w.__doneAt, formattedAt: w.__formattedAt, longest: w.__longest, longTasks: w.__longTasks, frames: w.__frames };
  });
  // CDP timestamps are monotonic seconds; performance.now() counts from NavigationStart on that clock.
  const lastByteMs = (lastByte - after.NavigationStart!) * 1000;
  return {
    taskMs: (after.TaskDuration! - before.TaskDuration!) * 1000,
    scriptMs: (after.ScriptDuration! - before.ScriptDuration!) * 1000,
    longestTaskMs: probe.longest,
    longTasks: probe.longTasks,
    frames: probe.frames,
    lastByteToScreenMs: Math.max(0, probe.doneAt - lastByteMs),
    lastByteToFormattedMs: Math.max(0, probe.formattedAt - lastByteMs),
    heapMB: after.JSHeapUsedSize! / 2 ** 20,
  };
}

const QUESTION = 'Show me the whole configuration reference';

async function ours(page: Page, url: string) {
  return measure(
    page,
    `${url}/ours.html`,
    (p) => p.evaluate((q) => (window as unknown as { DocsAssistant: { ask(q: string): void } }).DocsAssistant.ask(q), QUESTION),
    async (p) => {
      // Open first, so loading the chat code is not counted as streaming cost.
      await p.evaluate(() => (window as unknown as { DocsAssistant: { open(): void } }).DocsAssistant.open());
      await p.locator('.da-dialog').waitFor();
      await p.waitForTimeout(500);
    },
  );
}

async function baseline(page: Page, url: string) {
  return measure(
    page,
    `${url}/baseline.html`,
    (p) => p.evaluate((q) => (window as unknown as { __ask(q: string): void }).__ask(q), QUESTION),
    (p) => p.waitForFunction(() => typeof (window as unknown as { __ask?: unknown }).__ask === 'function').then(() => undefined),
  );
}

export async function runStreamBench(sizes: { chars: number; baseline: boolean }[]) {
  let current = '';
  const { server, url } = await startServer(() => current);
  const browser = await launchChromium();
  const results: { name: string; chars: number; figures: StreamFigures }[] = [];
  try {
    for (const { chars, baseline: withBaseline } of sizes) {
      current = makeAnswer(chars);
      for (const [name, run] of [['ours', ours], ...(withBaseline ? [['baseline', baseline] as const] : [])] as const) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        results.push({ name, chars, figures: await run(page, url) });
        await context.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  return results;
}

export async function main(): Promise<void> {
  const results = await runStreamBench([
    { chars: 50_000, baseline: true },
    { chars: 200_000, baseline: false },
  ]);
  console.log(`\nStreaming a Markdown answer in ${CHUNK}-character chunks, Chromium (CDP metrics)\n`);
  console.log(`${'page'.padEnd(10)}${'chars'.padStart(9)}${'task ms'.padStart(10)}${'script ms'.padStart(11)}${'longest'.padStart(9)}${'>50ms'.padStart(7)}${'frames'.padStart(8)}${'byte→text'.padStart(11)}${'byte→formatted'.padStart(16)}${'heap MB'.padStart(9)}`);
  for (const { name, chars, figures: f } of results) {
    console.log(`${name.padEnd(10)}${String(chars).padStart(9)}${f.taskMs.toFixed(0).padStart(10)}${f.scriptMs.toFixed(0).padStart(11)}${f.longestTaskMs.toFixed(0).padStart(9)}${String(f.longTasks).padStart(7)}${String(f.frames).padStart(8)}${`${f.lastByteToScreenMs.toFixed(0)} ms`.padStart(11)}${`${f.lastByteToFormattedMs.toFixed(0)} ms`.padStart(16)}${f.heapMB.toFixed(1).padStart(9)}`);
  }
  console.log('(task/script: CDP TaskDuration/ScriptDuration; longest and >50ms: longtask entries, none means every task ≤ 50 ms;');
  console.log(' byte→text: last byte received → the whole answer text in the DOM; byte→formatted: → no block left unformatted)');
  const get = (name: string, chars: number) => results.find((r) => r.name === name && r.chars === chars)!.figures;
  const ratio = get('ours', 50_000).taskMs / get('baseline', 50_000).taskMs;
  const growth = get('ours', 200_000).taskMs / get('ours', 50_000).taskMs;
  console.log(`\nours / baseline main-thread time at 50k: ${ratio.toFixed(3)} (target ≤ 0.1)`);
  console.log(`ours 200k / 50k main-thread time: ${growth.toFixed(2)}× (target ≤ 4.5×, linear would be 4×)`);
}
