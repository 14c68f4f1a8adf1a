import { build as esbuild, type Metafile } from 'esbuild';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build as viteBuild } from 'vite';

const ROOT = resolve(import.meta.dirname, '..');
const KiB = 1024;

export interface SizeFigure {
  name: string;
  /** Bytes after gzip -9. */
  gzip: number;
  brotli: number;
  minified: number;
  budget: number;
  note?: string;
}

const gzip = (data: Uint8Array | string) => gzipSync(data, { level: 9 }).length;
const brotli = (data: Uint8Array | string) =>
  brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

function figure(
  name: string,
  data: Uint8Array | string,
  budget: number,
  note?: string,
): SizeFigure {
  return {
    name,
    gzip: gzip(data),
    brotli: brotli(data),
    minified: typeof data === 'string' ? Buffer.byteLength(data) : data.length,
    budget,
    ...(note ? { note } : {}),
  };
}

/**
 * Builds the script tag's two files exactly as `npm run build` ships them, into a temporary
 * folder: the same config and settings (source map comment included), only another folder.
 */
async function buildEmbed(outDir: string): Promise<{ loader: Buffer; chat: Buffer }> {
  for (const mode of ['embed-loader', 'embed-chat']) {
    await viteBuild({
      configFile: join(ROOT, 'vite.config.ts'),
      mode,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: mode === 'embed-loader' },
    });
  }
  return {
    loader: await readFile(join(outDir, 'docs-assistant.js')),
    chat: await readFile(join(outDir, 'docs-assistant.chat.js')),
  };
}

/** What a React app ships for the minimal usage, React external (esbuild, minified, split). */
async function buildReactImport(
  dir: string,
): Promise<{ initial: Buffer; total: number; totalGzip: number }> {
  const entry = join(dir, 'app.tsx');
  await writeFile(
    entry,
    `import { createRoot } from 'react-dom/client';\nimport { DocsAssistant } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};\n` +
      `createRoot(document.getElementById('root')!).render(<DocsAssistant domain="acme" apiKey="svc_dsc_x" baseUrl="https://api.example.com" />);\n`,
  );
  const result = await esbuild({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    outdir: join(dir, 'out'),
    write: false,
    metafile: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client'],
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  const outputs = (result.metafile as Metafile).outputs;
  const files = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  // The initial load: the entry chunk and what it imports statically; lazy chunks load on first open.
  const initial = new Set<string>();
  const visit = (path: string) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  const entryOut = Object.entries(outputs).find(([, output]) => output.entryPoint)![0];
  visit(entryOut);
  const abs = (path: string) => resolve(ROOT, path);
  const initialBytes = Buffer.concat(
    [...initial].map((path) => Buffer.from(files.get(abs(path))!)),
  );
  const all = Buffer.concat(
    [...files.entries()]
      .filter(([path]) => path.endsWith('.js'))
      .map(([, data]) => Buffer.from(data)),
  );
  return { initial: initialBytes, total: all.length, totalGzip: gzip(all) };
}

export async function measureSizes(): Promise<SizeFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'da-size-'));
  try {
    const embed = await buildEmbed(join(dir, 'embed'));
    const react = await buildReactImport(dir);
    const css = (
      await Promise.all(
        ['launcher', 'widget'].map((f) =>
          readFile(join(ROOT, 'src/ui/styles', `${f}.css`), 'utf8'),
        ),
      )
    ).join('\n');
    return [
      figure('script tag: docs-assistant.js (every page)', embed.loader, 8 * KiB),
      figure(
        'script tag: everything on first open (loader + chat)',
        Buffer.concat([embed.loader, embed.chat]),
        120 * KiB,
        'React is Preact compat here; CSS included',
      ),
      figure(
        'React import: minimal usage, React external',
        react.initial,
        60 * KiB,
        `+ lazy Markdown chunk on first open: ${(react.totalGzip / KiB).toFixed(1)} KiB gzip in all`,
      ),
      figure('styles.css', css, 8 * KiB),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<void> {
  const figures = await measureSizes();
  const kib = (n: number) => `${(n / KiB).toFixed(1)} KiB`;
  console.log('Sizes (gzip -9 against budget; brotli q11 and minified for reference)\n');
  console.log(
    `${'what'.padEnd(56)}${'gzip'.padStart(11)}${'budget'.padStart(11)}${'brotli'.padStart(11)}${'minified'.padStart(12)}  ok`,
  );
  for (const f of figures) {
    console.log(
      `${f.name.padEnd(56)}${kib(f.gzip).padStart(11)}${kib(f.budget).padStart(11)}${kib(f.brotli).padStart(11)}${kib(f.minified).padStart(12)}  ${f.gzip <= f.budget ? 'yes' : 'NO'}${f.note ? `   (${f.note})` : ''}`,
    );
  }
}
