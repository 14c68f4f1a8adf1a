import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Reads `relative` under `root`, or undefined. Paths are decoded and resolved first, and anything
 * that lands outside `root` (`..`, encoded slashes, absolute paths) is simply not found.
 */
export async function readStatic(root: string, relative: string): Promise<Response | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const base = resolve(root);
  const file = resolve(join(base, decoded));
  if (file !== base && !file.startsWith(base + sep)) return undefined;
  try {
    const body = await readFile(file);
    return new Response(body, {
      headers: {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch {
    return undefined;
  }
}
