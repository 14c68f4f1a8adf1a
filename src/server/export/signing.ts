import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Presigned bundle links: HMAC-SHA256 over the job id and the expiry, checked in constant time.
 * The link is the only credential, like an object-storage presigned URL.
 */
export function createSigner(secret: Buffer) {
  const sign = (jobId: string, expires: number) => createHmac('sha256', secret).update(`${jobId}\n${expires}`).digest('hex');
  return {
    sign,
    verify(jobId: string, expires: number, signature: string): boolean {
      const expected = Buffer.from(sign(jobId, expires), 'hex');
      const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** A signing key kept beside the jobs, so links stay valid across restarts. */
export async function loadSigningKey(file: string): Promise<Buffer> {
  try {
    const hex = (await readFile(file, 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  } catch {
    // first start: make one
  }
  const key = randomBytes(32);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, key.toString('hex'), { mode: 0o600 });
  return key;
}
