import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { reportCsv } from '../src/cli/insights.js';
import { insightsReportSchema } from '../src/protocol/index.js';
import { DEMO } from '../src/server/config.js';
import { buildReport } from '../src/server/insights/report.js';
import { captureIo } from './helpers/cli.js';
import { insightTurn } from './helpers/insight-store.js';
import { demoApp, type TestApp } from './helpers/server.js';

function io(
  app: TestApp,
  env: Record<string, string> = { DOCS_ASSISTANT_ADMIN_KEY: DEMO.adminKey },
) {
  const run = captureIo(env);
  run.io.fetch = ((url: string, init?: RequestInit) => app.request(url, init)) as typeof fetch;
  return run;
}

/** An app whose recorder has kept a few settled turns (as the answering side reports them). */
async function appWithTurns() {
  const app = await demoApp();
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const settle = (
    question: string,
    outcome: 'answered' | 'refused' | 'failed',
    currentPath?: string,
  ) =>
    app.insights.record({
      domain: DEMO.domain,
      question,
      outcome,
      mode: 'quoted',
      cited: outcome === 'answered' ? ['installation'] : [],
      currentPath,
      threadId: '01JD8X3K2M0000000000000001',
      at,
      firstByteMs: 5,
      totalMs: 20,
    });
  settle('How do I install it?', 'answered', 'index');
  settle('Does it work with Svelte?', 'refused', 'installation');
  settle('svelte support', 'refused', 'installation');
  settle('Can I self-host behind nginx?', 'failed', 'deployment');
  await app.insights.settled();
  return app;
}

const args = (...rest: string[]) => [
  'insights',
  '--base-url',
  'http://test',
  '--domain',
  'demo',
  ...rest,
];

describe('docs-assistant insights', () => {
  it('prints the totals and the top unanswered questions first, grouped, with the pages readers were on', async () => {
    const app = await appWithTurns();
    const run = io(app);
    expect(await runCli(args(), run.io)).toBe(0);
    expect(run.out).toContain(
      '4 questions: 1 answered, 0 unsure, 2 not covered, 1 failed, 0 stopped (answer rate 25%)',
    );
    const unanswered = run.out.slice(
      run.out.indexOf('Unanswered questions'),
      run.out.indexOf('Docs gaps'),
    );
    const rows = unanswered.split('\n').filter((line) => /^\s+\d/.test(line));
    expect(rows[0]).toMatch(
      /^\s+2\s+svelte support\s+Not covered|^\s+2\s+svelte support\s+refused/,
    );
    expect(rows[0]).toContain('installation');
    expect(rows[1]).toMatch(/^\s+1\s+Can I self-host behind nginx\?/);
  });

  it('gives the whole report as JSON, and as one CSV table for a spreadsheet', async () => {
    const app = await appWithTurns();
    const json = io(app);
    expect(await runCli(args('--json', '--since', '7d'), json.io)).toBe(0);
    const report = insightsReportSchema.parse(JSON.parse(json.out));
    expect(report.totals).toMatchObject({ questions: 4, refused: 2 });
    const csv = io(app);
    expect(await runCli(args('--csv'), csv.io)).toBe(0);
    const lines = csv.out.trim().split('\n');
    expect(lines[0]).toBe('kind,count,text,pages,detail,thread');
    expect(lines).toContain(
      'unanswered,2,svelte support,installation,refused,01JD8X3K2M0000000000000001',
    );
    expect(lines).toContain('gap_page,2,installation,,Does it work with Svelte?,');
  });

  it('writes a cell a spreadsheet would run as a formula as text', () => {
    const report = buildReport(
      'demo',
      { since: '2026-11-20T00:00:00.000Z', until: '2026-11-21T00:00:00.000Z' },
      [insightTurn({ question: '=HYPERLINK("http://evil","click")', outcome: 'refused' })],
      [],
    );
    expect(reportCsv(report)).toContain(`"'=HYPERLINK(""http://evil"",""click"")"`);
  });

  it('says what is wrong with how it was called, and sends nothing', async () => {
    const app = await appWithTurns();
    for (const [argv, message] of [
      [['insights', '--base-url', 'http://test'], '--domain is required'],
      [args('--since', 'last week'), '--since takes 30d, 12w, 24h or a date'],
      [args('--json', '--csv'), 'Give --json or --csv, not both.'],
    ] as const) {
      const run = io(app);
      expect(await runCli([...argv], run.io)).toBe(2);
      expect(run.err).toContain(message);
    }
    const noKey = io(app, {});
    expect(await runCli(args(), noKey.io)).toBe(2);
    expect(noKey.err).toContain('DOCS_ASSISTANT_ADMIN_KEY');
  });

  it('tells a refused key in terms of the environment variable', async () => {
    const app = await appWithTurns();
    const run = io(app, { DOCS_ASSISTANT_ADMIN_KEY: 'svc_someone_else' });
    expect(await runCli(args(), run.io)).toBe(1);
    expect(run.err).toContain('refused the admin key read from DOCS_ASSISTANT_ADMIN_KEY');
  });
});
