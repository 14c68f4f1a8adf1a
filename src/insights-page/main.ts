// The owner's insights page (served at /insights). The admin key the owner types stays in this
// module's memory: never in the URL, storage or a cookie, and gone with the tab. Every text that
// came from a reader is set as textContent, never as HTML.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './insights.css';
import { createInsightsClient, type InsightsClient } from '../client/insights.js';
import type { AssistantError } from '../client/errors.js';
import type { InsightsReport } from '../protocol/insights.js';

type Outcome = 'answered' | 'unsure' | 'refused' | 'failed' | 'stopped';
const OUTCOMES: { key: Outcome; label: string; color: string }[] = [
  { key: 'answered', label: 'Answered', color: '#2563eb' },
  { key: 'unsure', label: 'Unsure', color: '#60a5fa' },
  { key: 'refused', label: 'Not covered', color: '#d97706' },
  { key: 'failed', label: 'Failed', color: '#dc2626' },
  { key: 'stopped', label: 'Stopped', color: '#9ca3af' },
];
const OUTCOME_LABEL = Object.fromEntries(OUTCOMES.map((o) => [o.key, o.label])) as Record<
  Outcome,
  string
>;
const REASON_LABEL: Record<string, string> = {
  incorrect: 'Incorrect or outdated',
  unrelated: 'Did not answer the question',
  sources: 'Missing or wrong sources',
  unclear: 'Hard to understand',
};

const root = document.getElementById('insights')!;
const domains = (root.dataset.domains ?? '').split(' ').filter(Boolean);
let session: { client: InsightsClient; domain: string } | undefined;
const charts: uPlot[] = [];

