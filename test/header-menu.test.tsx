// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FRENCH } from './fixtures/translations-fr.js';
import { demoApp, type TestApp } from './helpers/server.js';
import { ask, lastAnswer, renderWidget, waitForIdle } from './helpers/widget.js';

let app: TestApp;
const requested: string[] = [];
/** The real reference server, in-process, for the assistant and for the page's Markdown alike. */
const serverFetch = ((url: string | URL | Request, init?: RequestInit) => {
  requested.push(`${init?.method ?? 'GET'} ${String(url)}`);
  return app.request(String(url), init);
}) as typeof fetch;

/** The page the widget sits on advertises its Markdown, as the reference server's pages do. */
function onPageWithMarkdown(href: string) {
  const link = document.createElement('link');
  link.rel = 'alternate';
  link.type = 'text/markdown';
  link.href = href;
  document.head.append(link);
}

beforeEach(async () => {
  app ??= await demoApp();
  localStorage.clear();
  requested.length = 0;
});
afterEach(() => {
  cleanup();
  document.head.querySelectorAll('link[type="text/markdown"]').forEach((link) => link.remove());
});

const menuItems = () =>
  within(screen.getByRole('menu', { name: 'More actions' }))
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

describe('the header menu', () => {
  it('copies the conversation as Markdown, each answer with the sources it cites', async () => {
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch });
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    const empty = screen.getByRole('menuitem', { name: 'Copy conversation as Markdown' });
    expect(empty.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Escape}');

    await ask('How do I install it from npm?');
    await waitForIdle();
    const shownSources = within(
      within(lastAnswer()).getByRole('group', { name: 'Sources' }),
    ).getAllByRole('link');
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Copy conversation as Markdown' }));
    const copied = await navigator.clipboard.readText();
    expect(copied).toMatch(/^## You\n\nHow do I install it from npm\?\n\n## Assistant\n\n/);
    expect(copied).toContain('npm install docs-assistant');
    expect(copied).toContain('**Sources**');
    for (const link of shownSources)
      expect(copied).toContain(`](${link.getAttribute('href')!.replace(/#.*$/, '')})`);
    expect(screen.getByText('Conversation copied as Markdown').getAttribute('aria-live')).toBe(
      'polite',
    );
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('copies a refused answer without sources', async () => {
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch });
    await ask('Does it support single sign-on with SAML?');
    await waitForIdle();
    expect(lastAnswer().dataset.confidence).toBe('refused');
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Copy conversation as Markdown' }));
    const copied = await navigator.clipboard.readText();
    expect(copied).toContain("The docs don't cover this.");
    expect(copied).not.toContain('**Sources**');
  });

  it('offers Copy page as Markdown only when the owner turns it on', async () => {
    onPageWithMarkdown('http://test/docs/guides/react.md');
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch });
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    expect(menuItems()).toEqual(['Copy conversation as Markdown']);
    expect(requested).toEqual([]);
  });

  it("copies the page's own Markdown from the docs when the script tag's check finds it", async () => {
    onPageWithMarkdown('http://test/docs/guides/react.md');
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch, pageMarkdown: 'check' });
    await waitFor(() => expect(requested).toContain('HEAD http://test/docs/guides/react.md'));
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await waitFor(() =>
      expect(menuItems()).toEqual(['Copy page as Markdown', 'Copy conversation as Markdown']),
    );
    await user.click(screen.getByRole('menuitem', { name: 'Copy page as Markdown' }));
    const served = await (await app.request('http://test/docs/guides/react.md')).text();
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(served));
    expect(served).toMatch(/^# /);
    expect(screen.getByText('Page copied as Markdown').getAttribute('aria-live')).toBe('polite');
  });

  it('leaves Copy page out when the page has no Markdown', async () => {
    onPageWithMarkdown('http://test/docs/no-such-page.md');
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch, pageMarkdown: 'check' });
    await waitFor(() => expect(requested).toContain('HEAD http://test/docs/no-such-page.md'));
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    expect(menuItems()).toEqual(['Copy conversation as Markdown']);
  });

  it('guesses no .md for a page that does not advertise one, so a host site logs no 404', async () => {
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch, pageMarkdown: 'check' });
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    expect(menuItems()).toEqual(['Copy conversation as Markdown']);
    await ask('How do I install it from npm?');
    await waitForIdle();
    expect(requested.filter((request) => /\.md\b/.test(request))).toEqual([]);
    expect(requested.length).toBeGreaterThan(0);
  });

  it('works from the keyboard, and Escape closes the menu but not the dialog', async () => {
    onPageWithMarkdown('http://test/docs/guides/react.md');
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch, pageMarkdown: true });
    const trigger = screen.getByRole('button', { name: 'More actions' });
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('menuitem', { name: 'Copy page as Markdown' }),
      ),
    );
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    // The disabled conversation item is skipped: the page item is the only stop.
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Copy page as Markdown');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(document.activeElement).toBe(trigger);
  });

  it('speaks the reader’s language', async () => {
    onPageWithMarkdown('http://test/docs/guides/react.md');
    const user = userEvent.setup();
    renderWidget({ fetch: serverFetch, pageMarkdown: true, translations: FRENCH });
    await user.click(screen.getByRole('button', { name: 'Plus d’actions' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Copier la page en Markdown', 'Copier la conversation en Markdown']);
  });
});
