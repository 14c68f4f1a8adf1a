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