/** An element with attributes and children; strings become text nodes, never markup. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: (Node | string | undefined)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== undefined) element.append(child);
  return element;
}

const numberFormat = new Intl.NumberFormat();
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const percent = (part: number, whole: number) =>
  whole ? `${Math.round((part / whole) * 100)}%` : '—';

// ---- the key form ------------------------------------------------------------------------------

function showLogin(message?: string) {
  session = undefined;
  destroyCharts();
  root.dataset.state = 'locked';
  const key = h('input', {
    id: 'admin-key',
    name: 'admin-key',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    placeholder: 'svc_…',
    'aria-describedby': 'admin-key-help',
  });
  const domain = h('input', {
    id: 'domain',
    name: 'domain',
    required: true,
    value: domains[0] ?? '',
    list: domains.length > 1 ? 'domains' : undefined,
  });
  const range = h(
    'select',
    { id: 'range', name: 'range' },
    h('option', { value: '7' }, 'Last 7 days'),
    h('option', { value: '30', selected: true }, 'Last 30 days'),
    h('option', { value: '90' }, 'Last 90 days'),
  );
  const form = h(
    'form',
    { class: 'da-insights-login', 'aria-labelledby': 'login-title' },
    h('h2', { id: 'login-title' }, 'Sign in with your admin key'),
    message ? h('p', { class: 'da-insights-error', role: 'alert' }, message) : undefined,
    h('label', { for: 'admin-key' }, 'Admin key'),
    key,
    h(
      'p',
      { id: 'admin-key-help', class: 'da-insights-help' },
      'Kept in this tab’s memory only: never saved, never in the address. Closing the tab forgets it.',
    ),
    h('label', { for: 'domain' }, 'Docs site (domain)'),
    domain,
    domains.length > 1
      ? h('datalist', { id: 'domains' }, ...domains.map((d) => h('option', { value: d })))
      : undefined,
    h('label', { for: 'range' }, 'Period'),
    range,
    h('button', { type: 'submit' }, 'Show insights'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let client: InsightsClient;
    try {
      client = createInsightsClient({ baseUrl: location.origin, adminKey: key.value.trim() });
    } catch (error) {
      return showLogin((error as Error).message);
    }
    session = { client, domain: domain.value.trim() };
    key.value = '';
    void load(Number(range.value));
  });
  root.replaceChildren(header(), form);
  key.focus();
}

function header(...actions: Node[]) {
  return h(
    'header',
    { class: 'da-insights-header' },
    h(
      'div',
      {},
      h('h1', {}, 'Assistant insights'),
      h(
        'p',
        {},
        'What readers ask, what the assistant could not answer, and which pages need work.',
      ),
    ),
    ...actions,
  );
}

// ---- the report --------------------------------------------------------------------------------

async function load(days: number) {
  if (!session) return showLogin();
  root.dataset.state = 'loading';
  root.setAttribute('aria-busy', 'true');
  const until = new Date();
  const since = new Date(until.getTime() - days * 86_400_000);
  try {
    const report = await session.client.report(session.domain, {
      since: since.toISOString(),
      until: until.toISOString(),
    });
    showReport(report, days);
  } catch (error) {
    const e = error as AssistantError;
    showLogin(
      e.code === 'unauthorized' || e.code === 'wrong_key_type' || e.code === 'forbidden'
        ? `That key cannot read the insights of “${session.domain}”: ${e.message}`
        : e.message,
    );
  } finally {
    root.removeAttribute('aria-busy');
  }
}

function showReport(report: InsightsReport, days: number) {
  destroyCharts();
  root.dataset.state = 'ready';
  const { totals, feedback } = report;
  const range = h(
    'select',
    { id: 'report-range', 'aria-label': 'Period' },
    ...[7, 30, 90].map((n) =>
      h('option', { value: String(n), selected: n === days }, `Last ${n} days`),
    ),
  );
  range.addEventListener('change', () => void load(Number(range.value)));
  const signOut = h('button', { type: 'button', class: 'da-insights-quiet' }, 'Forget key');
  signOut.addEventListener('click', () => showLogin());
  const answered = totals.answered + totals.unsure;

  const summary = h(
    'dl',
    { class: 'da-insights-cards' },
    ...[
      ['Questions', numberFormat.format(totals.questions)],
      ['Answer rate', percent(answered, totals.questions)],
      ['Not covered', numberFormat.format(totals.refused)],
      ['Failed', numberFormat.format(totals.failed)],
      ['Thumbs', `${feedback.up} up · ${feedback.down} down`],
    ].map(([term, value]) => h('div', {}, h('dt', {}, term!), h('dd', {}, value!))),
  );

  const perDay = section('Questions per day', 'questions-chart');
  const rate = section('Answer rate', 'rate-chart');
  const thumbs = section('Thumbs up and down', 'thumbs-chart');

  root.replaceChildren(
    header(h('div', { class: 'da-insights-actions' }, range, signOut)),
    h(
      'p',
      { class: 'da-insights-range' },
      `${report.domain} · ${dateFormat.format(new Date(report.since))} to ${dateFormat.format(new Date(report.until))}`,
    ),
    summary,
    h('div', { class: 'da-insights-charts' }, perDay.element, rate.element, thumbs.element),
    unansweredTable(report),
    gapsTable(report),
    feedbackTable(report),
  );

  const x = report.days.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000);
  stackedBars(
    perDay.plot,
    'Questions per day by outcome',
    x,
    OUTCOMES.map((o) => ({ ...o, counts: report.days.map((day) => day[o.key]) })),
  );
  const rates = report.days.map((day) => {
    const asked = OUTCOMES.reduce((sum, o) => sum + day[o.key], 0);
    return asked ? Math.round(((day.answered + day.unsure) / asked) * 100) : null;
  });
  chart(
    rate.plot,
    'Answer rate per day',
    [x, rates],
    [
      {
        label: 'Answered (%)',
        stroke: OUTCOMES[0]!.color,
        width: 2,
        spanGaps: true,
        value: (_u: uPlot, v: number | null) => (v === null ? '—' : `${v}%`),
      },
    ],
    { y: { range: [0, 100] } },
  );
  const up = report.days.map(() => 0);
  const down = report.days.map(() => 0);
  for (const item of feedback.items) {
    const i = report.days.findIndex((day) => day.day === item.at.slice(0, 10));
    if (i >= 0) (item.rating === 'up' ? up : down)[i]!++;
  }
  stackedBars(thumbs.plot, 'Thumbs up and down per day', x, [
    { label: 'Up', color: '#16a34a', counts: up },
    { label: 'Down', color: '#dc2626', counts: down },
  ]);
}

/**
 * Stacked bars, one layer per series: each is drawn as the sum of itself and the layers below it,
 * tallest first, so every layer shows as its own band; the legend shows the layer's own count. An
 * empty band is null, not 0: a zero-height bar still draws a line.
 */
function stackedBars(
  target: HTMLElement,
  title: string,
  x: number[],
  layers: { label: string; color: string; counts: number[] }[],
) {
  const sums = layers.map((layer, i) =>
    layer.counts.map((n, day) =>
      n ? layers.slice(0, i + 1).reduce((sum, below) => sum + below.counts[day]!, 0) : null,
    ),
  );
  const bars = uPlot.paths.bars!({ size: [0.7, 48] });
  const drawn = layers.map((layer, i) => ({ layer, sums: sums[i]! })).reverse();
  chart(
    target,
    title,
    [x, ...drawn.map((d) => d.sums)],
    drawn.map(({ layer }) => ({
      label: layer.label,
      fill: layer.color,
      stroke: layer.color,
      paths: bars,
      points: { show: false },
      value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) =>
        idx === null ? '—' : String(layer.counts[idx] ?? 0),
    })),
  );
}

