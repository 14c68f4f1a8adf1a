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

/** How a key of each kind looks, for messages: `svc_dsc_…`, `svc_…`. */
export const KEY_EXAMPLE: Record<KeyRole, string> = {
  assistant: `${ASSISTANT_KEY_PREFIX}…`,
  admin: `${ADMIN_KEY_PREFIX}…`,
};

const anKey = (role: KeyRole) =>
  `an ${role} key (${role === 'admin' ? ADMIN_KEY_PREFIX : ASSISTANT_KEY_PREFIX}…)`;
/** Which key an operation takes (SPEC §5). */
export type KeyRole = Exclude<KeyKind, 'invalid'>;

/**
 * The one sentence every layer (client, widget, script tag, server, CLI, deployment values) gives
 * when a key of the wrong kind turns up: `subject` names where it was found.
 */
export function wrongKeySentence(subject: string, wanted: KeyRole, given: KeyKind): string {
  return wanted === 'assistant'
    ? assistantKeySentence(subject, given)
    : sentence(
        subject,
        wanted,
        given,
        'Static export needs an admin key, kept on a server; assistant keys cannot export.',
      );
}

/** `wrongKeySentence` for a place that takes an assistant key (the script tag carries only this one). */
export function assistantKeySentence(subject: string, given: KeyKind): string {
  return sentence(
    subject,
    'assistant',
    given,
    'Admin keys are server-side secrets: they must stay on a server, since anyone can read a key ' +
      'in page code. Revoke one that was exposed.',
  );
}

function sentence(subject: string, wanted: KeyRole, given: KeyKind, why: string): string {
  if (given === 'invalid') return `${subject} must be ${anKey(wanted)} but is not a key.`;
  return `${subject} must be ${anKey(wanted)} but is ${anKey(given)}. ${why}`;
}
