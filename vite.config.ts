import { resolve } from 'node:path';
import { Features } from 'lightningcss';
import type { UserConfig } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const here = import.meta.dirname;

/**
 * Suites that start real processes and wait on them: server processes killed mid-answer, the CLI
 * binary, `--workers`, the stdio MCP server, PostgreSQL, the MiniLM embedding server. Half of the
 * vitest suite's time; they run in CI and with `npm run test:slow`, not in `npm test`.
 */
const PROCESS_SUITES = [
  'test/faults.test.ts',
  'test/postgres.test.ts',
  'test/cli-process.test.ts',
  'test/serve-workers.test.ts',
  'test/agent-stdio.test.ts',
  'test/embeddings.test.ts',
  'test/large-docs-folder.test.ts',
];

/**
 * In-process suites that export, host or serve whole sites, or run over all of them: bundles and
 * the host, the object store, the served Fastify folder and its llms.txt, --watch, the shipped
 * files' size (a real vite build), the fuzzer, the README's commands, every real docs set parsed
 * on threads and in one, and with marked and with remark, and GLib's GTK-Doc build. Half of the `unit` time on a
 * clean clone; they run in CI and with `npm run test:slow`, not in `npm test`.
 */
const SLOW_SUITES = [
  'test/served-site.test.ts',
  'test/host.test.ts',
  'test/agent-markdown.test.ts',
  'test/s3.test.ts',
  'test/site-watch.test.ts',
  'test/docs-safety.test.ts',
  'test/size.test.ts',
  'test/server-export.test.ts',
  'test/fuzz.test.ts',
  'test/project-docs.test.ts',
  'test/cli-export.test.ts',
  'test/static-export-client.test.ts',
  'test/readme-commands.test.ts',
  'test/parse-threads.test.ts',
  'test/markdown-sets.test.ts',
  'test/debian-gtkdoc.test.ts',
];

/** Radix marks its modules "use client"; that directive means nothing inside a browser bundle. */
const rollupOptions = {
  onwarn(warning: { code?: string }, warn: (w: never) => void) {
    if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning as never);
  },
};

/** The script tag's two files, built as classic scripts (IIFE) into dist/embed. */
function embedBuild(entry: 'loader' | 'chat'): UserConfig {
  return {
    // The script tag ships its own renderer: Preact's React-compatible layer (~10 KB) instead of
    // react-dom (~60 KB gzip), as DocSearch's script build does. The React import keeps real React.
    resolve: {
      alias: [
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^react$/, replacement: 'preact/compat' },
      ],
    },
    // React and our code read process.env.NODE_ENV; a library build does not replace it by itself.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    // No light-dark() in our CSS, so no --lightningcss-light/dark variables beside each color-scheme.
    css: { lightningcss: { exclude: Features.LightDark } },
    build: {
      outDir: resolve(here, 'dist/embed'),
      emptyOutDir: entry === 'loader',
      // The loader runs on every page of the host site and has an 8 KiB budget: terser's extra
      // passes take ~2% more off it than the default minifier; the chat file loads later.
      minify: entry === 'loader' ? 'terser' : true,
      terserOptions: {
        ecma: 2020,
        compress: { passes: 3 },
        mangle: { toplevel: true },
      },
      sourcemap: true,
      // A library IIFE is one file (no code splitting): the React import's lazy Markdown chunk is inlined.
      rollupOptions: {
        ...rollupOptions,
        // V8's explicit compile hint: every function of the loader runs at load, so compile them all
        // on the script-streaming thread instead of one by one on the page's main thread when first
        // called (~2 ms of the page's main thread). Must be the file's first line.
        output: entry === 'loader' ? { postBanner: '//# allFunctionsCalledOnLoad' } : {},
      },
      lib: {
        entry: resolve(here, entry === 'loader' ? 'src/embed/loader.ts' : 'src/embed/chat.tsx'),
        formats: ['iife'],
        name: entry === 'loader' ? 'DocsAssistantLoader' : 'DocsAssistantChat',
        fileName: () => (entry === 'loader' ? 'docs-assistant.js' : 'docs-assistant.chat.js'),
      },
    },
  };
}

/**
 * The owner's insights page (served at /insights): its script with uPlot bundled in, and its
 * styles, with fixed names the server's page links.
 */
const insightsBuild: UserConfig = {
  build: {
    outDir: resolve(here, 'dist/insights'),
    emptyOutDir: true,
    minify: true,
    sourcemap: true,
    cssCodeSplit: false,
    rollupOptions: {
      input: resolve(here, 'src/insights-page/main.ts'),
      output: {
        entryFileNames: 'insights.js',
        assetFileNames: (asset) =>
          asset.names?.[0]?.endsWith('.css') ? 'insights.css' : '[name][extname]',
      },
    },
  },
};

export default defineConfig(({ mode }) => {
  if (mode === 'insights') return insightsBuild;
  if (mode === 'embed-loader') return embedBuild('loader');
  if (mode === 'embed-chat') return embedBuild('chat');
  return {
    // The demo site (gallery, React page) is built from demo/ into dist/demo; the server serves it.
    root: resolve(here, 'demo'),
    base: './',
    build: {
      outDir: resolve(here, 'dist/demo'),
      emptyOutDir: true,
      rollupOptions: {
        ...rollupOptions,
        input: {
          gallery: resolve(here, 'demo/index.html'),
          state: resolve(here, 'demo/gallery/state.html'),
          react: resolve(here, 'demo/react/main.tsx'),
          // The headless v2 example (docs/v2.md): AI SDK 6's useChat, no widget.
          headless: resolve(here, 'demo/headless/index.html'),
        },
        // Stable names: the server's docs pages link the React demo's entry by name.
        output: { entryFileNames: 'assets/[name].js', assetFileNames: 'assets/[name][extname]' },
      },
    },
    test: {
      root: here,
      environment: 'node',
      // Hang guards only, never speed bounds: a shared, loaded 2-core machine may take many times
      // a test's usual time. Speed is measured in bench/. test/setup.ts raises waitFor's the same way.
      testTimeout: 600_000,
      hookTimeout: 600_000,
      setupFiles: ['test/setup.ts'],
      // `npm test` runs `unit`; `npm run test:slow` runs `slow` and `processes` (the suites that
      // start real processes: servers, workers, PostgreSQL, the embedding server); CI runs all
      // three (docs/testing.md).
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            include: ['test/**/*.test.{ts,tsx}'],
            exclude: [...configDefaults.exclude, ...PROCESS_SUITES, ...SLOW_SUITES],
            // Files share one module graph per worker instead of importing the server, the AI SDK
            // and React afresh for each of ~60 files: that import was most of the suite's CPU.
            isolate: false,
          },
        },
        { extends: true, test: { name: 'slow', include: SLOW_SUITES, isolate: false } },
        { extends: true, test: { name: 'processes', include: PROCESS_SUITES } },
      ],
    },
  };
});
