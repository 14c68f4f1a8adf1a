import { expect, test } from '@playwright/test';
import type {} from '../src/embed/loader.js';
import { answers, askQuestion, axeViolations, input, launcher } from './helpers.js';

/**
 * How sure an answer is, as a reader of the real bundle sees it in a real browser: a labelled
 * marker on unsure and refused answers in both themes and on a phone, and the best places as a
 * list of links. The screenshots (e2e/screenshots/confidence-*.png) are for a person to look at.
 */
for (const [theme, width, height] of [
  ['light', 1280, 900],
  ['dark', 1280, 900],
  ['light', 390, 844],
] as const) {
  test(`marks unsure and refused answers in words, ${theme} at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/docs/quickstart');
    await page.evaluate(
      (t) =>
        window.DocsAssistant.init({
          domain: 'demo',
          baseUrl: location.origin,
          apiKey: 'svc_dsc_demo',
          theme: t,
        }),
      theme,
    );
    await launcher(page).click();
    await input(page).fill('Does it support single sign-on with SAML?');
    await input(page).press('Enter');
    await expect(answers(page).first().locator('.da-confidence')).toHaveText('Not in the docs');
    await page.locator('.da-dialog[data-status="ready"]').waitFor();
    await askQuestion(page, 'How do I change the launcher position?', 2);
    const unsure = answers(page).nth(1);
    await expect(unsure).toHaveAttribute('data-confidence', 'unsure');
    await expect(unsure.locator('.da-confidence')).toHaveText('Not sure');
    const places = unsure.locator('li a', { hasText: '›' });
    expect(await places.count()).toBeGreaterThanOrEqual(2);
    for (const href of await places.evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    ))
      expect(href).toMatch(/\/docs\/.+#.+/);
    expect(await axeViolations(page, 'docs-assistant-root')).toEqual([]);
    await page.screenshot({ path: `e2e/screenshots/confidence-${theme}-${width}.png` });
  });
}
