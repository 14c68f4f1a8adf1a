import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM } from './chromium.js';

const root = resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_PORT ?? 4455);
const data = mkdtempSync(join(tmpdir(), 'da-e2e-'));
// The specs assert on the tests' sample site (its pages, code blocks, versions), served with the demo
// keys; `npm start` serves the project's own docs/ instead.
const docs = 'test/fixtures/sample-docs';
const env = { DOCS_ASSISTANT_SERVER_KEYS: 'svc_dsc_demo,svc_demo_admin' };

/** Real Chromium (Debian's package; playwright cannot download browsers here) against the real server. */
export default defineConfig({
  testDir: '.',
  // The framework fixtures have their own config (npm run e2e:sites).
  testIgnore: 'sites/**',
  outputDir: join(root, 'test-results'),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // CI machines are shared and noisy: one retry, and a test that needed it is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: CHROMIUM,
    trace: 'off',
  },
  webServer: [
    {
      command: `node bin/docs-assistant.js serve --docs ${docs} --port ${port} --data ${data}`,
      env,
      cwd: root,
      url: `http://127.0.0.1:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The same server pacing its answers like a model (as `npm start` does), at E2E_PORT + 100:
      // what auto-scroll and progress must cope with is an answer that keeps arriving.
      command: `node bin/docs-assistant.js serve --docs ${docs} --port ${port + 100} --data ${data}-paced --chunk-delay-ms 12`,
      env,
      cwd: root,
      url: `http://127.0.0.1:${port + 100}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
