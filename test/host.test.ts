import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { create, list } from 'tar';
import { describe, expect, it } from 'vitest';
import { chartValues } from '../src/cli/export.js';
import { runCli } from '../src/cli/index.js';
import { captureIo } from './helpers/cli.js';
import { BUNDLE_MANIFEST_FILE } from '../src/protocol/index.js';
import {
  BUNDLE_STALE_HEADER as STALE_HEADER,
  BUNDLE_VERSION_HEADER as VERSION_HEADER,
} from '../src/protocol/headers.js';
import { readValues, planAssistant } from '../src/server/host/values.js';
import { DEMO } from '../src/server/config.js';
import { demoApp, askBody, readStream, sampleDocs, textOf, tempDir } from './helpers/server.js';
import {
  bytesAt,
  evil,
  exportedBundle,
  hostFrom,
  installedHost,
  tarball,
  viaApp,
} from './helpers/host.js';

const START = Date.parse('2026-11-22T10:00:00Z');

async function embedDir() {
  const dir = await tempDir('da-embed-');
  await writeFile(join(dir, 'docs-assistant.js'), '/* script tag */');
  return dir;
}

describe('docs-assistant host: a real export, served', () => {
  it('is alive at once, ready only when the bundle is active, and serves pages as a static host should', async () => {
    const { app, bundleUrl, jobId } = await exportedBundle({ version: '2026-11' });
    const host = hostFrom(chartValues(bundleUrl, '2026-11'), {
      cacheDir: await tempDir(),
      fetch: viaApp(app),
    });

    expect((await host.get('/healthz')).status).toBe(200);
    const before = await host.get('/readyz');
    expect(before.status).toBe(503);
    expect((await host.get('/')).status).toBe(503);

    await host.install();
    const ready = await host.get('/readyz');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { ready: boolean; manifest: Record<string, unknown> };
    expect(body.ready).toBe(true);
    expect(body.manifest).toEqual({
      jobId,
      domain: 'demo',
      version: '2026-11',
      createdAt: expect.any(String),
      pageCount: 21,
    });

    const index = await host.get('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get(VERSION_HEADER)).toMatch(/^2026-11-[0-9a-f]{12}$/);
    expect(index.headers.get(STALE_HEADER)).toBeNull();
    expect(await index.text()).toContain('<h1');

    // The bundle's own links are `.html` files; clean URLs reach the same file.
    const page = await (await host.get('/guides/react.html')).text();
    expect(page).toContain('href="page-context.html"');
    expect(await (await host.get('/guides/react')).text()).toBe(page);
    expect((await host.get('/assets/docs.css')).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
    expect((await host.get('/assets/search-index.js')).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await host.get('/images/how-it-works.svg')).headers.get('content-type')).toBe(
      'image/svg+xml',
    );
    expect((await host.get('/no/such/page')).status).toBe(404);
    expect((await host.get('/../../etc/passwd')).status).toBe(404);
    expect((await host.get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    const folder = await host.get('/v1/guides');
    expect(folder.status).toBe(404);
  });

  it('serves every page a reference server started with the host’s address cites', async () => {
    const host = await installedHost();
    // `serve --public-url https://docs.acme.test --url-style plain`
    const upstream = await demoApp({
      publicUrl: 'https://docs.acme.test',
      sites: [
        {
          domain: DEMO.domain,
          org: DEMO.org,
          docs: await sampleDocs(),
          pageUrls: { style: 'plain' },
        },
      ],
    });
    const cited = new Set<string>();
    for (const question of [
      'How do I install it?',
      'How do I change the theme?',
      'What is static export?',
      'How do I set retrieval filters?',
    ]) {
      const parts = await readStream(
        await upstream.request(`http://test/discovery/v1/assistant/${DEMO.domain}/message`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${DEMO.assistantKey}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(askBody(question)),
        }),
      );
      for (const part of parts)
        if (part.type === 'source') cited.add((part.value as { url: string }).url);
    }
    expect(cited.size).toBeGreaterThanOrEqual(4);
    for (const url of cited) {
      expect(url).toMatch(/^https:\/\/docs\.acme\.test\//);
      expect((await host.get(new URL(url).pathname)).status, url).toBe(200);
    }
  });

  it('answers 304 to a matching ETag or date, and compresses by Accept-Encoding', async () => {
    const host = await installedHost();

    const plain = await host.get('/guides/react.html');
    const etag = plain.headers.get('etag')!;
    const lastModified = plain.headers.get('last-modified')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(Date.parse(lastModified)).toBeGreaterThan(0);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const text = await plain.text();

    const revalidated = await host.get('/guides/react.html', { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(
      (await host.get('/guides/react.html', { 'If-Modified-Since': lastModified })).status,
    ).toBe(304);
    expect(
      (
        await host.get('/guides/react.html', {
          'If-None-Match': 'W/"other"',
          'If-Modified-Since': lastModified,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await host.get('/guides/react.html', {
          'If-Modified-Since': new Date(Date.parse(lastModified) - 60_000).toUTCString(),
        })
      ).status,
    ).toBe(200);

    const br = await host.get('/guides/react.html', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brotliDecompressSync(brBytes).toString()).toBe(text);
    expect(brBytes.length).toBeLessThan(Buffer.byteLength(text) / 2);

    const gz = await host.get('/guides/react.html', { 'Accept-Encoding': 'gzip, br;q=0' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(text);
    expect(
      (await host.get('/images/how-it-works.svg', { 'Accept-Encoding': 'identity' })).headers.get(
        'content-encoding',
      ),
    ).toBeNull();
  });

  it('writes the bundle manifest into every export', async () => {
    const { app, bundleUrl, jobId } = await exportedBundle({ version: 'v7' });
    const file = join(await tempDir(), 'b.tar.gz');
    await writeFile(file, new Uint8Array(await (await app.request(bundleUrl)).arrayBuffer()));
    let manifest = '';
    await list({
      file,
      onReadEntry: (entry) => {
        if (entry.path === BUNDLE_MANIFEST_FILE)
          entry.on('data', (chunk: Buffer) => (manifest += chunk.toString()));
      },
    });
    expect(JSON.parse(manifest)).toEqual({
      jobId,
      domain: 'demo',
      version: 'v7',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      pageCount: 21,
    });
  });
});

describe('docs-assistant host: bundles it refuses', () => {
  const cases: [string, () => Promise<Uint8Array>, RegExp][] = [
    ['a ".." path', evil.dotdot, /climbs out/],
    ['an absolute path', evil.absolute, /absolute path/],
    ['a symbolic link', evil.symlink, /SymbolicLink/],
    ['a hard link', evil.hardlink, /is a Link/],
    ['a device', evil.device, /CharacterDevice/],
  ];
  for (const [what, make, message] of cases) {
    it(`refuses an archive with ${what}, unpacks nothing and stays unready`, async () => {
      const root = await tempDir('da-host-root-');
      const cacheDir = join(root, 'cache');
      const host = hostFrom(chartValues('http://bundles.test/b.tar.gz', undefined), {
        cacheDir,
        fetch: bytesAt(await make()),
      });
      const state = await host.install();
      expect(state.status).toBe('unavailable');
      expect(host.logs.join('\n')).toMatch(/unsafe_entry/);
      expect(host.logs.join('\n')).toMatch(message);
      expect((await host.get('/readyz')).status).toBe(503);
      expect(await readdir(join(cacheDir, 'versions'))).toEqual([]);
      expect(existsSync(join(root, 'escaped.txt'))).toBe(false);
      expect((await readdir(root)).sort()).toEqual(['cache']);
    });
  }

  it('takes the same kind of archive when it holds only files and folders (the builder above is not what fails)', async () => {
    const good = await tarball(async (site) => {
      await mkdir(join(site, 'guides'));
      await writeFile(join(site, 'guides', 'a.html'), '<h1>A</h1>');
      return ['guides'];
    });
    const host = hostFrom(chartValues('http://bundles.test/b.tar.gz', 'v1'), {
      cacheDir: await tempDir(),
      fetch: bytesAt(good),
    });
    expect((await host.install()).status).toBe('ready');
    expect(await (await host.get('/guides/a')).text()).toBe('<h1>A</h1>');
  });

  it('refuses what is not a gzip tar, has no index.html, or is over the size cap', async () => {
    const notGzip = hostFrom(chartValues('http://b.test/x', undefined), {
      cacheDir: await tempDir(),
      fetch: bytesAt(new TextEncoder().encode('<html>login page</html>')),
    });
    await notGzip.install();
    expect(notGzip.logs.join('\n')).toMatch(/not_gzip/);

    const dir = await tempDir();
    await writeFile(join(dir, 'other.html'), 'x');
    await writeFile(join(dir, BUNDLE_MANIFEST_FILE), '{}');
    await create({ gzip: true, file: join(dir, 'b.tgz'), cwd: dir }, [
      'other.html',
      BUNDLE_MANIFEST_FILE,
    ]);
    const withoutIndex = new Uint8Array(await readFile(join(dir, 'b.tgz')));
    const missing = hostFrom(chartValues('http://b.test/x', undefined), {
      cacheDir: await tempDir(),
      fetch: bytesAt(withoutIndex),
    });
    await missing.install();
    expect(missing.logs.join('\n')).toMatch(/no_index/);

    const big = hostFrom(chartValues('http://b.test/x', undefined), {
      cacheDir: await tempDir(),
      fetch: bytesAt(withoutIndex),
      limits: { maxBundleBytes: 100 },
    });
    await big.install();
    expect(big.logs.join('\n')).toMatch(/too_large/);
  });
});

describe('docs-assistant host: keeping the last good version', () => {
  it('refuses a bundle whose version does not match the pin, and keeps the previous version', async () => {
    const cacheDir = await tempDir();
    const first = await exportedBundle({ version: '2026-10' });
    const v1 = hostFrom(chartValues(first.bundleUrl, '2026-10'), {
      cacheDir,
      fetch: viaApp(first.app),
    });
    expect((await v1.install()).status).toBe('ready');

    const second = await exportedBundle({ version: '2026-11' });
    const pinnedElsewhere = hostFrom(chartValues(second.bundleUrl, '2026-12'), {
      cacheDir,
      fetch: viaApp(second.app),
    });
    const state = await pinnedElsewhere.install();
    expect(state.status).toBe('stale');
    expect(pinnedElsewhere.logs.join('\n')).toMatch(
      /version_mismatch.*"2026-11".*staticExport\.version pins "2026-12"/,
    );
    const page = await pinnedElsewhere.get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get(VERSION_HEADER)).toMatch(/^2026-10-/);
    expect(page.headers.get(STALE_HEADER)).toMatch(/version_mismatch/);
    expect(
      ((await (await pinnedElsewhere.get('/readyz')).json()) as { manifest: { version: string } })
        .manifest.version,
    ).toBe('2026-10');
  });

  it('serves the cached version, loudly, when a restart meets an expired link', async () => {
    let now = START;
    const { app, bundleUrl } = await exportedBundle({ version: '2026-11', now: () => now });
    const cacheDir = await tempDir();
    const values = chartValues(bundleUrl, '2026-11');
    expect((await hostFrom(values, { cacheDir, fetch: viaApp(app) }).install()).status).toBe(
      'ready',
    );

    now += 2 * 3_600_000; // the link's hour is over
    const restarted = hostFrom(values, { cacheDir, fetch: viaApp(app) });
    expect((await restarted.install()).status).toBe('stale');
    const logs = restarted.logs.join('\n');
    expect(logs).toMatch(/link_expired/);
    expect(logs).toMatch(/LAST GOOD cached version 2026-11-/);
    expect(logs).not.toMatch(/signature=/);
    const page = await restarted.get('/guides/react');
    expect(page.status).toBe(200);
    expect(page.headers.get(STALE_HEADER)).toMatch(
      /^link_expired: serving the cached version 2026-11-/,
    );
    expect(((await (await restarted.get('/readyz')).json()) as { stale: boolean }).stale).toBe(
      true,
    );
  });

  it('serves the cached version when the link is unreachable, and is unready when there is no cache', async () => {
    const { app, bundleUrl } = await exportedBundle();
    const cacheDir = await tempDir();
    await hostFrom(chartValues(bundleUrl, undefined), { cacheDir, fetch: viaApp(app) }).install();
    const down = (async () => {
      throw new TypeError('fetch failed: ECONNREFUSED');
    }) as typeof fetch;
    const cached = hostFrom(chartValues(bundleUrl, undefined), { cacheDir, fetch: down });
    expect((await cached.install()).status).toBe('stale');
    expect((await cached.get('/')).headers.get(STALE_HEADER)).toMatch(/^unreachable/);

    const fresh = hostFrom(chartValues(bundleUrl, undefined), {
      cacheDir: await tempDir(),
      fetch: down,
    });
    expect((await fresh.install()).status).toBe('unavailable');
    expect((await fresh.get('/readyz')).status).toBe(503);
    expect(await (await fresh.get('/')).text()).toMatch(/could not be reached/);
  });
});

describe('docs-assistant host: deployment types', () => {
  it('cloud: pages carry the script tag with the service URL and the public key', async () => {
    const { app, bundleUrl } = await exportedBundle();
    const yaml = `deployment:\n  type: cloud\n${chartValues(bundleUrl, undefined)}assistant:\n  baseUrl: https://api.example.com\n  apiKey: svc_dsc_public\n`;
    const host = hostFrom(yaml, {
      cacheDir: await tempDir(),
      fetch: viaApp(app),
      embedDir: await embedDir(),
    });
    await host.install();
    const html = await (await host.get('/guides/react')).text();
    expect(html).toContain(
      '<script defer src="/_docs-assistant/docs-assistant.js" data-domain="demo" data-base-url="https://api.example.com" data-api-key="svc_dsc_public"></script></head>',
    );
    expect((await host.get('/_docs-assistant/docs-assistant.js')).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
  });

  it('air-gapped: no script tag, no launcher files, and the offline search is still there', async () => {
    const { app, bundleUrl } = await exportedBundle();
    const host = hostFrom(`deployment:\n  type: air-gapped\n${chartValues(bundleUrl, undefined)}`, {
      cacheDir: await tempDir(),
      fetch: viaApp(app),
      embedDir: await embedDir(),
    });
    await host.install();
    expect(host.assistant).toEqual({ mode: 'off', reason: expect.stringMatching(/air-gapped/) });
    const html = await (await host.get('/guides/react')).text();
    expect(html).not.toContain('docs-assistant.js');
    expect(html).toContain('assets/search.js');
    expect((await host.get('/_docs-assistant/docs-assistant.js')).status).toBe(404);
    expect((await host.get('/assets/search-index.js')).status).toBe(200);
  });

  it('client-hosted with an upstream: pages ask their own origin and the host forwards with the key', async () => {
    const { app, bundleUrl } = await exportedBundle();
    const upstream = await demoApp();
    const seen: string[] = [];
    const transport = (async (url: string | URL | Request, init?: RequestInit) => {
      const href = String(url);
      if (href.startsWith('http://upstream.test/')) {
        seen.push(new Headers(init?.headers).get('authorization') ?? '');
        return upstream.request(href.replace('http://upstream.test', 'http://test'), init);
      }
      return app.request(href, init);
    }) as typeof fetch;
    const yaml = `deployment:\n  type: client-hosted\n${chartValues(bundleUrl, undefined)}assistant:\n  upstream: http://upstream.test\n`;
    const host = hostFrom(yaml, {
      cacheDir: await tempDir(),
      fetch: transport,
      embedDir: await embedDir(),
      upstreamKey: DEMO.assistantKey,
    });
    await host.install();
    expect(await (await host.get('/')).text()).toContain('data-domain="demo" data-base-url="/"');
    const answer = await host.app.request(`http://host/discovery/v1/assistant/demo/message`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(askBody('How do I install it?')),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-thread-id')).toMatch(/^[0-9A-Z]{26}$/);
    expect(textOf(await readStream(answer))).toMatch(/npm install/);
    expect(seen).toEqual([`Bearer ${DEMO.assistantKey}`]);
  });
});

describe('host values', () => {
  it('reads the values the export CLI writes, with the environment laid over them', () => {
    const values = readValues(chartValues('https://b.example.com/x.tar.gz?sig=1', '2026-11'), {
      DOCS_ASSISTANT_DEPLOYMENT_TYPE: 'air-gapped',
      DOCS_ASSISTANT_STATIC_EXPORT_VERSION: '2026-12',
    });
    expect(values).toEqual({
      deployment: { type: 'air-gapped' },
      staticExport: {
        enabled: true,
        bundleUrl: 'https://b.example.com/x.tar.gz?sig=1',
        version: '2026-12',
      },
      assistant: {},
    });
    expect(
      readValues(undefined, {
        DOCS_ASSISTANT_STATIC_EXPORT_ENABLED: 'true',
        DOCS_ASSISTANT_STATIC_EXPORT_BUNDLE_URL: 'https://b/x',
      }).staticExport,
    ).toEqual({ enabled: true, bundleUrl: 'https://b/x' });
  });

  it('says clearly what is wrong with contradicting or unsafe values', () => {
    expect(() => readValues('staticExport:\n  enabled: true\n', {})).toThrow(
      /bundleUrl is not set/,
    );
    expect(() => readValues('deployment:\n  type: on-prem\n', {})).toThrow(/deployment\.type/);
    expect(() => readValues('assistant:\n  apiKey: svc_secret_admin\n', {})).toThrow(
      /Admin keys are server-side secrets/,
    );
    expect(() => readValues('staticExport: [1', {})).toThrow(/not valid YAML/);
    expect(() => readValues(undefined, { DOCS_ASSISTANT_STATIC_EXPORT_ENABLED: 'maybe' })).toThrow(
      /true or false/,
    );
    expect(
      planAssistant(
        readValues('deployment:\n  type: air-gapped\nassistant:\n  enabled: true\n', {}),
      ),
    ).toEqual({ mode: 'off', reason: expect.stringMatching(/air-gapped/) });
    expect(() =>
      planAssistant(
        readValues(
          'deployment:\n  type: air-gapped\nassistant:\n  upstream: https://x.example\n',
          {},
        ),
      ),
    ).toThrow(/air-gapped/);
    expect(() =>
      planAssistant(
        readValues('deployment:\n  type: cloud\nassistant:\n  upstream: https://x.example\n', {}),
      ),
    ).toThrow(/client-hosted/);
    expect(planAssistant(readValues('deployment:\n  type: client-hosted\n', {}))).toEqual({
      mode: 'off',
      reason: expect.stringMatching(/no assistant/),
    });
  });
});

describe('docs-assistant host (the command)', () => {
  it('reads --values, listens on a real socket, turns ready after the download, and stops on Ctrl-C', async () => {
    const { app, bundleUrl } = await exportedBundle({ version: 'cli' });
    const dir = await tempDir();
    await writeFile(join(dir, 'values.yaml'), chartValues(bundleUrl, 'cli'));
    const cli = captureIo({});
    cli.io.fetch = viaApp(app);
    const exit = runCli(
      ['host', '--values', join(dir, 'values.yaml'), '--port', '0', '--cache', join(dir, 'cache')],
      cli.io,
    );
    const [, url] = await cli.waitFor(/running at (http:\/\/[\d.:]+)\//);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    while ((await fetch(`${url}/readyz`)).status !== 200)
      await new Promise((wake) => setTimeout(wake, 20));
    expect((await fetch(`${url}/quickstart`)).headers.get('content-type')).toBe(
      'text/html; charset=utf-8',
    );
    expect(cli.err).toMatch(/Serving bundle cli-[0-9a-f]{12}: demo, 21 pages/);
    cli.interrupt();
    expect(await exit).toBe(0);
  });

  it('keeps trying an unreachable link, and turns ready once it answers', async () => {
    const { app, bundleUrl } = await exportedBundle();
    const dir = await tempDir();
    await writeFile(join(dir, 'values.yaml'), chartValues(bundleUrl, undefined));
    const cli = captureIo({});
    let calls = 0;
    cli.io.fetch = (async (url: string, init?: RequestInit) => {
      if (++calls === 1) throw new TypeError('fetch failed: ECONNREFUSED');
      return app.request(url, init);
    }) as typeof fetch;
    const exit = runCli(
      [
        'host',
        '--values',
        join(dir, 'values.yaml'),
        '--port',
        '0',
        '--cache',
        join(dir, 'cache'),
        '--retry-seconds',
        '1',
      ],
      cli.io,
    );
    const [, url] = await cli.waitFor(/running at (http:\/\/[\d.:]+)\//);
    while ((await fetch(`${url}/readyz`)).status !== 200)
      await new Promise((wake) => setTimeout(wake, 50));
    expect(cli.err).toMatch(
      /unreachable[\s\S]*no cached version[\s\S]*Trying the bundle link again[\s\S]*Serving bundle/,
    );
    expect(calls).toBe(2);
    cli.interrupt();
    expect(await exit).toBe(0);
  });

  it('exits 2 with a clear message on bad values, and lists every environment variable in --help', async () => {
    const bad = captureIo({ DOCS_ASSISTANT_DEPLOYMENT_TYPE: 'moon' });
    expect(await runCli(['host', '--port', '0'], bad.io)).toBe(2);
    expect(bad.err).toMatch(/deployment\.type/);
    const help = captureIo();
    expect(await runCli(['host', '--help'], help.io)).toBe(0);
    for (const name of [
      'DOCS_ASSISTANT_STATIC_EXPORT_BUNDLE_URL',
      'DOCS_ASSISTANT_STATIC_EXPORT_VERSION',
      'DOCS_ASSISTANT_DEPLOYMENT_TYPE',
      'DOCS_ASSISTANT_ASSISTANT_UPSTREAM',
    ])
      expect(help.out).toContain(name);
  });
});
