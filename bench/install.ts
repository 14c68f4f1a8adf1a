// What a new user meets: `npm pack` of what this repo publishes, installed into fresh Vite React 18
// and 19 apps (from the npm registry), a production Vite build, a strict consumer's type check and
// Node imports. Prints figures; needs the registry and `npm run build:packages` (or `npm run build`).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildPackage, publishedPackages } from '../packages/build.mjs';

const run = promisify(execFile);
const KB = 1000;

interface Packed {
  name: string;
  file: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** The packages this repo publishes, assembled from the root dist/ (`npm run build` first). */
function publishedDirs(): string[] {
  return publishedPackages().map((p) => {
    buildPackage(p);
    return p.dir;
  });
}

async function pack(dir: string, into: string): Promise<Packed> {
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', into],
    { cwd: dir, maxBuffer: 64 << 20 },
  );
  const [info] = JSON.parse(stdout) as {
    name: string;
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string; size: number }[];
  }[];
  return {
    name: info!.name,
    file: join(into, info!.filename),
    size: info!.size,
    unpackedSize: info!.unpackedSize,
    files: info!.files,
  };
}

async function duBytes(dir: string): Promise<number> {
  const { stdout } = await run('du', ['-sb', dir]);
  return Number(stdout.split('\t')[0]);
}

/** Installed packages, from npm's own record of node_modules. */
async function installed(
  app: string,
): Promise<{ count: number; bytes: number; names: Set<string> }> {
  const lock = JSON.parse(await readFile(join(app, 'node_modules/.package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  const names = new Set(
    Object.keys(lock.packages)
      .filter((k) => k.startsWith('node_modules/'))
      .map((k) => k.replace(/^.*node_modules\//, '')),
  );
  return {
    count: Object.keys(lock.packages).filter((k) => k.includes('node_modules/')).length,
    bytes: await duBytes(join(app, 'node_modules')),
    names,
  };
}

const npm = (cwd: string, args: string[]) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    maxBuffer: 64 << 20,
  });

async function tsc(app: string, name: string, options: Record<string, unknown>): Promise<string[]> {
  await writeFile(
    join(app, `tsconfig.${name}.json`),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        jsx: 'react-jsx',
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        ...options,
      },
      include: ['src'],
    }),
  );
  try {
    await run(join(app, 'node_modules/.bin/tsc'), ['-p', `tsconfig.${name}.json`], {
      cwd: app,
      maxBuffer: 64 << 20,
    });
    return [];
  } catch (error) {
    return ((error as { stdout?: string }).stdout ?? String(error))
      .split('\n')
      .filter((l) => /error TS/.test(l));
  }
}

async function nodeImport(app: string, code: string, type: 'module' | 'commonjs'): Promise<string> {
  try {
    const { stdout } = await run('node', [`--input-type=${type}`, '-e', code], { cwd: app });
    return stdout.trim();
  } catch (error) {
    const text = (error as { stderr?: string }).stderr ?? String(error);
    return `FAILS: ${text.match(/\b(ERR_[A-Z_]+|Error: .*)/)?.[0] ?? text.split('\n')[0]}`;
  }
}

async function viteBuild(
  app: string,
): Promise<{ initial: number; total: number; zod: boolean; files: string[] }> {
  await run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], {
    cwd: app,
    maxBuffer: 64 << 20,
  });
  const assets = join(app, 'dist/assets');
  const files = (await readdir(assets)).filter((f) => f.endsWith('.js'));
  let initial = 0;
  let total = 0;
  let zod = false;
  const html = await readFile(join(app, 'dist/index.html'), 'utf8');
  for (const file of files) {
    const data = await readFile(join(assets, file));
    const gz = gzipSync(data, { level: 9 }).length;
    total += gz;
    if (html.includes(file)) initial += gz;
    // zod's runtime carries these names; zod-to-json-schema its own option names.
    if (/ZodFirstPartyTypeKind|invalid_type_error|\$refStrategy/.test(data.toString())) zod = true;
  }
  return { initial, total, zod, files };
}

export interface AppFigures {
  react: string;
  base: { count: number; bytes: number };
  withWidget: { count: number; bytes: number };
  added: string[];
  vite: { initial: number; total: number; zod: boolean };
  viteWithoutWidget: { initial: number; total: number };
  types: Record<string, string[]>;
  node: Record<string, string>;
}

const APP_TSX = `import { createRoot } from 'react-dom/client';
import { DocsAssistant } from 'docs-assistant';
import 'docs-assistant/styles.css';
createRoot(document.getElementById('root')!).render(<DocsAssistant domain="acme" apiKey="svc_dsc_x" baseUrl="https://api.example.com" />);
`;

