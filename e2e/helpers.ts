import type { Page, Request } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const ASSISTANT_PATH = '/discovery/v1/assistant/demo/message';

/** Starts the script tag's widget on the page for the demo site, with these options on top. */
export async function initDemo(page: Page, options: Record<string, unknown> = {}) {
  await page.evaluate(
    (extra) =>
      window.DocsAssistant.init({
        domain: 'demo',
        baseUrl: location.origin,
        apiKey: 'svc_dsc_demo',
        ...extra,
      }),
    options,
  );
}

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

/**
 * Waits until answer number `count` is complete and the dialog is ready for the next question (an
 * answer the docs don't cover has no Sources, so its end is read from its state).
 */
export async function waitForAnswer(page: Page, count = 1) {
  await answers(page)
    .nth(count - 1)
    .and(page.locator('[data-state="done"]'))
    .waitFor();
  await page.locator('.da-dialog[data-status="ready"]').waitFor();
}

export async function askQuestion(page: Page, question: string, count = 1) {
  await input(page).fill(question);
  await input(page).press('Enter');
  await waitForAnswer(page, count);
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's violations inside the elements `selector` matches, one line each (rule: targets). */
export async function axeViolations(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (include) => {
    const result = await (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe.run({ include: [[include]] }, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, selector);
}
