/** SPEC §5: assistant keys are public and begin with this prefix. */
export const ASSISTANT_KEY_PREFIX = 'svc_dsc_';
/** SPEC §5: admin keys are server-side secrets and begin with this prefix (and are not assistant keys). */
export const ADMIN_KEY_PREFIX = 'svc_';

export type KeyKind = 'assistant' | 'admin' | 'invalid';

/**
 * The one place that decides what a key is. Every layer (client, server, CLI, widget) asks this,
 * so a key can never be an assistant key in one place and an admin key in another.
 */
export function classifyKey(key: string | null | undefined): KeyKind {
  if (typeof key !== 'string' || /\s/.test(key)) return 'invalid';
  if (key.startsWith(ASSISTANT_KEY_PREFIX))
    return key.length > ASSISTANT_KEY_PREFIX.length ? 'assistant' : 'invalid';
  if (key.startsWith(ADMIN_KEY_PREFIX))
    return key.length > ADMIN_KEY_PREFIX.length ? 'admin' : 'invalid';
  return 'invalid';
}

/** Reads the key out of an `Authorization: Bearer <key>` header value. */
export function bearerKey(header: string | null | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
