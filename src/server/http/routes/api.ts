import { Hono, type Context } from 'hono';
import type { DenseRetrieval } from '../../answering/dense.js';
import {
  assistantRequestSchema,
  assistantRequestV2Schema,
  messageOfV2,
  ROUTES,
  type Message,
} from '../../../protocol/index.js';
import { questionOf } from '../../answering/question.js';
import { requireKey, requireOwnSite, type Org } from '../auth.js';
import { parsePagePath } from '../../site/page-path.js';
import { jsonBody, validJson } from '../middleware.js';
import type { createPageUrls } from '../../site/page-urls.js';
import { assistantLimits, type AssistantLimiters } from '../rate-limit.js';
import type { Retriever } from '../../answering/retrieval.js';
import { dataStreamResponse } from '../data-stream.js';
import {
  answer,
  NO_QUESTION,
  type StreamWriter,
  type TurnRequest,
  type TurnDeps,
  type TurnSite,
} from '../turn.js';
import { uiMessageStreamResponse } from '../ui-message-stream.js';

/** A configured docs site as the assistant operation uses it. */
export interface AnsweringSite {
  domain: string;
  org: string;
  retriever: Retriever;
  /** The owner's embedding model over the site's sections, when serve has one (--embed-…). */
  dense?: DenseRetrieval | undefined;
  /** The generator's page URLs, when the site links to its own pages. */
  urls?: ReturnType<typeof createPageUrls> | undefined;
  /** Public URL of the site's docs, for citations with `urls`. */
  publicUrl?: string | undefined;
}

export interface ApiRouteDeps {
  orgByKey: Map<string, Org>;
  site(domain: string): AnsweringSite | undefined;
  limiters: AssistantLimiters;
  trustProxy: boolean | number;
  now: () => number;
  maxBodyBytes: number;
  /** The keyed hash a reader's `fp` is kept and compared as (threads never hold the fp itself). */
  fingerprint(fp: string): Promise<string>;
  /** Prefixes the docs are served under: a `currentPath` below any of them names a page. */
  basePaths: readonly string[];
  /** The site as a turn answers for it (links are made with the request's origin). */
  turnSite(c: Context, site: AnsweringSite): TurnSite;
  turns: TurnDeps;
}

type AssistantEnv = { Variables: { ip: string; org: Org; site: AnsweringSite } };

const hasQuestion = (messages: Message[]) => {
  const lastUser = messages.findLast((message) => message.role === 'user');
  return lastUser && questionOf(lastUser) ? undefined : NO_QUESTION;
};

/**
 * The assistant operation, answered here. The checks run in the order the README's rate-limit
 * policy needs: every request counts against its IP; only requests that pass the key, the domain
 * and the body count against the organisation, so junk cannot lock its readers out.
 */
export function apiRoutes(deps: ApiRouteDeps) {
  const { now } = deps;
  const app = new Hono<AssistantEnv>();

  const ownSite = requireOwnSite(deps.site);

  // One chain for both versions: only the body's schema and the writer differ.
  const {
    ip: ipLimit,
    ipOrg: ipOrgLimit,
    org: orgLimit,
  } = assistantLimits(deps.limiters, deps.trustProxy, now);
  const key = requireKey(deps.orgByKey, 'assistant');
  const body = jsonBody(deps.maxBodyBytes);

  const respond = async (
    c: Context<AssistantEnv>,
    { currentPath, ...valid }: Omit<TurnRequest, 'currentPath'> & { currentPath?: string },
    write: StreamWriter,
  ) => {
    const { site } = c.var;
    // Threads keep and compare the keyed hash of `fp`, never the value the reader sent.
    const request = { ...valid, fp: await deps.fingerprint(valid.fp) };
    // The reader's URL is the generator's (`/guides/setup/`) or this server's (`/react/start`):
    // it is read as a page path here, once.
    const pagePath = currentPath
      ? (site.urls?.pageAt(currentPath) ?? parsePagePath(currentPath, deps.basePaths))
      : undefined;
    return answer(
      deps.turnSite(c, site),
      pagePath ? { ...request, currentPath: pagePath } : request,
      deps.turns,
      write,
    );
  };

  app.post(
    ROUTES.assistantMessage,
    ipLimit,
    key,
    ownSite,
    body,
    validJson(assistantRequestSchema, (request) => hasQuestion(request.messages)),
    ipOrgLimit,
    orgLimit,
    (c) => respond(c, c.req.valid('json'), dataStreamResponse),
  );

  // v2 (NOTES §8): AI SDK 5 UI messages in, the UI message stream out, through the same turn.
  app.post(
    ROUTES.assistantMessageV2,
    ipLimit,
    key,
    ownSite,
    body,
    validJson(assistantRequestV2Schema, (request) =>
      hasQuestion(request.messages.map(messageOfV2)),
    ),
    ipOrgLimit,
    orgLimit,
    (c) => {
      const request = c.req.valid('json');
      return respond(
        c,
        { ...request, messages: request.messages.map(messageOfV2) },
        uiMessageStreamResponse,
      );
    },
  );

  return app;
}
