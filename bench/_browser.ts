import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../e2e/chromium.js';

/** Debian's Chromium, launched as the e2e suite does (no downloads, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM);
}

/** A Chromium trace event, as `browser.stopTracing()` returns them. */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string; type?: string } };
}

/** The renderers' main threads' complete events (the page's own, not the browser's). */
export function rendererMainEvents(trace: Buffer): TraceEvent[] {
  const { traceEvents } = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] };
  const main = new Set(
    traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return traceEvents.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
}

/** The CPU time of the renderer main threads' top-level events, in ms (nested ones counted once). */
export function rendererTaskCpu(events: TraceEvent[]): number {
  let total = 0;
  const ends = new Map<string, number>();
  for (const e of events
    .filter((e) => e.tdur !== undefined && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ts < (ends.get(thread) ?? -Infinity)) continue;
    total += e.tdur! / 1000;
    ends.set(thread, e.ts + e.dur!);
  }
  return total;
}
