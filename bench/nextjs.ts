// What the widget costs a Next.js app: the e2e/sites/nextjs fixture (create-next-app, Turbopack)
// built with the packed `docs-assistant` and again without its <Assistant />. Prints the pages'
// initial JS, all client JS and any chunk with zod in it. Needs the npm registry (the fixture's
// `npm ci`) and `npm run build` first.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildPackage, publishedPackages } from '../packages/build.mjs';

const run = promisify(execFile);
const FIXTURE = join(import.meta.dirname, '../e2e/sites/nextjs');
const PAGES = ['index.html', 'guides/widget-setup.html'];

interface Figures {
  /** gzip -9 bytes of the scripts each prerendered page loads. */
  initial: Record<string, number>;
  total: number;
  files: number;
  zod: string[];
}

async function measure(app: string): Promise<Figures> {
  const chunks = join(app, '.next/static/chunks');
  const gzip = async (file: string) =>
    gzipSync(await readFile(join(chunks, file)), { level: 9 }).length;
  const files = (await readdir(chunks, { recursive: true })).filter((f) => f.endsWith('.js'));
  let total = 0;
  const zod: string[] = [];
  for (const file of files) {
    total += await gzip(file);
    // zod's runtime carries these names; zod-to-json-schema its own option names.
    const text = await readFile(join(chunks, file), 'utf8');
    if (/ZodFirstPartyTypeKind|invalid_type_error|\$refStrategy/.test(text)) zod.push(file);
  }
  const initial: Record<string, number> = {};
  for (const page of PAGES) {
    const html = await readFile(join(app, '.next/server/app', page), 'utf8');
    const scripts = new Set(
      [...html.matchAll(/\/_next\/static\/chunks\/([^"'?\s]+\.js)/g)].map((m) => m[1]!),
    );
    initial[page] = 0;
    for (const script of scripts) initial[page] += await gzip(script);
  }
  return { initial, total, files: files.length, zod };
}

const nextBuild = (app: string) =>
  run('npx', ['next', 'build'], {
    cwd: app,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    maxBuffer: 64 << 20,
  });

export async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'da-nextjs-'));
  const app = join(dir, 'app');
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  try {
    await cp(FIXTURE, app, {
      recursive: true,
      filter: (source) => !/\/(node_modules|\.next)(\/|$)|\.tgz$/.test(source),
    });
    const widget = publishedPackages().find((p) => p.pkg.name === 'docs-assistant')!;
    buildPackage(widget);
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
      {
        cwd: widget.dir,
      },
    );
    const tarball = join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: app, maxBuffer: 64 << 20 });
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', tarball], { cwd: app });
    const installed = await readdir(join(app, 'node_modules'));
    await nextBuild(app);
    const withWidget = await measure(app);

    const layout = join(app, 'app/layout.tsx');
    const source = await readFile(layout, 'utf8');
    const without = source
      .replace(/^import \{ Assistant \} from "\.\/assistant";\n/m, '')
      .replace(/^\s*<Assistant \/>\n/m, '');
    if (without.includes('Assistant')) throw new Error(`${layout}: could not take the widget out`);
    await writeFile(layout, without);
    await rm(join(app, 'app/assistant.tsx'));
    await rm(join(app, '.next'), { recursive: true, force: true });
    await nextBuild(app);
    const withoutWidget = await measure(app);

    console.log('Next.js fixture (e2e/sites/nextjs), next build with Turbopack; gzip -9');
    console.log(
      `  zod or zod-to-json-schema installed: ${installed.filter((n) => n.startsWith('zod')).join(' ') || 'no'}`,
    );
    for (const page of PAGES) {
      const a = withoutWidget.initial[page]!;
      const b = withWidget.initial[page]!;
      console.log(
        `  ${page}: initial JS ${kb(a)} without the widget, ${kb(b)} with (+${kb(b - a)})`,
      );
    }
    console.log(
      `  all client JS: ${kb(withoutWidget.total)} (${withoutWidget.files} files) without, ${kb(withWidget.total)} (${withWidget.files} files) with (+${kb(withWidget.total - withoutWidget.total)})`,
    );
    console.log(`  client chunks with zod code: ${withWidget.zod.join(' ') || 'none'}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
