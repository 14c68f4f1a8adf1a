import { expect, test, type FrameLocator, type Page } from '@playwright/test';

const live = (page: Page): FrameLocator => page.frameLocator('#live-frame');
const snippet = (page: Page, which: 'script' | 'react') => page.locator(`#snippet-${which}`);

test('gallery controls change the shown widget and the snippet live', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await expect(live(page).locator('.da-dialog')).toBeVisible();
  await expect(live(page).locator('.da-root')).toHaveAttribute('data-mode', 'panel');
  await expect(snippet(page, 'script')).toContainText('data-mode="panel"');

  await page.getByLabel('Mode').selectOption('modal');
  await expect(live(page).locator('.da-root')).toHaveAttribute('data-mode', 'modal');
  await expect(snippet(page, 'script')).toContainText('data-mode="modal"');
  await expect(snippet(page, 'react')).toContainText('mode="modal"');

  await page.getByLabel('Theme').selectOption('dark');
  await expect(live(page).locator('.da-root')).toHaveAttribute('data-theme', 'dark');
  await expect(snippet(page, 'script')).toContainText('data-theme="dark"');

  await page.getByLabel('Labels').selectOption('fr');
  await expect(live(page).getByRole('textbox', { name: 'Votre question' })).toBeVisible();
  await expect(
    live(page).getByRole('dialog', { name: 'Interroger la documentation' }),
  ).toBeVisible();
  await expect(snippet(page, 'react')).toContainText('"placeholder": "Posez une question…"');

  await page
    .getByLabel('Starter questions, one a line')
    .fill('Where are the API keys?\nHow do I export?');
  await expect(live(page).getByRole('button', { name: 'Where are the API keys?' })).toBeVisible();
  await expect(live(page).locator('.da-starter')).toHaveCount(2);
  await expect(snippet(page, 'script')).toContainText(
    'data-starter-questions="Where are the API keys?|How do I export?"',
  );
  await expect(snippet(page, 'react')).toContainText(
    'starterQuestions={["Where are the API keys?","How do I export?"]}',
  );
  await page.screenshot({ path: 'e2e/screenshots/gallery-controls.png' });

  // Push: the snippets say so, and the live frame widens to where a panel pushes the page aside.
  await page.getByLabel('Theme').selectOption('light');
  await page.getByLabel('Mode').selectOption('panel');
  await page.getByLabel(/Push the page aside/).check();
  await expect(snippet(page, 'script')).toContainText('data-mode="panel" data-push');
  await expect(snippet(page, 'react')).toContainText(/mode="panel"\n\s+push\n/);
  await expect(page.locator('#live-frame')).toHaveAttribute('width', '1100');
  const article = live(page).locator('main.sample-article');
  await expect(article).toBeVisible();
  await expect
    .poll(async () => {
      const [text, panel] = await Promise.all([
        article.boundingBox(),
        live(page).locator('.da-dialog').boundingBox(),
      ]);
      return text!.x + text!.width <= panel!.x;
    })
    .toBe(true);
  await page.screenshot({ path: 'e2e/screenshots/gallery-push.png' });
  await page.getByLabel('Mode').selectOption('modal');
  await expect(snippet(page, 'script')).not.toContainText('data-push');
  await page.getByLabel(/Push the page aside/).uncheck();
  await page.getByLabel('Mode').selectOption('panel');

  // Other states take the same settings.
  await page.getByLabel('State shown').selectOption('answer');
  await expect(live(page).getByRole('group', { name: 'Ensuite' }).getByRole('button')).toHaveCount(
    2,
  );
});

test('the gallery shows the stopped, queued, feedback and failed states', async ({ page }) => {
  await page.goto('/');
  const state = (caption: string) => page.frameLocator(`iframe[title="${caption}"]`);
  await expect(
    state('Stopped answer').locator('.da-message[data-role="assistant"]'),
  ).toHaveAttribute('data-state', 'stopped');
  await expect(state('Stopped answer').getByText('Stopped', { exact: true })).toBeVisible();
  await expect(state('Queued question').locator('[data-state="queued"]')).toContainText(
    'And how do I download the bundle?',
  );
  await expect(
    state('Feedback form (after “Not helpful”)').getByRole('group', { name: 'What was wrong?' }),
  ).toBeVisible();
  await expect(
    state('Failed answer (server error mid-answer)').locator('.da-message[data-role="assistant"]'),
  ).toHaveAttribute('data-state', 'failed');
  await expect(
    state('A cited answer, with follow-up questions').getByRole('group', { name: 'Ask next' }),
  ).toBeVisible();
});
