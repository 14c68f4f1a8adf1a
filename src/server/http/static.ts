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

/** A URL path decoded, or undefined when it can't be (a malformed %-escape) or carries a NUL. */
export function decodePath(path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  return decoded.includes('\0') ? undefined : decoded;
}

/** `relative` resolved under `root`, or undefined when it lands outside (`..`, absolute paths). */
export function resolveInside(root: string, relative: string): string | undefined {
  const base = resolve(root);
  const file = resolve(join(base, relative));
  return file === base || file.startsWith(base + sep) ? file : undefined;
}

/**
 * Reads `relative` under `root`, or undefined. Paths are decoded and resolved first, and anything
 * that lands outside `root` (`..`, encoded slashes, absolute paths) is simply not found.
 */
export async function readStatic(root: string, relative: string): Promise<Response | undefined> {
  const decoded = decodePath(relative);
  const file = decoded === undefined ? undefined : resolveInside(root, decoded);
  if (!file) return undefined;
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