/** A fresh Vite React app (what \`npm create vite -- --template react-ts\` sets up), then the widget added. */
async function measureApp(
  dir: string,
  react: '18' | '19',
  packed: Packed[],
  consumerTypes: string,
): Promise<AppFigures> {
  const app = join(dir, `vite-react-${react}`);
  await mkdir(join(app, 'src'), { recursive: true });
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({
      name: `app-${react}`,
      private: true,
      type: 'module',
      dependencies: { react: `^${react}`, 'react-dom': `^${react}` },
      devDependencies: {
        vite: '^8',
        '@vitejs/plugin-react': '^6',
        typescript: '~5.9',
        '@types/react': `^${react}`,
        '@types/react-dom': `^${react}`,
      },
    }),
  );
  await writeFile(
    join(app, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n',
  );
  await writeFile(
    join(app, 'vite.config.ts'),
    "import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\nexport default defineConfig({ plugins: [react()] });\n",
  );
  await writeFile(
    join(app, 'src/main.tsx'),
    "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<p>docs</p>);\n",
  );
  await npm(app, ['install']);
  const base = await installed(app);
  const viteWithoutWidget = await viteBuild(app);

  const widget = packed.find((p) => p.name === 'docs-assistant')!;
  await npm(app, ['install', widget.file]);
  const withWidget = await installed(app);
  await writeFile(join(app, 'src/main.tsx'), APP_TSX);
  const vite = await viteBuild(app);

  // A strict consumer: its own code plus every .d.ts it reaches, library files included.
  const exported = JSON.parse(
    await readFile(join(app, 'node_modules/docs-assistant/package.json'), 'utf8'),
  ).exports as Record<string, unknown>;
  await writeFile(
    join(app, 'src/consumer.tsx'),
    consumerTypes + (exported['./client/node'] ? NODE_CONSUMER : ''),
  );
  const types = {
    'bundler (module esnext)': await tsc(app, 'bundler', {
      module: 'ESNext',
      moduleResolution: 'bundler',
    }),
    'node16 (type: module)': await tsc(app, 'node16', {
      module: 'Node16',
      moduleResolution: 'Node16',
    }),
    'nodenext (type: module)': await tsc(app, 'nodenext', {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
    }),
  };
  await rm(join(app, 'src/consumer.tsx'));

  const node: Record<string, string> = {
    'ESM import docs-assistant/client': await nodeImport(
      app,
      "const m = await import('docs-assistant/client'); console.log('ok: ' + Object.keys(m).sort().join(', '))",
      'module',
    ),
    'CJS require docs-assistant/client': await nodeImport(
      app,
      "const m = require('docs-assistant/client'); console.log('ok: ' + Object.keys(m).sort().join(', '))",
      'commonjs',
    ),
  };
  for (const [specifier, label] of [
    ['docs-assistant/client/node', 'ESM import docs-assistant/client/node'],
  ] as const) {
    node[label] = await nodeImport(
      app,
      `const m = await import('${specifier}'); console.log('ok: ' + Object.keys(m).sort().join(', '))`,
      'module',
    );
  }
  const added = [...withWidget.names].filter((n) => !base.names.has(n)).sort();
  return {
    react,
    base,
    withWidget,
    added,
    vite: { initial: vite.initial, total: vite.total, zod: vite.zod },
    viteWithoutWidget,
    types,
    node,
  };
}

/** The server package alone, as `npm install docs-assistant-server` (or the one package, before the split). */
async function measureServer(
  dir: string,
  packed: Packed[],
): Promise<{ name: string; count: number; bytes: number; cli: string }> {
  const server =
    packed.find((p) => p.name === 'docs-assistant-server') ??
    packed.find((p) => p.name === 'docs-assistant')!;
  const app = join(dir, 'server-user');
  await mkdir(app, { recursive: true });
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'server-user', private: true }),
  );
  await npm(app, ['install', server.file]);
  const { count, bytes } = await installed(app);
  let cli: string;
  try {
    cli = (
      await run(join(app, 'node_modules/.bin/docs-assistant'), ['--help'], { cwd: app })
    ).stdout.split('\n')[0]!;
  } catch (error) {
    cli = `FAILS: ${String(error).split('\n')[0]}`;
  }
  return { name: server.name, count, bytes, cli };
}

const CONSUMER_TYPES = `import { createRef } from 'react';
import { DocsAssistant, useDocsAssistant, type AssistantHandle } from 'docs-assistant';
import { assistantMessageUrl } from 'docs-assistant/client';
export const ref = createRef<AssistantHandle>();
export const url: string = assistantMessageUrl('', 'acme');
export function App() { const chat = useDocsAssistant({ domain: 'acme' }); return <DocsAssistant ref={ref} domain="acme" open={chat.status === 'streaming'} />; }
export const lastText = (chat: ReturnType<typeof useDocsAssistant>): string =>
  chat.messages.at(-1)?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
`;