function section(title: string, id: string) {
  const plot = h('div', { class: 'da-insights-plot', id });
  const element = h(
    'section',
    { class: 'da-insights-chart', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    plot,
  );
  return { element, plot };
}

const css = (name: string) => getComputedStyle(root).getPropertyValue(name).trim();

function chart(
  target: HTMLElement,
  title: string,
  data: (number | null)[][],
  series: uPlot.Series[],
  scales: uPlot.Scales = {},
) {
  const ink = css('--da-insights-muted') || '#555';
  const grid = css('--da-insights-grid') || '#ddd';
  const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const options: uPlot.Options = {
    width: Math.max(240, target.clientWidth),
    height: 220,
    scales: {
      x: { time: true },
      y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      ...scales,
    },
    axes: [
      axis,
      {
        ...axis,
        size: 44,
        values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')),
      },
    ],
    series: [
      { label: 'Day', value: (_u, v) => (v ? dateFormat.format(new Date(v * 1000)) : '—') },
      ...series,
    ],
    cursor: { points: { show: false } },
    legend: { live: true },
  };
  const plot = new uPlot(options, data as uPlot.AlignedData, target);
  // The canvas is a picture: the legend below it and the tables carry the figures in text.
  plot.root.querySelector('canvas')?.setAttribute('role', 'img');
  plot.root.querySelector('canvas')?.setAttribute('aria-label', title);
  charts.push(plot);
  new ResizeObserver(() => {
    if (target.isConnected) plot.setSize({ width: Math.max(240, target.clientWidth), height: 220 });
  }).observe(target);
}

function destroyCharts() {
  for (const plot of charts.splice(0)) plot.destroy();
}

// ---- sortable tables ---------------------------------------------------------------------------

interface Column<T> {
  label: string;
  /** What the column sorts by. */
  sort: (row: T) => string | number;
  cell: (row: T) => Node | string;
  numeric?: boolean;
}

function table<T>(
  id: string,
  title: string,
  note: string,
  rows: T[],
  columns: Column<T>[],
  empty: string,
) {
  const body = h('tbody');
  const heads = columns.map((column) =>
    h('th', { scope: 'col', class: column.numeric ? 'da-insights-num' : undefined }),
  );
  let sortBy = 0;
  let descending = true;
  const render = () => {
    const column = columns[sortBy]!;
    const sorted = rows.slice().sort((a, b) => {
      const x = column.sort(a);
      const y = column.sort(b);
      const order =
        typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return descending ? -order : order;
    });
    body.replaceChildren(
      ...sorted.map((row) =>
        h(
          'tr',
          {},
          ...columns.map((c) =>
            h('td', { class: c.numeric ? 'da-insights-num' : undefined }, c.cell(row)),
          ),
        ),
      ),
    );
    heads.forEach((th, i) => {
      th.setAttribute(
        'aria-sort',
        i === sortBy ? (descending ? 'descending' : 'ascending') : 'none',
      );
    });
  };
  heads.forEach((th, i) => {
    const button = h('button', { type: 'button' }, columns[i]!.label);
    button.addEventListener('click', () => {
      descending = sortBy === i ? !descending : true;
      sortBy = i;
      render();
    });
    th.append(button);
  });
  render();
  return h(
    'section',
    { class: 'da-insights-table', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    h('p', { class: 'da-insights-help' }, note),
    rows.length
      ? h(
          'div',
          {
            class: 'da-insights-scroll',
            // Focusable so a keyboard can scroll it sideways on a phone; named apart from its section.
            tabindex: '0',
            role: 'region',
            'aria-label': `${title} (table)`,
          },
          h(
            'table',
            { id, 'aria-labelledby': `${id}-title` },
            h('thead', {}, h('tr', {}, ...heads)),
            body,
          ),
        )
      : h('p', { class: 'da-insights-empty' }, empty),
  );
}

/** A question as a button that opens its conversation (when the turn had a thread). */
function questionLink(text: string, threadId: string | undefined) {
  if (!threadId) return text;
  const button = h('button', { type: 'button', class: 'da-insights-link' }, text);
  button.addEventListener('click', () => void openThread(threadId, button, text));
  return button;
}

const pagesCell = (pages: { path: string; count: number }[]) =>
  pages.length
    ? pages.map((p) => (p.count > 1 ? `${p.path} (${p.count})` : p.path)).join(', ')
    : '—';

function unansweredTable(report: InsightsReport) {
  return table(
    'unanswered',
    'Unanswered questions',
    'Not covered, failed or unsure answers, grouped by similar wording. Open a question to read its conversation.',
    report.unanswered,
    [
      { label: 'Asked', sort: (r) => r.count, cell: (r) => String(r.count), numeric: true },
      {
        label: 'Question',
        sort: (r) => r.example,
        cell: (r) => questionLink(r.example, r.threadIds.at(-1)),
      },
      {
        label: 'Outcome',
        sort: (r) => r.outcomes.join(),
        cell: (r) => r.outcomes.map((o) => OUTCOME_LABEL[o]).join(', '),
      },
      {
        label: 'Pages readers were on',
        sort: (r) => r.pages[0]?.path ?? '',
        cell: (r) => pagesCell(r.pages),
      },
      {
        label: 'Last asked',
        sort: (r) => r.lastAsked,
        cell: (r) => dateFormat.format(new Date(r.lastAsked)),
      },
    ],
    report.totals.questions
      ? 'Every question in this period got an answer.'
      : 'No questions were asked in this period.',
  );
}

function gapsTable(report: InsightsReport) {
  const cited = new Map(report.citedPages.map((page) => [page.path, page.count]));
  return table(
    'gaps',
    'Docs gaps by page',
    'Pages readers asked from when the answer fell short, and how often answers cited each page.',
    report.gapPages,
    [
      { label: 'Asked', sort: (r) => r.count, cell: (r) => String(r.count), numeric: true },
      { label: 'Page', sort: (r) => r.path, cell: (r) => r.path },
      { label: 'For example', sort: (r) => r.example, cell: (r) => r.example },
      {
        label: 'Cited',
        sort: (r) => cited.get(r.path) ?? 0,
        cell: (r) => String(cited.get(r.path) ?? 0),
        numeric: true,
      },
    ],
    'No page stands out: readers were not on a page, or every answer held.',
  );
}

function feedbackTable(report: InsightsReport) {
  return table(
    'feedback',
    'Feedback',
    'Thumbs up and down from readers, with what they said was wrong.',
    report.feedback.items,
    [
      { label: 'When', sort: (r) => r.at, cell: (r) => timeFormat.format(new Date(r.at)) },
      {
        label: 'Rating',
        sort: (r) => r.rating,
        cell: (r) => (r.rating === 'up' ? 'Helpful' : 'Not helpful'),
      },
      {
        label: 'Question',
        sort: (r) => r.question ?? '',
        cell: (r) => questionLink(r.question ?? 'Open the conversation', r.threadId),
      },
      {
        label: 'Reasons',
        sort: (r) => r.reasons.join(),
        cell: (r) => r.reasons.map((x) => REASON_LABEL[x] ?? x).join(', ') || '—',
      },
      { label: 'Comment', sort: (r) => r.comment ?? '', cell: (r) => r.comment ?? '—' },
    ],
    'No reader has rated an answer in this period.',
  );
}

// ---- a conversation ----------------------------------------------------------------------------

/** Opens a conversation, scrolled to the turn that asked `question` (the one the owner clicked). */
async function openThread(threadId: string, opener: HTMLElement, question: string) {
  if (!session) return;
  const close = h('button', { type: 'button', class: 'da-insights-quiet' }, 'Close');
  const content = h(
    'div',
    { class: 'da-insights-thread' },
    h('p', {}, 'Loading the conversation…'),
  );
  const dialog = h(
    'dialog',
    { class: 'da-insights-dialog', 'aria-labelledby': 'thread-title' },
    h(
      'div',
      { class: 'da-insights-dialog-head' },
      h('h2', { id: 'thread-title' }, 'Conversation'),
      close,
    ),
    content,
  );
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    opener.focus();
  });
  // Inside the page's root, so its theme (custom properties) reaches the dialog.
  root.append(dialog);
  dialog.showModal();
  try {
    const thread = await session.client.thread(session.domain, threadId);
    content.replaceChildren(
      h(
        'p',
        { class: 'da-insights-help' },
        `Started ${timeFormat.format(new Date(thread.createdAt))} · ${thread.threadId}`,
      ),
      ...thread.turns.flatMap((turn) => [
        h(
          'div',
          {
            class: 'da-insights-turn',
            'data-role': 'user',
            'data-current': turn.question === question || undefined,
          },
          h('h3', {}, 'Reader'),
          h('p', {}, turn.question),
        ),
        h(
          'div',
          { class: 'da-insights-turn', 'data-role': 'assistant' },
          h('h3', {}, 'Assistant'),
          h('p', {}, turn.answer),
          turn.sources.length
            ? h('p', { class: 'da-insights-help' }, `Sources: ${turn.sources.join(', ')}`)
            : undefined,
        ),
      ]),
    );
    if (thread.turns.length === 0)
      content.replaceChildren(h('p', {}, 'This conversation has no saved answers.'));
    content.querySelector('[data-current]')?.scrollIntoView({ block: 'start' });
  } catch (error) {
    content.replaceChildren(
      h('p', { class: 'da-insights-error', role: 'alert' }, (error as Error).message),
    );
  }
}

showLogin();
