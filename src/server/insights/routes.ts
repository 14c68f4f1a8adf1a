import { Hono } from 'hono';
import { join } from 'node:path';
import { feedbackRequestSchema, ROUTES, type InsightsThread } from '../../protocol/index.js';
import { requireKey, requireOwnSite, type Org } from '../http/auth.js';
import { errorResponse, jsonBody, validJson } from '../http/middleware.js';
import { assistantLimits, type AssistantLimiters } from '../http/rate-limit.js';
import { readStatic } from '../http/static.js';
import {
  MAX_INSIGHT_QUESTION_CHARS,
  type InsightStore,
  type ThreadStore,
} from '../stores/index.js';
import { buildReport } from './report.js';
import { insightsPageHtml } from './page.js';

export interface InsightsRouteDeps {
  store: InsightStore;
  threads: ThreadStore;
  orgByKey: Map<string, Org>;
  site(domain: string): { domain: string; org: string } | undefined;
  /** Every configured domain, offered on the page (domains are public: every widget names its own). */
  domains: string[];
  limiters: AssistantLimiters;
  trustProxy: boolean | number;
  now: () => number;
  maxBodyBytes: number;
  /** False with `serve --no-insights`: feedback is accepted and dropped, nothing is recorded. */
  recording: boolean;
  /** Days kept; a report reaches back no further. */
  retentionDays: number;
  /** The keyed hash of a reader's `fp` (threads keep only that). */
  fingerprint(fp: string): Promise<string>;
  /** Built files (dist/): the page's script and styles are in `insights/` there. */
  assetsDir?: string | undefined;
}

type Env = { Variables: { ip: string; org: Org; site: { domain: string; org: string } } };

const DAY_MS = 86_400_000;
/** A report covers this many days when `since` is not given. */
const DEFAULT_DAYS = 30;

const threadNotFound = (threadId: string) =>
  errorResponse(
    'thread_not_found',
    `Thread ${JSON.stringify(threadId.slice(0, 64))} does not exist. Start a new conversation without threadId.`,
  );

/** `2026-11-01` or a full ISO time, as an ISO time; undefined when it is neither. */
function parseTime(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * Owner insights: the reader's feedback (assistant key, checked and limited as the message
 * operation is), and the report, a conversation and deletion (admin key of the domain's
 * organisation only), plus the page at /insights that reads them.
 */
export function insightsRoutes(deps: InsightsRouteDeps) {
  const { now } = deps;
  const app = new Hono<Env>();

  const ownSite = requireOwnSite(deps.site);
  const limits = assistantLimits(deps.limiters, deps.trustProxy, now);

  app.post(
    ROUTES.assistantFeedback,
    limits.ip,
    requireKey(deps.orgByKey, 'assistant'),
    ownSite,
    jsonBody(deps.maxBodyBytes),
    validJson(feedbackRequestSchema),
    limits.ipOrg,
    limits.org,
    async (c) => {
      const body = c.req.valid('json');
      const { site } = c.var;
      const thread = await deps.threads.get(body.threadId);
      // As the message operation: a thread of another reader (fp) or domain does not exist for this one.
      if (
        !thread ||
        thread.domain !== site.domain ||
        thread.fp !== (await deps.fingerprint(body.fp))
      )
        return threadNotFound(body.threadId);
      if (deps.recording) {
        const reasons = body.reason === undefined ? [] : [body.reason].flat();
        const comment = body.comment?.trim();
        const question = thread.turns.find((turn) => turn.messageId === body.messageId)?.question;
        await deps.store
          .recordFeedback({
            domain: site.domain,
            at: new Date(now()).toISOString(),
            threadId: body.threadId,
            messageId: body.messageId,
            rating: body.rating,
            reasons: [...new Set(reasons)],
            ...(comment ? { comment } : {}),
            ...(question ? { question: question.slice(0, MAX_INSIGHT_QUESTION_CHARS) } : {}),
          })
          .catch((error: unknown) =>
            console.error('[docs-assistant] could not record feedback:', error),
          );
      }
      return c.body(null, 204);
    },
  );

  const admin = requireKey(deps.orgByKey, 'admin');

  app.get(ROUTES.insights, admin, ownSite, async (c) => {
    const untilParam = c.req.query('until');
    const sinceParam = c.req.query('since');
    // `until` is exclusive: by default it is just after now, so what was recorded this very
    // millisecond is in the report.
    const until = untilParam ? parseTime(untilParam) : new Date(now() + 1).toISOString();
    if (!until)
      return errorResponse('invalid_request', 'until: use a date (2026-11-01) or an ISO time.');
    const since = sinceParam
      ? parseTime(sinceParam)
      : new Date(Date.parse(until) - DEFAULT_DAYS * DAY_MS).toISOString();
    if (!since)
      return errorResponse('invalid_request', 'since: use a date (2026-11-01) or an ISO time.');
    if (since >= until) return errorResponse('invalid_request', 'since: must be before until.');
    // Nothing older than retention is kept; a range reaching further back says so by its start.
    const kept = new Date(now() - deps.retentionDays * DAY_MS).toISOString();
    const range = { since: since < kept ? kept : since, until };
    const { turns, feedback } = await deps.store.list(c.var.site.domain, range);
    c.header('Cache-Control', 'no-store');
    return c.json(buildReport(c.var.site.domain, range, turns, feedback));
  });

  app.delete(ROUTES.insights, admin, ownSite, async (c) => {
    const deleted = await deps.store.deleteDomain(c.var.site.domain);
    return c.json({ deleted });
  });

  app.get(ROUTES.insightsThread, admin, ownSite, async (c) => {
    const threadId = c.req.param('threadId') ?? '';
    const thread = await deps.threads.get(threadId);
    if (!thread || thread.domain !== c.var.site.domain) return threadNotFound(threadId);
    // The owner reads the conversation, never who had it: the fingerprint hash stays on the server.
    const { fp: _fp, ...conversation } = thread;
    c.header('Cache-Control', 'no-store');
    return c.json(conversation satisfies InsightsThread);
  });

  app.get(ROUTES.insightsPage, (c) => {
    c.header('Content-Security-Policy', PAGE_CSP);
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    return c.html(insightsPageHtml({ built: !!deps.assetsDir, domains: deps.domains }));
  });
  const { assetsDir } = deps;
  if (assetsDir)
    app.get(`${ROUTES.insightsPage}/assets/*`, async (c) => {
      const file = c.req.path.slice(`${ROUTES.insightsPage}/assets/`.length);
      return (await readStatic(join(assetsDir, 'insights'), file)) ?? c.notFound();
    });

  return app;
}

/** The page runs only its own script and styles, talks only to this server, and cannot be framed. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
