import { createMiddleware } from 'hono/factory';
import {
  bearerKey,
  classifyKey,
  KEY_EXAMPLE,
  wrongKeySentence,
  type KeyRole,
} from '../../protocol/index.js';
import { errorResponse } from './middleware.js';

export interface Org {
  id: string;
  plan: 'free' | 'pro' | 'enterprise';
  keys: string[];
}

export type AuthResult = { ok: true; org: Org } | { ok: false; response: Response };

/**
 * SPEC §5: the assistant operation takes assistant keys and static export takes admin keys. The
 * other kind is 403 `wrong_key_type`; a missing or unknown key is 401.
 */
export function authenticate(
  header: string | undefined,
  orgByKey: Map<string, Org>,
  required: KeyRole,
): AuthResult {
  const key = bearerKey(header);
  const kind = classifyKey(key);
  if (kind !== 'invalid' && kind !== required)
    return {
      ok: false,
      response: errorResponse('wrong_key_type', wrongKeySentence('The key sent', required, kind)),
    };
  const org = key ? orgByKey.get(key) : undefined;
  if (kind === 'invalid' || !org) {
    return {
      ok: false,
      response: errorResponse(
        'unauthorized',
        `Send a valid ${required} key as "Authorization: Bearer ${KEY_EXAMPLE[required]}".`,
      ),
    };
  }
  return { ok: true, org };
}

/** Lets a request on with a key of `kind` only, and tells later handlers its organisation (`c.var.org`). */
export function requireKey(orgByKey: Map<string, Org>, kind: KeyRole) {
  return createMiddleware<{ Variables: { org: Org } }>(async (c, next) => {
    const auth = authenticate(c.req.header('authorization'), orgByKey, kind);
    if (!auth.ok) return auth.response;
    c.set('org', auth.org);
    await next();
  });
}

/** The `domain_not_found` answer, naming the domain asked for (cut short). */
export const unknownDomain = (domain: string): Response =>
  errorResponse(
    'domain_not_found',
    `No docs site is configured for domain "${domain.slice(0, 100)}".`,
  );

/** The `forbidden` answer to a key of another organisation than the domain's. */
export const otherOrganisation = (): Response =>
  errorResponse('forbidden', 'This key belongs to another organisation than this domain.');

/**
 * Lets a request on only for a configured `:domain` of the key's organisation (from `requireKey`),
 * and tells later handlers its site (`c.var.site`).
 */
export function requireOwnSite<Site extends { org: string }>(
  siteOf: (domain: string) => Site | undefined,
) {
  return createMiddleware<{ Variables: { org: Org; site: Site } }>(async (c, next) => {
    const domain = c.req.param('domain') ?? '';
    const site = siteOf(domain);
    if (!site) return unknownDomain(domain);
    if (site.org !== c.var.org.id) return otherOrganisation();
    c.set('site', site);
    await next();
  });
}

/** Lets a request on only when its organisation (from `requireKey`) has `plan`. */
export function requirePlan(plan: Org['plan'], message: string) {
  return createMiddleware<{ Variables: { org: Org } }>(async (c, next) => {
    if (c.var.org.plan !== plan) return errorResponse('plan_required', message);
    await next();
  });
}
