import { join, resolve } from 'node:path';
import { createApp } from '../src/server/app.js';
import { DEMO } from '../src/server/config.js';
import { loadDocsSite } from '../src/server/docs.js';
import { listen } from '../src/server/serve.js';
import { launchChromium } from './_browser.js';

// Paths from this folder: the compiled benchmark runs from a cache folder.
const ROOT = resolve(import.meta.dirname, '..');
const PAGE = '/docs/guides/page-context';
/** Measured before the loader's idle preload (4 s after load), i.e. "before the reader touches anything". */
const WINDOW_MS = 3000;
/** Page loads are noisy on a shared machine (±20 ms between identical runs): take the median of many. */
const RUNS = 9;

interface PageFigures {
  taskMs: number;
  requests: number;
  bytes: number;
  longestTaskMs: number;
}

export async function main(): Promise<void> {
  const app = createApp({
    orgs: [{ id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey] }],
    sites: [{ domain: DEMO.domain, org: DEMO.org, docs: await loadDocsSite(join(ROOT, 'demo/docs')) }],
    assetsDir: join(ROOT, 'dist'),
    demoKey: DEMO.assistantKey,
  });
  const server = await listen(app, { port: 0, host: '127.0.0.1' });
  const browser = await launchChromium();
  const measure = async (withScript: boolean): Promise<PageFigures> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    if (!withScript) {
      await page.route(`**${PAGE}`, async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: (await response.text()).replace(/<script[^>]*docs-assistant\.js[^>]*><\/script>/, '') });
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
      new PerformanceObserver((list) => list.getEntries().forEach((e) => (w.__longest = Math.max(w.__longest, e.duration)))).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${server.url}${PAGE}`, { waitUntil: 'load' });
    await page.waitForTimeout(WINDOW_MS);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const task = metrics.find((m) => m.name === 'TaskDuration')!.value * 1000;
    const longestTaskMs = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
    await context.close();
    return { taskMs: task, requests, bytes, longestTaskMs };
  };
  try {
    // Warm-up, then alternate so neither side always runs first on a noisy machine.
    await measure(true);
    const runs = { with: [] as PageFigures[], without: [] as PageFigures[] };
    for (let i = 0; i < RUNS; i++) {
      runs.without.push(await measure(false));
      runs.with.push(await measure(true));
    }
    const median = (list: PageFigures[], key: keyof PageFigures) => list.map((f) => f[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    console.log(`\nPage cost of the script tag before any interaction (sample docs page, first ${WINDOW_MS / 1000} s, median of ${RUNS})\n`);
    console.log(`${''.padEnd(22)}${'main thread'.padStart(13)}${'requests'.padStart(10)}${'bytes'.padStart(10)}${'longest task'.padStart(14)}`);
    for (const [name, list] of [['without script tag', runs.without], ['with script tag', runs.with]] as const) {
      console.log(`${name.padEnd(22)}${`${median(list, 'taskMs').toFixed(1)} ms`.padStart(13)}${String(median(list, 'requests')).padStart(10)}${String(median(list, 'bytes')).padStart(10)}${`${median(list, 'longestTaskMs').toFixed(0)} ms`.padStart(14)}`);
    }
    console.log(
      `added by the script tag${`${(median(runs.with, 'taskMs') - median(runs.without, 'taskMs')).toFixed(1)} ms`.padStart(12)}${String(median(runs.with, 'requests') - median(runs.without, 'requests')).padStart(10)}${String(median(runs.with, 'bytes') - median(runs.without, 'bytes')).padStart(10)}`,
    );
    console.log('(target: ≤ 1 request and ≤ 10 ms of main-thread work added, no task over 50 ms; the chat file loads later, when idle or when first needed)');
  } finally {
    await browser.close();
    await server.close();
  }
}
