import {
  insightsDeletedSchema,
  insightsReportSchema,
  insightsThreadSchema,
  type InsightsReport,
  type InsightsThread,
} from '../protocol/insights.js';
import { classifyKey, wrongKeySentence } from '../protocol/keys.js';
import { insightsPaths, serviceUrl } from '../protocol/routes.js';
import { AssistantError, errorFromResponse } from './errors.js';

export type { InsightsReport, InsightsThread } from '../protocol/insights.js';

export interface InsightsClientOptions {
  /** API root of the service ({base_url}). */
  baseUrl: string;
  /** Admin key (`svc_…`) of the domain's organisation. */
  adminKey: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

export interface InsightsRange {
  /** A date (`2026-11-01`) or an ISO time; inclusive. @default 30 days before `until` */
  since?: string;
  /** A date or an ISO time; exclusive. @default now */
  until?: string;
}

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/** The owner's insights (docs/insights.md): the report, one conversation, deletion. Failures are `AssistantError`s. */
export function createInsightsClient(options: InsightsClientOptions) {
  const keyKind = classifyKey(options.adminKey);
  if (keyKind !== 'admin')
    throw new AssistantError(
      keyKind === 'invalid' ? 'unauthorized' : 'forbidden',
      wrongKeySentence("The insights client's adminKey", 'admin', keyKind),
      { code: keyKind === 'invalid' ? 'unauthorized' : 'wrong_key_type' },
    );
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function call<T>(method: 'GET' | 'DELETE', path: string, schema: Schema<T>): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(serviceUrl(options.baseUrl, path), {
        method,
        headers: { Authorization: `Bearer ${options.adminKey}` },
      });
    } catch (error) {
      throw new AssistantError(
        'network',
        `Could not reach ${options.baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
        { code: 'network' },
      );
    }
    if (!response.ok) throw await errorFromResponse(response);
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      json = undefined;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new AssistantError(
        'protocol',
        `The server answered ${method} ${path} with something that is not insights.`,
        { status: response.status, code: 'bad_response' },
      );
    return parsed.data;
  }

  return {
    /** Totals, questions per day, unanswered questions, cited and gap pages, feedback. */
    report: (domain: string, range: InsightsRange = {}): Promise<InsightsReport> =>
      call('GET', insightsPaths.report(domain, range), insightsReportSchema),
    /** One conversation of the domain, as the owner may read it (no fingerprint). */
    thread: (domain: string, threadId: string): Promise<InsightsThread> =>
      call('GET', insightsPaths.thread(domain, threadId), insightsThreadSchema),
    /** Deletes every insight kept for the domain; resolves to how many records went. */
    deleteAll: async (domain: string): Promise<number> =>
      (await call('DELETE', insightsPaths.report(domain), insightsDeletedSchema)).deleted,
  };
}

export type InsightsClient = ReturnType<typeof createInsightsClient>;
