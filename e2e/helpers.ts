import type { Page, Request } from '@playwright/test';

export const ASSISTANT_PATH = '/discovery/v1/assistant/demo/message';

/** Every assistant request the page sends, with its parsed body. */
export function recordAsks(page: Page) {
  const asks: {
    body: Record<string, unknown> & {
      threadId?: string;
      context?: unknown[];
      messages: { role: string; content: string }[];
    };
    request: Request;
  }[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(ASSISTANT_PATH) && request.method() === 'POST')
      asks.push({ body: request.postDataJSON(), request });
  });
  return asks;
}

export const launcher = (page: Page) => page.getByRole('button', { name: 'Ask AI', exact: true });
export const dialog = (page: Page) => page.getByRole('dialog', { name: 'Ask the docs' });
export const input = (page: Page) => page.getByRole('textbox', { name: 'Your question' });
export const answers = (page: Page) => page.locator('li.da-message[data-role="assistant"]');

/** Waits until answer number `count` is complete: the dialog is ready and the answer cites sources. */
export async function waitForAnswer(page: Page, count = 1) {
  await answers(page)
    .nth(count - 1)
    .locator('div.da-sources')
    .waitFor();
  await page.locator('.da-dialog[data-status="ready"]').waitFor();
}

export async function askQuestion(page: Page, question: string, count = 1) {
  await input(page).fill(question);
  await input(page).press('Enter');
  await waitForAnswer(page, count);
}
