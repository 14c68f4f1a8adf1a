import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Presigned bundle links: HMAC-SHA256 over the job id and the expiry, checked in constant time.
 * The link is the only credential, like an object-storage presigned URL.
 */
export function createSigner(secret: Buffer) {
  const sign = (jobId: string, expires: number) =>
    createHmac('sha256', secret).update(`${jobId}\n${expires}`).digest('hex');
  return {
    sign,
    verify(jobId: string, expires: number, signature: string): boolean {
      const expected = Buffer.from(sign(jobId, expires), 'hex');
      const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
