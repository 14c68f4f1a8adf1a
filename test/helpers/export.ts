import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import MiniSearch from 'minisearch';
import { extract } from 'tar';
import { DEMO } from '../../src/server/config.js';
import { createSite, parsePage } from '../../src/server/site/docs.js';
import { demoApp, sampleDocs, tempDir, type TestApp } from './server.js';

export const ADMIN = DEMO.adminKey;

/** The demo org (Enterprise) and its site, a free org with an admin key, and a second Enterprise site. */
export async function exportApp(overrides: Parameters<typeof demoApp>[0] = {}) {
  const tiny = createSite([
    parsePage('index.md', '---\ntitle: Tiny\n---\n# Tiny\n\nA one-page site.'),
  ]);
  return demoApp({
    dataDir: await tempDir(),
    orgs: [
      { id: DEMO.org, plan: 'enterprise', keys: [DEMO.assistantKey, DEMO.adminKey] },
      { id: 'free', plan: 'free', keys: ['svc_dsc_free', 'svc_free_admin'] },
      { id: 'other', plan: 'enterprise', keys: ['svc_other_admin'] },
    ],
    sites: [
      { domain: DEMO.domain, org: DEMO.org, docs: await sampleDocs() },
      { domain: 'tiny', org: DEMO.org, docs: tiny },
      { domain: 'free-site', org: 'free', docs: tiny },
    ],
    ...overrides,
  });
}

export function adminCall(
  app: TestApp,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  key: string | null = ADMIN,
) {
  return app.request(`http://test${path}`, {
    method,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

/** Unpacks a bundle.tar.gz into a fresh folder and returns the folder. */
export async function unpack(bytes: Uint8Array | string): Promise<string> {
  const dir = await tempDir('da-bundle-');
  let file = bytes as string;
  if (typeof bytes !== 'string') {
    file = join(dir, '..', `${dir.split('/').at(-1)}.tar.gz`);
    await writeFile(file, bytes);
  }
  await mkdir(dir, { recursive: true });
  await extract({ file, cwd: dir });
  return dir;
}

/** Runs the bundle's prebuilt index the way its search script does, and searches it. */
export async function searchBundle(
  dir: string,
  query: string,
): Promise<{ url: string; title: string }[]> {
  const source = await readFile(join(dir, 'assets/search-index.js'), 'utf8');
  const sandbox: { window: { DOCS_SEARCH_INDEX?: object } } = { window: {} };
  runInNewContext(source, sandbox);
  const index = MiniSearch.loadJS(sandbox.window.DOCS_SEARCH_INDEX as never, {
    fields: ['title', 'heading', 'text'],
    storeFields: ['title', 'heading', 'url'],
  });
  return index
    .search(query, { prefix: true })
    .map((hit) => ({ url: hit.url as string, title: hit.title as string }));
}