const NODE_CONSUMER = `import { createStaticExportClient, type Job } from 'docs-assistant/client/node';
export const progress = (job: Job): number => job.progress;
export const exporter = createStaticExportClient({ baseUrl: 'https://api.example.com', adminKey: 'svc_x' });
`;

export async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'da-install-'));
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  const kb = (n: number) => `${(n / KB).toFixed(1)} kB`;
  try {
    const packed: Packed[] = [];
    for (const pkgDir of publishedDirs()) packed.push(await pack(pkgDir, dir));
    for (const p of packed) {
      const maps = p.files.filter((f) => f.path.endsWith('.map'));
      const mapBytes = maps.reduce((s, f) => s + f.size, 0);
      console.log(
        `\n${p.name}: tarball ${kb(p.size)}, unpacked ${kb(p.unpackedSize)}, ${p.files.length} files, ${maps.length} .map (${kb(mapBytes)})`,
      );
      const groups = new Map<string, { n: number; bytes: number }>();
      for (const f of p.files) {
        const key =
          f.path
            .split('/')
            .slice(0, f.path.startsWith('dist/') ? 2 : 1)
            .join('/') +
          (f.path.endsWith('.map') ? ' (*.map)' : f.path.endsWith('.d.ts') ? ' (*.d.ts)' : '');
        const g = groups.get(key) ?? { n: 0, bytes: 0 };
        groups.set(key, { n: g.n + 1, bytes: g.bytes + f.size });
      }
      for (const [key, g] of [...groups].sort())
        console.log(
          `  ${key.padEnd(36)} ${String(g.n).padStart(4)} files ${kb(g.bytes).padStart(10)}`,
        );
      const broken = [];
      for (const map of maps.slice(0, 200)) {
        const extracted = join(dir, 'x', p.name);
        if (!existsSync(extracted)) {
          await mkdir(extracted, { recursive: true });
          await run('tar', ['xzf', p.file, '-C', extracted]);
        }
        const json = JSON.parse(await readFile(join(extracted, 'package', map.path), 'utf8')) as {
          sources: string[];
          sourcesContent?: (string | null)[];
        };
        const missing = json.sources.filter(
          (s, i) =>
            !json.sourcesContent?.[i] &&
            !existsSync(resolve(join(extracted, 'package', map.path, '..'), s)),
        );
        if (missing.length) broken.push(map.path);
      }
      console.log(`  source maps whose sources are neither embedded nor shipped: ${broken.length}`);
    }
    const server = await measureServer(dir, packed);
    console.log(
      `\nnpm install ${server.name} (alone): ${server.count} packages, ${mb(server.bytes)}; docs-assistant --help: ${server.cli}`,
    );
    for (const react of ['18', '19'] as const) {
      const f = await measureApp(dir, react, packed, CONSUMER_TYPES);
      console.log(`\nVite React ${react} app`);
      console.log(
        `  node_modules without the widget: ${f.base.count} packages, ${mb(f.base.bytes)}`,
      );
      console.log(
        `  with docs-assistant:             ${f.withWidget.count} packages, ${mb(f.withWidget.bytes)}  (+${f.withWidget.count - f.base.count} packages, +${mb(f.withWidget.bytes - f.base.bytes)})`,
      );
      console.log(`  added: ${f.added.join(' ')}`);
      const heavy = f.added.filter((n) => /^(zod|zod-to-json-schema|@ai-sdk\/|ai$|hono)/.test(n));
      console.log(`  zod, AI SDK or server packages installed: ${heavy.join(' ') || 'none'}`);
      console.log(
        `  vite build, gzip: initial JS ${kb(f.vite.initial)} (app alone ${kb(f.viteWithoutWidget.initial)}, +${kb(f.vite.initial - f.viteWithoutWidget.initial)}), all JS ${kb(f.vite.total)}; zod in output: ${f.vite.zod ? 'YES' : 'no'}`,
      );
      for (const [name, errors] of Object.entries(f.types)) {
        console.log(
          `  tsc skipLibCheck:false, ${name}: ${errors.length ? `${errors.length} errors` : 'clean'}`,
        );
        for (const e of errors.slice(0, 8)) console.log(`    ${e.replaceAll(dir, '…')}`);
      }
      for (const [name, result] of Object.entries(f.node))
        console.log(`  node ${process.version} ${name}: ${result}`);
    }
  } finally {
    if (!process.env.KEEP) await rm(dir, { recursive: true, force: true });
    else console.log(`\nkept ${dir}`);
  }
}
