import { createHmac } from 'node:crypto';

/** A stored fingerprint is this prefix and an HMAC; anything else was stored before hashing. */
const HASHED = 'h1:';

export const isHashedFingerprint = (value: string): boolean => value.startsWith(HASHED);

/**
 * The keyed hash the server keeps instead of a reader's `fp`: equal fps give equal hashes, so a
 * thread's owner is still recognised, while the stored value names no user and cannot be
 * reversed or matched against a list of guesses without the key.
 */
export function hashFingerprint(key: Buffer, fp: string): string {
  return HASHED + createHmac('sha256', key).update(fp, 'utf8').digest('base64url');
}

/**
 * The fingerprint key, derived from the link-signing key every instance already shares (files,
 * PostgreSQL, workers), so no second secret needs storing and all instances hash alike.
 */
export function fingerprintKey(signingKey: Buffer): Buffer {
  return createHmac('sha256', signingKey).update('docs-assistant fingerprint v1').digest();
}
