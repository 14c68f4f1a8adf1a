import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { create as createTar, Header } from 'tar';
import { chartValues } from '../../src/cli/export.js';
import { createHost } from '../../src/server/host/index.js';
import { readValues } from '../../src/server/host/values.js';
import { adminCall, exportApp } from './export.js';
import { tempDir, type TestApp } from './server.js';

/** A real export by the reference server: its app (the bundle link's origin is http://test), the link and the job. */
export async function exportedBundle(options: { version?: string; now?: () => number } = {}) {
  const app = await exportApp(options.now ? { now: options.now } : {});
  const started = await adminCall(app, 'POST', '/v1/static-export/jobs', {
    domain: 'demo',
    ...(options.version ? { version: options.version } : {}),
  });
  const { jobId } = (await started.json()) as { jobId: string };
  await app.exports.idle();
  const { bundleUrl } = (await (
    await adminCall(app, 'POST', `/v1/static-export/jobs/${jobId}/bundle`)
  ).json()) as { bundleUrl: string };
  return { app, jobId, bundleUrl };
}

/** A host that has installed a fresh export of the sample docs, fetched from the reference server, with no version pinned. */
export async function installedHost() {
  const { app, bundleUrl } = await exportedBundle();
  const host = hostFrom(chartValues(bundleUrl, undefined), {
    cacheDir: await tempDir(),
    fetch: viaApp(app),
  });
  await host.install();
  return host;
}

/** The reference server as the host's transport, as a real network would carry it. */
export const viaApp = (app: TestApp): typeof fetch =>
  ((url: string | URL | Request, init?: RequestInit) =>
    app.request(String(url), init)) as typeof fetch;

/** A host from a values YAML text, logging into an array. */
export function hostFrom(
  yaml: string,
  options: {
    cacheDir: string;
    fetch?: typeof fetch;
    embedDir?: string;
    upstreamKey?: string;
    env?: Record<string, string>;
    limits?: Parameters<typeof createHost>[0]['limits'];
  },
) {
  const logs: string[] = [];
  const host = createHost({
    values: readValues(yaml, options.env ?? {}),
    cacheDir: options.cacheDir,
    log: (line) => logs.push(line),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.embedDir ? { embedDir: options.embedDir } : {}),
    ...(options.upstreamKey ? { upstreamKey: options.upstreamKey } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return Object.assign(host, {
    logs,
    get: (path: string, headers: Record<string, string> = {}) =>
      host.app.request(`http://host${path}`, { headers }),
  });
}

/** Serves fixed bytes at any URL (a hand-built archive behind a "bundle link"). */
export const bytesAt = (bytes: Uint8Array): typeof fetch =>
  (async () =>
    new Response(new Uint8Array(bytes), {
      headers: { 'Content-Type': 'application/gzip' },
    })) as typeof fetch;

const MANIFEST = JSON.stringify({
  jobId: 'se_01JDEMO0000000000000000000',
  domain: 'demo',
  version: 'v1',
  createdAt: '2026-11-22T10:00:00.000Z',
  pageCount: 1,
});

/**
 * A tar.gz made by the `tar` package from a real folder: an index.html, a manifest, and the paths
 * `add` returns, handed to tar as given (preservePaths keeps `..` and absolute paths).
 */
export async function tarball(add: (dir: string) => Promise<string[]>): Promise<Uint8Array> {
  const dir = await tempDir('da-tarball-');
  const site = join(dir, 'site');
  await mkdir(site);
  await writeFile(join(site, 'index.html'), '<!doctype html><title>Home</title><h1>Home</h1>');
  await writeFile(join(site, 'docs-assistant-bundle.json'), MANIFEST);
  const extra = await add(site);
  const file = join(dir, 'bundle.tar.gz');
  await createTar({ gzip: true, file, cwd: site, preservePaths: true, portable: true }, [
    'index.html',
    'docs-assistant-bundle.json',
    ...extra,
  ]);
  return new Uint8Array(await readFile(file));
}

/** A tar.gz written entry by entry with tar's Header class (for entries a real folder cannot give). */
export function rawTarball(
  entries: {
    path: string;
    type: 'File' | 'Link' | 'CharacterDevice';
    body?: string;
    linkpath?: string;
    devmaj?: number;
    devmin?: number;
  }[],
): Uint8Array {
  const blocks: Buffer[] = [];
  for (const { body = '', ...fields } of entries) {
    const data = Buffer.from(body);
    const header = new Header({
      ...fields,
      size: data.length,
      mode: 0o644,
      mtime: new Date(0),
      uid: 0,
      gid: 0,
    });
    header.encode();
    blocks.push(header.block!, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return new Uint8Array(gzipSync(Buffer.concat(blocks)));
}

export const evil = {
  dotdot: () =>
    tarball(async (site) => {
      await mkdir(join(site, 'sub'));
      await writeFile(join(site, '..', 'escaped.txt'), 'outside');
      return ['sub/../../escaped.txt'];
    }),
  absolute: () =>
    tarball(async (site) => {
      await writeFile(join(site, '..', 'absolute.txt'), 'absolute');
      return [join(site, '..', 'absolute.txt')];
    }),
  symlink: () =>
    tarball(async (site) => {
      await symlink('/etc/passwd', join(site, 'passwd.html'));
      return ['passwd.html'];
    }),
  // tar 7.5's packer throws an uncaught "zlib: stream error" after packing a real hard link, and
  // packing a real device makes it read the device: these two are written header by header with tar's Header.
  hardlink: async () =>
    rawTarball([
      { path: 'index.html', type: 'File', body: '<h1>Home</h1>' },
      { path: 'docs-assistant-bundle.json', type: 'File', body: MANIFEST },
      { path: 'passwd.html', type: 'Link', linkpath: '/etc/passwd' },
    ]),
  device: async () =>
    rawTarball([
      { path: 'index.html', type: 'File', body: '<h1>Home</h1>' },
      { path: 'docs-assistant-bundle.json', type: 'File', body: MANIFEST },
      { path: 'null', type: 'CharacterDevice', devmaj: 1, devmin: 3 },
    ]),
};
