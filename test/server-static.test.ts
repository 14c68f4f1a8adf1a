import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../src/server/config.js';
import { createSite, parsePage } from '../src/server/site/docs.js';
import { demoApp, tempDir } from './helpers/server.js';

/** A built-assets folder (as `npm run build` lays out dist/) with a secret beside it. */
async function assets() {
  const dir = await tempDir('da-assets-');
  const dist = join(dir, 'dist');
  await mkdir(join(dist, 'embed'), { recursive: true });
  await mkdir(join(dist, 'demo', 'assets'), { recursive: true });
  await writeFile(join(dist, 'styles.css'), '.da-root{}');
  await writeFile(join(dist, 'embed', 'docs-assistant.js'), 'console.log(1)');
  await writeFile(join(dist, 'demo', 'index.html'), '<!doctype html><title>Gallery</title>');
  await writeFile(join(dist, 'demo', 'assets', 'react.js'), 'export {}');
  await writeFile(join(dir, 'secret.txt'), 'SECRET');
  return dist;
}

describe('built assets and docs files', () => {
  it('serves the gallery, the stylesheet, the script tag and the React demo with their types', async () => {
    const app = await demoApp({ assetsDir: await assets() });
    for (const [path, type, text] of [
      ['/', 'text/html', 'Gallery'],
      ['/styles.css', 'text/css', '.da-root'],
      ['/embed/docs-assistant.js', 'text/javascript', 'console.log'],
      ['/assets/react.js', 'text/javascript', 'export'],
    ]) {
      const response = await app.request(`http://test${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toContain(type!);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(await response.text(), path).toContain(text);
    }
    // One line, as pages that add a CSP nonce by replacing `<script src=` expect.
    const docs = await (await app.request('http://test/docs/guides/page-context')).text();
    expect(docs).toContain('<script src="/embed/docs-assistant.js" defer data-domain="demo"');
    expect(docs).toContain('<style>');
  });

  it('never serves a file outside the assets folder, however the path is written', async () => {
    const app = await demoApp({ assetsDir: await assets() });
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/embed/..%2f..%2fsecret.txt',
      '/embed/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/%00',
      '/%ff',
      '/embed/',
    ]) {
      const response = await app.request(`http://test${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('SECRET');
    }
  });

  it('serves the docs folder’s own files, spaces and other escaped characters in their names included', async () => {
    const dir = await tempDir('da-docs-');
    await mkdir(join(dir, 'images'));
    await writeFile(join(dir, 'images', 'Screen shot é.svg'), '<svg/>');
    const docs = createSite(
      [parsePage('index.md', '# Home\n\n![shot](images/Screen%20shot%20é.svg)\n')],
      ['/images/Screen shot é.svg'],
      dir,
    );
    const app = await demoApp({ sites: [{ domain: DEMO.domain, org: DEMO.org, docs }] });
    const image = await app.request(`http://test/docs/images/Screen%20shot%20%C3%A9.svg`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toContain('image/svg+xml');
    expect((await app.request('http://test/docs/images/..%2f..%2fetc%2fpasswd')).status).toBe(404);
  });
});
