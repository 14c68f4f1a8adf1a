import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
} from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract, list, type ReadEntry } from 'tar';
import {
  BUNDLE_MANIFEST_FILE,
  bundleManifestSchema,
  type BundleManifest,
} from '../../protocol/index.js';

/** Why a bundle was not taken. Every kind leaves the previously active version in place. */
export type BundleProblemKind =
  | 'unreachable'
  | 'link_expired'
  | 'http_error'
  | 'too_large'
  | 'not_gzip'
  | 'bad_archive'
  | 'unsafe_entry'
  | 'no_index'
  | 'bad_manifest'
  | 'version_mismatch';

export interface BundleProblem {
  kind: BundleProblemKind;
  message: string;
}

export interface ActiveVersion {
  /** Folder name under `versions/`: the export version (or job id) and a hash of the archive. */
  name: string;
  dir: string;
  manifest: BundleManifest;
  /** When this version became active (Last-Modified of pages that get a script tag). */
  activatedAt: number;
}

export interface BundleLimits {
  /** Largest archive downloaded. @default 512 MiB */
  maxBundleBytes: number;
  /** Largest total of the files inside (a small archive can unpack to a huge tree). @default 2 GiB */
  maxUnpackedBytes: number;
  /** Most entries in one archive. @default 200000 */
  maxEntries: number;
}

export const DEFAULT_LIMITS: BundleLimits = {
  maxBundleBytes: 512 * 1024 * 1024,
  maxUnpackedBytes: 2 * 1024 * 1024 * 1024,
  maxEntries: 200_000,
};

type Result<T> = { ok: true; value: T } | { ok: false; problem: BundleProblem };
const fail = (kind: BundleProblemKind, message: string): { ok: false; problem: BundleProblem } => ({
  ok: false,
  problem: { kind, message },
});

/** Links are credentials: logs keep the address, never the signature in the query. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '(not a URL)';
  }
}

/** Downloads `url` to `file`, stopping as soon as it is over the size cap (a missing or lying Content-Length cannot make it write more). */
export async function downloadBundle(
  url: string,
  file: string,
  maxBytes: number,
  fetchImpl: typeof fetch = fetch,
): Promise<Result<number>> {
  let response: Response;
  try {
    response = await fetchImpl(url, { redirect: 'follow' });
  } catch (error) {
    return fail(
      'unreachable',
      `The bundle link ${redactUrl(url)} could not be reached: ${(error as Error).message}.`,
    );
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 2000);
    // Our reference server answers {"error":"link_expired"}; S3 answers AccessDenied "Request has expired".
    if (/link_expired|expired/i.test(text))
      return fail(
        'link_expired',
        `The bundle link has expired (HTTP ${response.status}). Generate a fresh one (docs-assistant export link <jobId>) and update staticExport.bundleUrl.`,
      );
    return fail(
      'http_error',
      `Downloading the bundle failed with HTTP ${response.status} from ${redactUrl(url)}.`,
    );
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return fail('too_large', `The bundle is ${declared} bytes, over the limit of ${maxBytes}.`);
  }
  if (!response.body) return fail('bad_archive', 'The bundle response had no body.');
  let total = 0;
  let over = false;
  const source = Readable.fromWeb(
    response.body as import('node:stream/web').ReadableStream<Uint8Array>,
  );
  source.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > maxBytes && !over) {
      over = true;
      source.destroy(new Error('too large'));
    }
  });
  try {
    await pipeline(source, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    if (over)
      return fail(
        'too_large',
        `The bundle is over the limit of ${maxBytes} bytes; the download was stopped.`,
      );
    return fail('unreachable', `The bundle download was cut: ${(error as Error).message}.`);
  }
  return { ok: true, value: total };
}

const SAFE_TYPES = new Set(['File', 'OldFile', 'Directory']);

/** Why an entry may not be unpacked, or undefined when it is a plain file or folder inside the target. */
export function unsafeEntry(entry: Pick<ReadEntry, 'path' | 'type' | 'mode'>): string | undefined {
  const path = entry.path;
  if (!SAFE_TYPES.has(entry.type))
    return `${JSON.stringify(path)} is a ${entry.type}; only files and folders are allowed`;
  if (path.includes('\0') || path.includes('\\'))
    return `${JSON.stringify(path)} has a NUL or backslash in its name`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    return `${JSON.stringify(path)} is an absolute path`;
  if (path.split('/').includes('..'))
    return `${JSON.stringify(path)} climbs out of the folder with ".."`;
  if (entry.mode !== undefined && (entry.mode & 0o7000) !== 0)
    return `${JSON.stringify(path)} has setuid/setgid/sticky bits`;
  return undefined;
}

/** Reads the archive's table without unpacking: gzip, a readable tar, only safe entries, an index.html, limits. */
export async function inspectArchive(
  file: string,
  limits: BundleLimits,
): Promise<Result<{ entries: number; bytes: number }>> {
  const handle = await open(file, 'r');
  const magic = Buffer.alloc(2);
  try {
    await handle.read(magic, 0, 2, 0);
  } finally {
    await handle.close();
  }
  if (magic[0] !== 0x1f || magic[1] !== 0x8b)
    return fail('not_gzip', 'The bundle is not a gzip file (a bundle is a .tar.gz).');
  let entries = 0;
  let bytes = 0;
  let hasIndex = false;
  let problem: string | undefined;
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        entries++;
        bytes += entry.size ?? 0;
        problem ??= unsafeEntry(entry);
        if (entry.path.replace(/^(\.\/)+/, '') === 'index.html' && entry.type !== 'Directory')
          hasIndex = true;
      },
    });
  } catch (error) {
    return fail('bad_archive', `The bundle is not a readable tar.gz: ${(error as Error).message}.`);
  }
  if (problem) return fail('unsafe_entry', `The bundle was refused: ${problem}.`);
  if (entries > limits.maxEntries)
    return fail(
      'too_large',
      `The bundle has ${entries} entries, over the limit of ${limits.maxEntries}.`,
    );
  if (bytes > limits.maxUnpackedBytes)
    return fail(
      'too_large',
      `The bundle unpacks to ${bytes} bytes, over the limit of ${limits.maxUnpackedBytes}.`,
    );
  if (!hasIndex) return fail('no_index', 'The bundle has no index.html at its root.');
  return { ok: true, value: { entries, bytes } };
}

