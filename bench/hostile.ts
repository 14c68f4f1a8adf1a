import { createApp } from '../src/server/http/app.js';
import { join } from 'node:path';
import { DEMO } from '../src/server/config.js';
import { loadDocsSite } from '../src/server/site/docs.js';

/**
 * Hostile questions (issue #10): how long one answer takes and how much memory it leaves behind.
 * In-process, so the time is also how long every other request (/healthz included) would wait.
 */
export async function main(): Promise<void> {
  const docs = await loadDocsSite(
    join(import.meta.dirname, '..', 'test', 'fixtures', 'sample-docs'),
  );
  const app = createApp({
    orgs: [{ id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey] }],
    sites: [{ domain: DEMO.domain, org: DEMO.org, docs }],
    limits: { orgPerHour: 1e9, ipPerDay: 1e9, maxBodyBytes: 2 * 1024 * 1024 },
  });
  const cases: [string, string][] = [
    ['"i" x 60,000', 'i'.repeat(60_000)],
    ['"i" x 70,000', 'i'.repeat(70_000)],
    ['"a" x 500,000', 'a'.repeat(500_000)],
    ['~1 MiB word', 'x'.repeat(1_000_000)],
    ['20,000 distinct terms', Array.from({ length: 20_000 }, (_, i) => `word${i}`).join(' ')],
    ['unicode 100,000', 'é🙂字'.repeat(25_000)],
  ];
  console.log('case                       status   ms      rss after (MiB)');
  for (const [name, text] of cases) {
    const body = JSON.stringify({
      fp: 'bench',
      messages: [{ id: 'u1', role: 'user', content: text, parts: [{ type: 'text', text }] }],
    });
    const start = performance.now();
    const response = await app.request(
      `http://bench/discovery/v1/assistant/${DEMO.domain}/message`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${DEMO.assistantKey}`,
          'Content-Type': 'application/json',
        },
        body,
      },
    );
    await response.text();
    const ms = performance.now() - start;
    const rss = process.memoryUsage().rss / 2 ** 20;
    console.log(
      `${name.padEnd(26)} ${String(response.status).padEnd(8)} ${ms.toFixed(0).padStart(6)}  ${rss.toFixed(0).padStart(6)}`,
    );
  }
}
