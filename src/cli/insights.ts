import { createInsightsClient, type InsightsReport } from '../client/insights.js';
import { adminSettings, reportError } from './admin.js';
import { EXIT, stringOption, UsageError, type CliIo, type OptionValues } from './io.js';

export const INSIGHTS_USAGE = `Usage: docs-assistant insights --domain <domain> [options]

Shows what readers asked the assistant of one docs site: the questions it could not answer
(grouped by similar wording, most asked first), the pages readers asked from when it failed,
the pages it cited most, and the thumbs up and down with their reasons.

Options:
  --domain D        Site to report on (required)
  --since WHEN      Start of the range: 30d, 12w, 24h, or a date (2026-11-01) (default: 30d)
  --until WHEN      End of the range, the same forms (default: now)
  --base-url URL    API root (default: $DOCS_ASSISTANT_BASE_URL or http://127.0.0.1:4321)
  --json            The whole report as JSON
  --csv             One CSV table (kind, count, text, pages, detail, thread) for a spreadsheet

The admin key is read from DOCS_ASSISTANT_ADMIN_KEY, never from a flag. The same figures are
on the server's /insights page.`;

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

/** `30d`, `12w`, `24h` (before `now`) or a date / ISO time, as an ISO time. */
export function parseWhen(value: string, flag: string, now: number): string {
  const relative = /^(\d{1,4})([hdw])$/.exec(value.trim());
  if (relative)
    return new Date(
      now - Number(relative[1]) * UNIT_MS[relative[2] as 'h' | 'd' | 'w'],
    ).toISOString();
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time))
    throw new UsageError(`${flag} takes 30d, 12w, 24h or a date like 2026-11-01, got "${value}".`);
  return new Date(time).toISOString();
}

const csvCell = (value: string | number) => {
  const text = String(value);
  // A cell a spreadsheet would run as a formula (=, +, -, @) is written as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** Every list of the report as rows of one table. */
export function reportCsv(report: InsightsReport): string {
  const rows: (string | number)[][] = [['kind', 'count', 'text', 'pages', 'detail', 'thread']];
  for (const day of report.days)
    rows.push([
      'day',
      day.answered + day.unsure + day.refused + day.failed + day.stopped,
      day.day,
      '',
      `answered ${day.answered}; unsure ${day.unsure}; refused ${day.refused}; failed ${day.failed}; stopped ${day.stopped}`,
      '',
    ]);
  for (const group of report.unanswered)
    rows.push([
      'unanswered',
      group.count,
      group.example,
      group.pages.map((page) => page.path).join(' '),
      group.outcomes.join(' '),
      group.threadIds.at(-1) ?? '',
    ]);
  for (const gap of report.gapPages)
    rows.push(['gap_page', gap.count, gap.path, '', gap.example, '']);
  for (const page of report.citedPages)
    rows.push(['cited_page', page.count, page.path, '', '', '']);
  for (const item of report.feedback.items)
    rows.push([
      `feedback_${item.rating}`,
      1,
      item.question ?? '',
      '',
      [item.reasons.join(' '), item.comment ?? ''].filter(Boolean).join(': '),
      item.threadId,
    ]);
  return rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

/** Fixed-width columns; the last column is cut to the terminal's width. */
function table(headers: string[], rows: string[][], width: number): string[] {
  if (rows.length === 0) return ['  (none)'];
  const widths = headers.map((header, i) =>
    Math.min(40, Math.max(header.length, ...rows.map((row) => row[i]!.length))),
  );
  const fit = (cells: string[]) => {
    const line = cells
      .map((cell, i) => {
        const w = widths[i]!;
        const cut = cell.length > w && i < cells.length - 1 ? `${cell.slice(0, w - 1)}…` : cell;
        return i === cells.length - 1 ? cut : cut.padEnd(w);
      })
      .join('  ');
    return `  ${line.length > width - 2 ? `${line.slice(0, width - 3)}…` : line}`;
  };
  return [fit(headers), fit(widths.map((w) => '─'.repeat(w))), ...rows.map(fit)];
}

/** The report as the terminal shows it: totals, then the lists, top unanswered first. */
export function reportText(report: InsightsReport, width = 100): string {
  const { totals, feedback } = report;
  const answered = totals.answered + totals.unsure;
  const rate = totals.questions ? Math.round((answered / totals.questions) * 100) : 0;
  const lines = [
    `Insights for ${report.domain}, ${report.since.slice(0, 10)} to ${report.until.slice(0, 10)}`,
    '',
    `  ${totals.questions} questions: ${totals.answered} answered, ${totals.unsure} unsure, ${totals.refused} not covered, ${totals.failed} failed, ${totals.stopped} stopped (answer rate ${rate}%)`,
    `  Feedback: ${feedback.up} up, ${feedback.down} down${
      Object.keys(feedback.reasons).length
        ? ` (${Object.entries(feedback.reasons)
            .map(([reason, count]) => `${reason} ${count}`)
            .join(', ')})`
        : ''
    }`,
    '',
    'Unanswered questions',
    ...table(
      ['Asked', 'Question', 'Outcome', 'Pages'],
      report.unanswered.map((group) => [
        String(group.count),
        group.example,
        group.outcomes.join(', '),
        group.pages.map((page) => page.path).join(' ') || '—',
      ]),
      width,
    ),
    '',
    'Docs gaps by page (asked from when the answer fell short)',
    ...table(
      ['Asked', 'Page', 'For example'],
      report.gapPages.map((gap) => [String(gap.count), gap.path, gap.example]),
      width,
    ),
    '',
    'Most cited pages',
    ...table(
      ['Cited', 'Page'],
      report.citedPages.slice(0, 20).map((page) => [String(page.count), page.path]),
      width,
    ),
    '',
    'Feedback',
    ...table(
      ['Rating', 'Reasons', 'Question', 'Comment', 'Thread'].slice(0, 5),
      feedback.items.map((item) => [
        item.rating === 'up' ? 'up' : 'down',
        item.reasons.join(', ') || '—',
        item.question ?? '—',
        item.comment ?? '—',
        item.threadId,
      ]),
      width,
    ),
    '',
  ];
  return lines.join('\n');
}

export async function runInsights(values: OptionValues, io: CliIo): Promise<number> {
  const domain = stringOption(values.domain);
  if (!domain) throw new UsageError('--domain is required: the site to report on.');
  if (values.json && values.csv) throw new UsageError('Give --json or --csv, not both.');
  const now = Date.now();
  const since = parseWhen(stringOption(values.since) ?? '30d', '--since', now);
  const untilOption = stringOption(values.until);
  const until = untilOption ? parseWhen(untilOption, '--until', now) : undefined;
  const { adminKey, baseUrl } = adminSettings(values, io);
  const client = createInsightsClient({
    baseUrl,
    adminKey,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });
  let report: InsightsReport;
  try {
    report = await client.report(domain, { since, ...(until ? { until } : {}) });
  } catch (error) {
    return reportError(error, io, baseUrl);
  }
  if (values.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (values.csv) io.stdout.write(reportCsv(report));
  else io.stdout.write(reportText(report, (io.stdout as { columns?: number }).columns ?? 100));
  return EXIT.ok;
}
