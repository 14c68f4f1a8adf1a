import { expect, test } from '@playwright/test';

// The headless example (demo/headless, docs/v2.md): a page's own UI on AI SDK 6's useChat,
// talking to the v2 operation of the real server in a real Chromium.
test('the bring-your-own-UI page asks, streams a cited answer and continues the thread', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/headless/index.html');
  await page.getByLabel('Question').fill('How do I install it?');
  await page.getByRole('button', { name: 'Ask' }).click();

  const answer = page.locator('[data-role="assistant"]').first();
  await expect(answer).toContainText(/npm install/i);
  await expect(answer.locator('.sources a').first()).toHaveAttribute('href', /\/docs\//);
  const thread = page.locator('.thread');
  await expect(thread).toHaveText(/^Thread [0-9A-Z]{26}$/);
  const first = await thread.textContent();
  await page.screenshot({ path: 'test-results/headless-v2.png', fullPage: true });

  await page.getByLabel('Question').fill('How do I change the theme?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Ask' })).toBeEnabled();
  await expect(thread).toHaveText(first!);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});
