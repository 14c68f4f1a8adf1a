import { expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createStaticExportClient } from '../src/client/static-export.js';
import { BUNDLE_STALE_HEADER } from '../src/protocol/headers.js';
import { createHost, readValues } from '../src/server/host/index.js';
import { listen, type RunningServer } from '../src/server/http/serve.js';
import { askQuestion, dialog, launcher } from './helpers.js';

const EMBED_DIR = resolve(import.meta.dirname, '..', 'dist', 'embed');
const port = Number(process.env.E2E_PORT ?? 4455);
let bundleUrl: string;
const running: RunningServer[] = [];

/** A real `host` on its own port, fetching the bundle over HTTP from the reference server. */
async function startHost(yaml: string, offset: number, env: Record<string, string> = {}) {
  const logs: string[] = [];
  const host = createHost({
    values: readValues(yaml, env),
    cacheDir: mkdtempSync(join(tmpdir(), 'da-host-e2e-')),
    embedDir: EMBED_DIR,
    upstreamKey: 'svc_dsc_demo',
    log: (line) => logs.push(line),
  });
  const server = await listen(host.app, { port: port + offset, host: '127.0.0.1' });
  running.push(server);
  await host.install();
  return { url: server.url, logs, host };
}

test.beforeAll(async ({ baseURL }) => {
  const client = createStaticExportClient({ baseUrl: baseURL!, adminKey: 'svc_demo_admin' });
  const job = await client.startJob({ domain: 'demo', version: 'e2e' });
  await client.waitForJob(job.jobId, { intervalMs: 100 });
  bundleUrl = (await client.generateBundle(job.jobId)).bundleUrl;
});

test.afterAll(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

test("client-hosted: the hosted page has the launcher, and the assistant answers through the host's proxy", async ({
  page,
  baseURL,
}) => {
  const values = `deployment:\n  type: client-hosted\nstaticExport:\n  enabled: true\n  bundleUrl: ${JSON.stringify(bundleUrl)}\n  version: e2e\nassistant:\n  upstream: ${baseURL}\n`;
  const { url, host } = await startHost(values, 11);
  expect(host.state().status).toBe('ready');
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') asked.push(request.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${url}/guides/react`);
  await expect(page.getByRole('heading', { level: 1, name: 'React' })).toBeVisible();
  await launcher(page).click();
  await expect(dialog(page)).toBeVisible();
  await askQuestion(page, 'How do I install it?');
  await expect(page.locator('li.da-message[data-role="assistant"]').first()).toContainText(
    'npm install',
  );
  // The page asked its own origin (the host), never the service directly, and carried no key.
  expect(asked).toEqual([`${url}/discovery/v1/assistant/demo/message`]);
  await page.screenshot({ path: 'e2e/screenshots/host-client-hosted.png' });
  expect(errors).toEqual([]);
});

test('air-gapped: no launcher at all, and the offline search still finds pages', async ({
  page,
}) => {
  const values = `deployment:\n  type: air-gapped\nstaticExport:\n  enabled: true\n  bundleUrl: ${JSON.stringify(bundleUrl)}\n`;
  const { url } = await startHost(values, 12);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));

  const response = await page.goto(`${url}/`);
  expect(response?.headers()[BUNDLE_STALE_HEADER.toLowerCase()]).toBeUndefined();
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search the docs' }).fill('presigned');
  await expect(page.locator('#search-results a').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(launcher(page)).toHaveCount(0);
  expect(requests.filter((r) => r.includes('docs-assistant'))).toEqual([]);
  expect(requests.every((r) => r.startsWith(url))).toBe(true);
  await page.screenshot({ path: 'e2e/screenshots/host-air-gapped.png' });
});
