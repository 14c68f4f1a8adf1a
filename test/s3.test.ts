import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { createHash, createHmac } from 'node:crypto';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseS3Url, s3BundleStore } from '../src/server/stores/s3.js';
import { adminCall, exportApp, unpack } from './helpers/export.js';
import { runCli } from '../src/cli/index.js';
import { captureIo } from './helpers/cli.js';
import { tempDir } from './helpers/server.js';

const toBytes = (data: string | ArrayBuffer | ArrayBufferView) =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

/** SHA-256 and HMAC-SHA256 from node:crypto, in the shape the SDK's signer takes. */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.hash.update(toBytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

// A real S3-compatible server from npm (s3rver): it stores objects on disk and checks SigV4
// signatures and expiry the way S3 does.
let s3: S3rver;
let endpoint: string;

beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: await tempDir('da-s3-'),
    configureBuckets: [{ name: 'docs-bundles' }],
  });
  await s3.run();
  endpoint = `http://127.0.0.1:${(s3.httpServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await s3?.close();
});

// s3rver's fixed credentials, from the standard AWS environment variables as in production.
const AWS_ENV = {
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_REGION: 'us-east-1',
};
const saved = Object.fromEntries(Object.keys(AWS_ENV).map((name) => [name, process.env[name]]));
beforeAll(() => void Object.assign(process.env, AWS_ENV));
afterAll(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});
const client = () => ({ endpoint, forcePathStyle: true });

async function exportWith(now: () => number) {
  const bundles = s3BundleStore({
    ...parseS3Url('s3://docs-bundles/exports/prod')!,
    client: client(),
  });
  const app = await exportApp({ stores: { bundles }, now });
  await app.ready;
  const { jobId } = (await (
    await adminCall(app, 'POST', '/v1/static-export/jobs', { domain: 'demo', version: 's3' })
  ).json()) as { jobId: string };
  await app.exports.idle();
  const bundle = (await (
    await adminCall(app, 'POST', `/v1/static-export/jobs/${jobId}/bundle`)
  ).json()) as { bundleUrl: string; sizeBytes: number; expiresAt: string };
  return { app, jobId, bundle, bundles };
}

describe('--bundle-store s3://bucket/prefix', () => {
  it('uploads the bundle and hands out a real presigned link that downloads it from the bucket', async () => {
    const { bundle, jobId } = await exportWith(Date.now);
    const url = new URL(bundle.bundleUrl);
    expect(url.origin).toBe(endpoint);
    expect(url.pathname).toBe(`/docs-bundles/exports/prod/${jobId}.tar.gz`);
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    const download = await fetch(bundle.bundleUrl);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(bundle.sizeBytes);
    expect((await unpack(bytes)).length).toBeGreaterThan(0);
  });

  it('is refused by the bucket once the link has expired, or with a key the bucket does not know', async () => {
    const { bundle } = await exportWith(Date.now);
    const foreign = new URL(bundle.bundleUrl);
    foreign.searchParams.set(
      'X-Amz-Credential',
      foreign.searchParams.get('X-Amz-Credential')!.replace('S3RVER', 'AKIAFOREIGN'),
    );
    expect((await fetch(foreign)).status).toBe(403);

    // Signed two hours ago with the one-hour lifetime: expired at the bucket, as `expiresAt` says.
    const old = await exportWith(() => Date.now() - 2 * 3_600_000);
    expect(Date.parse(old.bundle.expiresAt)).toBeLessThan(Date.now());
    const expired = await fetch(old.bundle.bundleUrl);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/expired/i);
  });

  it('signs with the SDK presigner, which reproduces the documented SigV4 example of the S3 docs', async () => {
    // "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)", example GET of
    // examplebucket/test.txt on 2013-05-24, 86400 s, with the documentation's example key pair.
    const presigner = new S3RequestPresigner({
      credentials: {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
      region: 'us-east-1',
      sha256: NodeSha256,
    });
    const signed = await presigner.presign(
      {
        method: 'GET',
        protocol: 'https:',
        hostname: 'examplebucket.s3.amazonaws.com',
        path: '/test.txt',
        query: {},
        headers: { host: 'examplebucket.s3.amazonaws.com' },
      },
      // The documented canonical request signs UNSIGNED-PAYLOAD without listing it in the query.
      {
        signingDate: new Date('2013-05-24T00:00:00Z'),
        expiresIn: 86400,
        unhoistableHeaders: new Set(['x-amz-content-sha256']),
        unsignableHeaders: new Set(['x-amz-content-sha256']),
      },
    );
    expect(signed.query).toMatchObject({
      'X-Amz-Credential': 'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Signature': 'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    });
    // Our links go through the same presigner, scoped to the environment's key and region.
    const store = s3BundleStore({
      bucket: 'examplebucket',
      prefix: '',
      client: {
        region: 'us-east-1',
        credentials: {
          accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        },
      },
    });
    const url = new URL(
      await store.presign!('se_01JD8X3K2M0000000000000001', 600, new Date('2013-05-24T00:00:00Z')),
    );
    expect(url.host).toBe('examplebucket.s3.us-east-1.amazonaws.com');
    expect(url.searchParams.get('X-Amz-Credential')).toBe(
      'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request',
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      'attachment; filename="bundle.tar.gz"',
    );
  });

  it('serve --bundle-store s3://… --s3-endpoint: a real server hands out links to the bucket', async () => {
    const cli = captureIo({ ...process.env });
    const exit = runCli(
      [
        'serve',
        '--port',
        '0',
        '--data',
        await tempDir(),
        '--bundle-store',
        's3://docs-bundles/cli',
        '--s3-endpoint',
        endpoint,
      ],
      cli.io,
    );
    const [, url] = await cli.waitFor(/running at (http:\/\/[\d.:]+)\//);
    expect(cli.out).toContain('Bundles:         s3://docs-bundles/cli');
    const headers = { Authorization: 'Bearer svc_demo_admin', 'Content-Type': 'application/json' };
    const { jobId } = (await (
      await fetch(`${url}/v1/static-export/jobs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ domain: 'demo' }),
      })
    ).json()) as { jobId: string };
    let bundle: Response;
    do
      bundle = await fetch(`${url}/v1/static-export/jobs/${jobId}/bundle`, {
        method: 'POST',
        headers,
      });
    while (bundle.status === 409);
    const { bundleUrl, sizeBytes } = (await bundle.json()) as {
      bundleUrl: string;
      sizeBytes: number;
    };
    expect(bundleUrl.startsWith(`${endpoint}/docs-bundles/cli/${jobId}.tar.gz?`)).toBe(true);
    expect((await (await fetch(bundleUrl)).arrayBuffer()).byteLength).toBe(sizeBytes);
    cli.interrupt();
    expect(await exit).toBe(0);
  });

  it('reads s3:// addresses strictly', () => {
    expect(parseS3Url('s3://bucket')).toEqual({ bucket: 'bucket', prefix: '' });
    expect(parseS3Url('s3://my.bucket/a/b/')).toEqual({ bucket: 'my.bucket', prefix: 'a/b/' });
    for (const bad of ['https://bucket/x', 's3://', 's3://UPPER/x', 's3://b/../x', 'bucket/x'])
      expect(parseS3Url(bad), bad).toBeUndefined();
  });
});
