import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BundleStore } from './types.js';

export interface S3Location {
  bucket: string;
  /** Key prefix, empty or ending in `/`. */
  prefix: string;
}

/** `s3://bucket/some/prefix` → `{ bucket, prefix: 'some/prefix/' }`; undefined when it is not one. */
export function parseS3Url(url: string): S3Location | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) return undefined;
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '..' || part === '.')) return undefined;
  return { bucket: match[1]!, prefix: prefix ? `${prefix}/` : '' };
}

export interface S3BundleStoreOptions extends S3Location {
  /**
   * Client settings. Credentials and region come from the standard AWS environment
   * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION, profiles, roles)
   * unless given here.
   */
  client?: S3ClientConfig;
}

/**
 * Bundles in S3-compatible object storage, handed out as real presigned GET links (SigV4, as
 * SPEC §2.2 describes `bundleUrl`): clients download straight from the bucket.
 */
export function s3BundleStore(
  options: S3BundleStoreOptions,
): BundleStore & { client: S3Client; keyOf(jobId: string): string } {
  // Checksums only where S3 requires them: the SDK's default streams uploads as aws-chunked with a
  // trailing checksum, which S3-compatible servers (MinIO releases, s3rver) may store verbatim.
  const client = new S3Client({
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...options.client,
  });
  const keyOf = (jobId: string) => `${options.prefix}${jobId}.tar.gz`;
  return {
    client,
    keyOf,
    async put(jobId, file) {
      const { size } = await stat(file);
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: keyOf(jobId),
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: 'application/gzip',
        }),
      );
    },
    async read(jobId) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: keyOf(jobId) }),
        );
        return object.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
          return undefined;
        throw error;
      }
    },
    presign(jobId, expiresInSeconds, signedAt) {
      const command = new GetObjectCommand({
        Bucket: options.bucket,
        Key: keyOf(jobId),
        ResponseContentDisposition: 'attachment; filename="bundle.tar.gz"',
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds, signingDate: signedAt });
    },
  };
}
