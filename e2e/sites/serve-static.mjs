// Serves the checked-in static builds of the docs fixtures, one per host name
// (vitepress.test, docusaurus.test, starlight.test), the way a static host would:
// `/a/` → a/index.html, `/a` → a, a.html or a/index.html, anything else → the site's 404.html.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const here = import.meta.dirname;
export const SITE_ROOTS = {
  vitepress: join(here, 'vitepress/docs/.vitepress/dist'),
  docusaurus: join(here, 'docusaurus/build'),
  starlight: join(here, 'starlight/dist'),
};
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain',
};

const isFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The file a static host serves for a URL path, or undefined (a 404). */
export function resolveFile(root, urlPath) {
  const path = normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, '');
  const base = join(root, path);
  const candidates = path.endsWith('/')
    ? [join(base, 'index.html')]
    : [base, `${base}.html`, join(base, 'index.html')];
  return candidates.find(isFile);
}

const port = Number(process.argv[2] ?? 4463);
createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/healthz') return res.writeHead(200).end('ok');
  const name = (req.headers.host ?? '').split(':')[0].replace(/\.test$/, '');
  const root = SITE_ROOTS[name];
  if (!root) return res.writeHead(404).end(`No fixture site for host ${req.headers.host}`);
  const file = resolveFile(root, url.pathname);
  const served = file ?? join(root, '404.html');
  res.writeHead(file ? 200 : 404, {
    'content-type': TYPES[extname(served)] ?? 'application/octet-stream',
    'cache-control': 'no-store',
  });
  createReadStream(served).pipe(res);
}).listen(port, '127.0.0.1', () => console.log(`fixture sites on http://127.0.0.1:${port}`));
