import { expect, test } from '@playwright/test';
import { answers, askQuestion, launcher } from './helpers.js';

test('a link inside a quoted passage opens the docs page it names', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  // The sample docs link to `/guides/react` from their root; this server shows them under /docs,
  // and the widget on /docs/installation would resolve the bare path against the page (a 404).
  await page.goto('/docs/installation');
  await launcher(page).click();
  await askQuestion(page, 'How do I install it?');
  const link = answers(page)
    .first()
    .locator('blockquote')
    .getByRole('link', { name: 'React guide' });
  await expect(link).toHaveAttribute('href', `${baseURL}/docs/guides/react`);
  await link.scrollIntoViewIfNeeded();
  await link.hover();
  await page.screenshot({ path: 'e2e/screenshots/quoted-link.png' });
  const opened = page.context().waitForEvent('page');
  await link.click();
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe('/docs/guides/react');
  await expect(tab.getByRole('heading', { level: 1 })).toContainText('React');
});
