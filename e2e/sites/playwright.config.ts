import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM } from '../chromium.js';
import { SITES, hostRules, portsFor, type SiteOptions } from './sites.js';

const root = resolve(import.meta.dirname, '../..');
const ports = portsFor(Number(process.env.E2E_PORT ?? 4455));
const data = mkdtempSync(join(tmpdir(), 'da-e2e-sites-'));
// `next dev` serves only its own host name's dev resources by default: localhost.
const nextDev = {
  ...SITES.find((site) => site.name === 'nextjs')!,
  origin: `http://localhost:${ports.nextDev}`,
};

/**
 * The same checks on real framework builds (README "Framework fixtures"). Each fixture is a
 * project; the sites keep their real host names (vitepress.test, …, docs-assistant.test for the
 * reference server), which Chromium maps to local ports, so the builds work on any port.
 */
export default defineConfig<SiteOptions>({
  testDir: '.',
  testMatch: 'sites.spec.ts',
  outputDir: join(root, 'test-results/sites'),
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    launchOptions: {
      ...CHROMIUM,
      args: [...CHROMIUM.args, `--host-resolver-rules=${hostRules(ports)}`],
    },
    trace: 'off',
  },
  projects: [
    ...SITES.map((site) => ({ name: site.name, use: { site, baseURL: site.origin } })),
    // The same app under `next dev` (React's development checks on): no console error there either.
    {
      name: 'nextjs-dev',
      grep: /console error|server HTML|client-side navigation/,
      use: { site: nextDev, baseURL: nextDev.origin },
    },
  ],
  webServer: [
    {
      command: `node bin/docs-assistant.js serve --port ${ports.api} --data ${data} --config e2e/sites/server.json`,
      cwd: root,
      url: `http://127.0.0.1:${ports.api}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node e2e/sites/serve-static.mjs ${ports.static}`,
      cwd: root,
      url: `http://127.0.0.1:${ports.static}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // Built by `npm run e2e:sites` (e2e/sites/build.mjs nextjs) against this checkout's package.
      command: `npx next start -p ${ports.next} -H 127.0.0.1`,
      cwd: join(root, 'e2e/sites/nextjs'),
      url: `http://127.0.0.1:${ports.next}/`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npx next dev -p ${ports.nextDev} -H 127.0.0.1`,
      cwd: join(root, 'e2e/sites/nextjs'),
      url: `http://127.0.0.1:${ports.nextDev}/`,
      reuseExistingServer: false,
      timeout: 120_000,
    },
  ],
});
