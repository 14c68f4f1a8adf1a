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

/** Lets a request on only when its organisation (from `requireKey`) has `plan`. */
export function requirePlan(plan: Org['plan'], message: string) {
  return createMiddleware<{ Variables: { org: Org } }>(async (c, next) => {
    if (c.var.org.plan !== plan) return errorResponse('plan_required', message);
    await next();
  });
}
