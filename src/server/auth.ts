import { createMiddleware } from 'hono/factory';
import { bearerKey, classifyKey, type KeyKind } from '../protocol/index.js';
import { errorResponse } from './http.js';

export interface Org {
  id: string;
  plan: 'free' | 'pro' | 'enterprise';
  keys: string[];
}

export type AuthResult = { ok: true; org: Org } | { ok: false; response: Response };

const WRONG_KEY: Record<Exclude<KeyKind, 'invalid'>, string> = {
  assistant:
    'This is an admin key. Admin keys are server-side secrets: use an assistant key (svc_dsc_…) for the assistant.',
  admin: 'This is an assistant key. Static export needs an admin key (svc_…), kept on a server.',
};

/**
 * SPEC §5: the assistant operation takes assistant keys and static export takes admin keys. The
 * other kind is 403 `wrong_key_type`; a missing or unknown key is 401.
 */
export function authenticate(
  header: string | undefined,
  orgByKey: Map<string, Org>,
  required: Exclude<KeyKind, 'invalid'>,
): AuthResult {
  const key = bearerKey(header);
  const kind = classifyKey(key);
  if (kind !== 'invalid' && kind !== required)
    return { ok: false, response: errorResponse('wrong_key_type', WRONG_KEY[required]) };
  const org = key ? orgByKey.get(key) : undefined;
  if (kind === 'invalid' || !org) {
    const example = required === 'assistant' ? 'svc_dsc_…' : 'svc_…';
    return {
      ok: false,
      response: errorResponse(
        'unauthorized',
        `Send a valid ${required} key as "Authorization: Bearer ${example}".`,
      ),
    };
  }
  return { ok: true, org };
}

/** Lets a request on with a key of `kind` only, and tells later handlers its organisation (`c.var.org`). */
export function requireKey(orgByKey: Map<string, Org>, kind: Exclude<KeyKind, 'invalid'>) {
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
