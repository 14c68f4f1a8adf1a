import { expect, test } from '@playwright/test';
import type {} from '../src/embed/loader.js';
import {
  ASSISTANT_PATH,
  answers,
  askQuestion,
  axeViolations,
  dialog,
  input,
  launcher,
  recordAsks,
  waitForAnswer,
} from './helpers.js';

const PAGE = '/docs/guides/page-context';

test.describe('script tag', () => {
  test('asks the reference server and shows a cited answer; the follow-up carries the threadId', async ({
    page,
  }) => {
    const asks = recordAsks(page);
    await page.goto(PAGE);
    await launcher(page).click();
    await expect(input(page)).toBeFocused();
    await askQuestion(page, 'How do I attach a code block?');
    const sources = answers(page).first().locator('div.da-sources a');
    await expect(sources.first()).toHaveAttribute('href', /\/docs\/guides\/page-context$/);
    const threadId = await asks[0]!.request.response().then((r) => r!.headerValue('x-thread-id'));
    expect(threadId).toMatch(/^[0-9A-Z]{26}$/);
    expect(asks[0]!.body).toMatchObject({
      fp: 'anonymous',
      retrievalPageSize: 5,
      currentPath: PAGE,
    });
    await askQuestion(page, 'And several snippets?', 2);
    expect(asks[1]!.body.threadId).toBe(threadId);
    expect(asks[1]!.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  test('completed answers never show as cancelled in the network log', async ({ page }) => {
    // Seen in DevTools as "(canceled)" / net::ERR_ABORTED for 1–2 of every 5 answers (issue #9).
    const failed: string[] = [];
    page.on('requestfailed', (request) =>
      failed.push(`${request.url()} ${request.failure()?.errorText}`),
    );
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    cdp.on('Network.loadingFailed', (event) => failed.push(`${event.type} ${event.errorText}`));
    const asks = recordAsks(page);
    await page.goto(PAGE);
    await launcher(page).click();
    for (let n = 1; n <= 5; n++) await askQuestion(page, `How do I install it? (${n})`, n);
    // loadingFinished / loadingFailed arrive after the body's end: let the last one land.
    await expect
      .poll(() => Promise.all(asks.map((ask) => ask.request.response().then((r) => r?.finished()))))
      .toEqual([null, null, null, null, null]);
    expect(failed).toEqual([]);
  });

  test('selected text and code blocks attach context items that the next question carries', async ({
    page,
  }) => {
    const asks = recordAsks(page);
    await page.goto(PAGE);
    const paragraph = page
      .locator('main p')
      .filter({ hasText: 'Readers can attach several snippets' });
    await paragraph.click({ clickCount: 3 });
    const selectionButton = page.getByRole('button', { name: 'Ask AI: selected text' });
    await expect(selectionButton).toBeVisible();
    await selectionButton.click();
    await expect(dialog(page)).toBeVisible();
    const chips = page.getByRole('list', { name: 'Attached context' });
    await expect(chips.locator('li')).toHaveCount(1);

    const block = page.locator('main pre').first();
    await block.hover();
    const codeButton = page.getByRole('button', { name: 'Ask AI: code block' });
    await expect(codeButton).toBeVisible();
    await codeButton.click();
    await expect(chips.locator('li')).toHaveCount(2);
    await askQuestion(page, 'What do these do?');
    const context = asks[0]!.body.context as {
      type: string;
      value: string;
      path: string;
      elementId?: string;
    }[];
    expect(context[0]).toEqual({
      type: 'textSelection',
      value: expect.stringContaining('Readers can attach several snippets'),
      path: PAGE,
    });
    expect(context[1]).toMatchObject({
      type: 'code',
      value: expect.stringContaining('"type": "code"'),
      path: PAGE,
      elementId: expect.stringMatching(/\S/),
    });
    // The page is never written to: the block keeps no id of ours; elementId counts the page's blocks.
    expect(await block.getAttribute('id')).toBeNull();
    expect(context[1]!.elementId).toBe('da-code-1');
    await expect(chips).toHaveCount(0);
  });

  test('code blocks added later get their button too', async ({ page }) => {
    await page.goto(PAGE);
    await page.evaluate(() => {
      const pre = document.createElement('pre');
      pre.id = 'late-block';
      pre.textContent = 'npx docs-assistant serve';
      document.querySelector('main')!.append(pre);
    });
    const late = page.locator('#late-block');
    await late.hover();
    await expect(page.getByRole('button', { name: 'Ask AI: code block' })).toBeVisible();
  });

  test('Ctrl+I toggles the assistant; ?assistant opens it and ?assistant=… asks', async ({
    page,
  }) => {
    await page.goto(PAGE);
    await page.keyboard.press('Control+i');
    await expect(dialog(page)).toBeVisible();
    // Focus moves in with the dialog's effects, which also attach its Escape handling.
    await expect(input(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toBeHidden();
    await page.goto(`${PAGE}?assistant`);
    await expect(dialog(page)).toBeVisible();
    const asks = recordAsks(page);
    await page.goto(`${PAGE}?assistant=${encodeURIComponent('How do I change the theme?')}`);
    await waitForAnswer(page);
    expect(asks[0]!.body.messages[0]!.content).toBe('How do I change the theme?');
  });

  test('works with the keyboard alone, and Escape gives focus back to the launcher', async ({
    page,
  }) => {
    await page.goto(PAGE);
    for (
      let i = 0;
      i < 80 &&
      !(await launcher(page).evaluate(
        (el) => el === (el.getRootNode() as ShadowRoot).activeElement,
      ));
      i++
    )
      await page.keyboard.press('Tab');
    await expect(launcher(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(input(page)).toBeFocused();
    await page.keyboard.type('How do I install it?');
    await page.keyboard.press('Enter');
    await waitForAnswer(page);
    // Back from the question box: the answer's last control, its last follow-up question, then Retry.
    const followUps = page.getByRole('group', { name: 'Ask next' }).getByRole('button');
    await page.keyboard.press('Shift+Tab');
    await expect(followUps.last()).toBeFocused();
    for (let n = await followUps.count(); n > 0; n--) await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('button', { name: 'Retry' }).last()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toBeHidden();
    await expect(launcher(page)).toBeFocused();
  });

  test('a reload restores the conversation', async ({ page }) => {
    await page.goto(PAGE);
    await launcher(page).click();
    await askQuestion(page, 'How do threads work?');
    await page.reload();
    await launcher(page).click();
    await expect(page.locator('.da-user-text')).toHaveText(['How do threads work?']);
    await expect(answers(page)).toHaveCount(1);
  });

  test('destroy() leaves no element, listener or style behind', async ({ page }) => {
    const snapshot = async () => {
      const cdp = await page.context().newCDPSession(page);
      const count = async (expression: string) => {
        const { result } = await cdp.send('Runtime.evaluate', { expression });
        const { listeners } = await cdp.send('DOMDebugger.getEventListeners', {
          objectId: result.objectId!,
        });
        return listeners.map((l) => l.type).sort();
      };
      const state = {
        windowListeners: await count('window'),
        documentListeners: await count('document'),
        html: await page.evaluate(() =>
          document.documentElement.outerHTML.replace(
            /<script[^>]*docs-assistant\.js[^>]*><\/script>/,
            '',
          ),
        ),
      };
      await cdp.detach();
      return state;
    };
    // The same page without the script tag is the baseline.
    await page.route(`**${PAGE}`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        body: (await response.text()).replace(/<script[^>]*docs-assistant\.js[^>]*><\/script>/, ''),
      });
    });
    await page.goto(PAGE);
    const baseline = await snapshot();
    await page.unroute(`**${PAGE}`);
    await page.goto(PAGE);
    await launcher(page).click();
    await askQuestion(page, 'How do I install it?');
    await page.locator('main pre').first().hover();
    await page.evaluate(() => window.DocsAssistant.destroy());
    const after = await snapshot();
    expect(after.windowListeners).toEqual(baseline.windowListeners);
    expect(after.documentListeners).toEqual(baseline.documentListeners);
    expect(after.html).toBe(baseline.html);
  });

  test('hostile host CSS does not change how the widget looks', async ({ page }) => {
    const look = async () => {
      await launcher(page).waitFor();
      const launcherStyle = await launcher(page).evaluate((el) => {
        const s = getComputedStyle(el);
        return [
          s.fontFamily,
          s.fontSize,
          s.backgroundColor,
          s.color,
          el.getBoundingClientRect().width.toFixed(0),
        ];
      });
      await launcher(page).click();
      await input(page).waitFor();
      const dialogStyle = await page.locator('.da-dialog').evaluate((el) => {
        const pick = (node: Element) => {
          const s = getComputedStyle(node);
          return [s.fontFamily, s.fontSize, s.backgroundColor, s.color, s.lineHeight];
        };
        const rect = el.getBoundingClientRect();
        return [
          pick(el),
          pick(el.querySelector('.da-send')!),
          pick(el.querySelector('.da-input')!),
          [rect.width, rect.height].map(Math.round),
        ];
      });
      return { launcherStyle, dialogStyle };
    };
    await page.goto(PAGE);
    const clean = await look();
    await page.goto(PAGE);
    await page.addStyleTag({
      content:
        '* { font: 30px serif !important; letter-spacing: 3px !important; color: lime !important } button { background: red !important } div { padding: 40px !important }',
    });
    expect(await look()).toEqual(clean);
  });

  test('an admin key in data-api-key is refused with one console error and nothing is sent', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const asks = recordAsks(page);
    await page.route(`**${PAGE}`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        body: (await response.text()).replace(
          'data-api-key="svc_dsc_demo"',
          'data-api-key="svc_demo_admin"',
        ),
      });
    });
    await page.goto(PAGE);
    await page.waitForTimeout(300);
    expect(errors).toEqual([expect.stringContaining('admin key')]);
    expect(errors[0]).toContain('must stay on a server');
    await expect(launcher(page)).toHaveCount(0);
    await page.keyboard.press('Control+i');
    expect(asks).toHaveLength(0);
  });

  test('runs under a strict CSP with a nonce and talks to no other origin', async ({
    page,
    baseURL,
  }) => {
    const violations: string[] = [];
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        ((window as unknown as { __csp: string[] }).__csp ??= []).push(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    await page.route(`**${PAGE}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text())
        .replace('<style>', '<style nonce="n0nce">')
        // The docs page's own narrow-screen menu script, as an owner would nonce theirs.
        .replace('<script>', '<script nonce="n0nce">')
        .replace('<script src=', '<script nonce="n0nce" data-nonce="n0nce" src=')
        // The demo page's own icon is inline (data:), which this site's img-src refuses; what is
        // under test is the widget, as on an owner's page with its own icon.
        .replace(/<link rel="icon"[^>]*>/, '');
      await route.fulfill({
        response,
        body,
        headers: {
          ...response.headers(),
          'content-security-policy':
            "default-src 'none'; script-src 'nonce-n0nce'; style-src 'nonce-n0nce'; connect-src 'self'; img-src 'self'; base-uri 'none'",
        },
      });
    });
    await page.goto(PAGE);
    await launcher(page).click();
    await askQuestion(page, 'How do I install it?');
    await page.locator('main pre').first().hover();
    violations.push(
      ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
    );
    expect(violations).toEqual([]);
    expect([...origins]).toEqual([baseURL]);
  });

  test('has no axe-core violations, light and dark', async ({ page }) => {
    for (const theme of ['light', 'dark']) {
      await page.goto(PAGE);
      await page.evaluate(
        (t) =>
          window.DocsAssistant.init({
            domain: 'demo',
            baseUrl: location.origin,
            apiKey: 'svc_dsc_demo',
            theme: t,
            starterQuestions: ['How do I install it?'],
          }),
        theme,
      );
      await launcher(page).click();
      await askQuestion(page, 'How do I install it?');
      const violations = await axeViolations(page, 'docs-assistant-root');
      expect(violations, theme).toEqual([]);
    }
  });

  test('fills a phone screen with a 16 px input', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 700 });
    await page.goto(PAGE);
    await launcher(page).click();
    // Once its opening animation has settled.
    await expect
      .poll(() => page.locator('.da-dialog').boundingBox())
      .toEqual({ x: 0, y: 0, width: 375, height: 700 });
    expect(await input(page).evaluate((el) => getComputedStyle(el).fontSize)).toBe('16px');
    await askQuestion(page, 'How do I install it?');
    // The reader did not scroll: the question stays at the top and the answer is read from its
    // start, though it runs past the screen.
    const scroller = page.locator('.da-scroll');
    expect(await scroller.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    const question = page.locator('.da-message[data-role="user"]').last();
    const top = async () =>
      Math.round((await question.boundingBox())!.y - (await scroller.boundingBox())!.y);
    await expect.poll(top).toBeGreaterThanOrEqual(0);
    expect(await top()).toBeLessThanOrEqual(24);
    expect(
      await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight),
    ).toBeGreaterThan(2);
    await page.screenshot({ path: 'e2e/screenshots/docs-phone.png' });
  });
});

test.describe('React import', () => {
  test('asks and gets a cited answer; code blocks get Ask AI through usePageContext', async ({
    page,
  }) => {
    const asks = recordAsks(page);
    await page.goto('/react/guides/react');
    const block = page.locator('main pre').first();
    await block.hover();
    await page.getByRole('button', { name: 'Ask AI: code block' }).click();
    await expect(dialog(page)).toBeVisible();
    await askQuestion(page, 'What does this import?');
    await expect(answers(page).first().locator('div.da-sources a').first()).toHaveAttribute(
      'href',
      /\/react\/|\/docs\//,
    );
    expect(asks[0]!.body.context).toEqual([
      expect.objectContaining({ type: 'code', path: '/react/guides/react' }),
    ]);
    expect(asks[0]!.request.url()).toContain(ASSISTANT_PATH);
  });
});

test('screenshots of the gallery and the docs page', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await expect(page.locator('iframe')).toHaveCount(24);
  // Each frame is its own page: wait until every one has drawn its dialog.
  for (const frame of page.frames().slice(1)) await frame.locator('.da-dialog').waitFor();
  await page.waitForTimeout(1000);
  await page.screenshot({ path: 'e2e/screenshots/gallery.png', fullPage: true });
  await page.goto(PAGE);
  await launcher(page).click();
  await askQuestion(page, 'How do I attach a code block?');
  await page.screenshot({ path: 'e2e/screenshots/docs.png' });
});