async function readManifest(dir: string): Promise<Result<BundleManifest>> {
  let text: string;
  try {
    text = await readFile(join(dir, BUNDLE_MANIFEST_FILE), 'utf8');
  } catch {
    return fail(
      'bad_manifest',
      `The bundle has no ${BUNDLE_MANIFEST_FILE}; export it again with a current server.`,
    );
  }
  try {
    const parsed = bundleManifestSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { ok: true, value: parsed.data };
  } catch {
    // falls through to the error below
  }
  return fail('bad_manifest', `The bundle's ${BUNDLE_MANIFEST_FILE} is not a valid manifest.`);
}

const safeName = (text: string) => text.replace(/[^\w.-]+/g, '_').slice(0, 80);

/**
 * The cache of unpacked versions under `cacheDir/versions/`, and `cacheDir/current`, a symlink
 * swapped by rename so the active version changes atomically and survives a restart.
 */
export function createVersionCache(cacheDir: string, limits: BundleLimits = DEFAULT_LIMITS) {
  const versionsDir = join(cacheDir, 'versions');
  const currentLink = join(cacheDir, 'current');

  async function load(name: string): Promise<ActiveVersion | undefined> {
    const dir = join(versionsDir, name);
    const manifest = await readManifest(dir);
    if (!manifest.ok) return undefined;
    const info = await stat(join(dir, 'index.html')).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return {
      name,
      dir,
      manifest: manifest.value,
      activatedAt: (await lstat(currentLink).catch(() => undefined))?.mtimeMs ?? Date.now(),
    };
  }

  return {
    /** The version that was active when the host last ran, if its files are intact. */
    async current(): Promise<ActiveVersion | undefined> {
      const name = await readlink(currentLink).catch(() => undefined);
      return name && !name.includes('/') ? load(name) : undefined;
    },

    /**
     * Downloads, checks and unpacks a bundle, then makes it the active version. Any problem leaves
     * the active version as it was.
     */
    async install(
      url: string,
      options: { pinnedVersion?: string; fetch?: typeof fetch } = {},
    ): Promise<Result<ActiveVersion>> {
      await mkdir(versionsDir, { recursive: true });
      const incoming = join(cacheDir, `.incoming-${randomBytes(6).toString('hex')}`);
      const archive = `${incoming}.tar.gz`;
      try {
        const downloaded = await downloadBundle(url, archive, limits.maxBundleBytes, options.fetch);
        if (!downloaded.ok) return downloaded;
        const inspected = await inspectArchive(archive, limits);
        if (!inspected.ok) return inspected;
        await mkdir(incoming);
        // Checked above; the filter and the options below are a second line should the two readings differ.
        await extract({
          file: archive,
          cwd: incoming,
          strict: true,
          preserveOwner: false,
          filter: (_path, entry) =>
            'type' in entry && unsafeEntry(entry as ReadEntry) === undefined,
        });
        const manifest = await readManifest(incoming);
        if (!manifest.ok) return manifest;
        const { version } = manifest.value;
        if (options.pinnedVersion !== undefined && version !== options.pinnedVersion) {
          return fail(
            'version_mismatch',
            `The bundle is version ${version === undefined ? '(none)' : JSON.stringify(version)} but staticExport.version pins ${JSON.stringify(options.pinnedVersion)}; it was refused.`,
          );
        }
        const hash = createHash('sha256')
          .update(await readFile(archive))
          .digest('hex')
          .slice(0, 12);
        const name = `${safeName(version ?? manifest.value.jobId)}-${hash}`;
        const dir = join(versionsDir, name);
        // The same bundle again (a restart with a fresh link) keeps the folder it already has.
        if (await stat(dir).catch(() => undefined))
          await rm(incoming, { recursive: true, force: true });
        else await rename(incoming, dir);
        const link = `${currentLink}.${randomBytes(4).toString('hex')}`;
        await symlink(name, link);
        await rename(link, currentLink);
        await prune(versionsDir, name);
        return {
          ok: true,
          value: { name, dir, manifest: manifest.value, activatedAt: Date.now() },
        };
      } finally {
        await rm(archive, { force: true });
        await rm(incoming, { recursive: true, force: true });
      }
    },
  };
}

/** Keeps the active version and the two most recent others (a rollback needs no download). */
async function prune(versionsDir: string, active: string): Promise<void> {
  const entries = await readdir(versionsDir, { withFileTypes: true });
  const others = await Promise.all(
    entries
      .filter((e) => e.isDirectory() && e.name !== active)
      .map(async (e) => ({ name: e.name, at: (await stat(join(versionsDir, e.name))).mtimeMs })),
  );
  others.sort((a, b) => b.at - a.at);
  for (const old of others.slice(2))
    await rm(join(versionsDir, old.name), { recursive: true, force: true });
}
