import { expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from 'tar';
import { createStaticExportClient } from '../src/client/static-export.js';

test('an exported bundle works from file://: pages render, links work, search finds a page', async ({
  page,
  baseURL,
}) => {
  const client = createStaticExportClient({ baseUrl: baseURL!, adminKey: 'svc_demo_admin' });
  const job = await client.startJob({ domain: 'demo' });
  await client.waitForJob(job.jobId, { intervalMs: 100 });
  const bundle = await client.generateBundle(job.jobId);
  const dir = mkdtempSync(join(tmpdir(), 'da-export-'));
  await client.downloadBundle(bundle.bundleUrl, join(dir, 'bundle.tar.gz'), {
    expectedSize: bundle.sizeBytes,
  });
  const site = join(dir, 'site');
  await import('node:fs/promises').then((fs) => fs.mkdir(site));
  await extract({ file: join(dir, 'bundle.tar.gz'), cwd: site });

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`file://${site}/index.html`);
  await expect(page.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
  await expect(page.locator('main img')).toHaveJSProperty('complete', true);
  expect(
    await page.locator('main img').evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);

  await page.getByRole('navigation', { name: 'Docs' }).getByRole('link', { name: 'React' }).click();
  await expect(page).toHaveURL(/\/guides\/react\.html$/);
  await expect(page.locator('main pre .hljs-keyword').first()).toBeVisible();
  await page.locator('main').getByRole('link', { name: 'Page context' }).click();
  await expect(page).toHaveURL(/\/guides\/page-context\.html$/);

  await page.getByRole('searchbox', { name: 'Search the docs' }).fill('presigned');
  const result = page.locator('#search-results a').first();
  await expect(result).toBeVisible();
  await result.click();
  await expect(page).toHaveURL(/\/(static-export|api)\/[\w-]+\.html/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search the docs' }).fill('rate limit');
  await expect(page.locator('#search-results a').first()).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/export.png' });
  expect(errors).toEqual([]);
});
