import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/**
 * What each part of the repository may import (CONTRIBUTING.md, "Conventions"). The layers:
 * protocol ← client ← chat ← ui ← embed; server imports only protocol; cli imports client,
 * protocol and server. `src/index.ts` re-exports the browser layers and nothing in src imports it
 * back; the demo is a host page, so it uses the public entry and the browser layers but never the
 * server or CLI; a benchmark may measure anything. A part may always import itself; nothing in src
 * reaches test/, bench/, demo/ or e2e/ because none of those is in any src part's list.
 */
const ALLOWED: Record<string, readonly string[] | 'anything'> = {
  'src/protocol': [],
  'src/client': ['src/protocol'],
  'src/chat': ['src/protocol', 'src/client'],
  'src/ui': ['src/protocol', 'src/client', 'src/chat'],
  'src/embed': ['src/protocol', 'src/client', 'src/chat', 'src/ui'],
  'src/server': ['src/protocol'],
  'src/cli': ['src/protocol', 'src/client', 'src/server'],
  // The owner's insights page: browser code the server serves, talking to it through the client.
  'src/insights-page': ['src/protocol', 'src/client'],
  'src/index': ['src/protocol', 'src/client', 'src/chat', 'src/ui'],
  demo: ['src/index', 'src/protocol', 'src/client', 'src/chat', 'src/ui', 'src/embed'],
  bench: 'anything',
};

/**
 * Code that runs in the reader's browser: no Node built-ins, and the widget never takes the whole
 * client or protocol index (which drags zod and node:fs into a page).
 */
const BROWSER_PARTS = new Set([
  'src/chat',
  'src/ui',
  'src/embed',
  'src/index',
  'src/insights-page',
  'demo',
]);
const WIDGET_BANNED = /^node:|^src\/(client|protocol)\/index\.[jt]s$/;
/**
 * Only `serve.ts` opens sockets: the app stays a Web-standard handler that tests call in-process.
 * `@hono/node-server/serve-static` reads files and opens none, so the routes may use it.
 */
const SOCKET_MODULES = /^(node:)?https?$|^@hono\/node-server(?!\/serve-static$)/;

/**
 * The rooms of the reference server (CONTRIBUTING.md, "Layout") and which other rooms each may
 * import. The docs site (loading, rendering, page paths and URLs) and the stores stand alone;
 * answering (retrieval, the quoting and model answerers, their AnswerParts) reads the site and the
 * stores' types but knows nothing of HTTP; http (the app, routes, middleware, the turn and its
 * writers) puts it all together; export owns its job service and its routes, which use http's
 * middleware, and so does insights; agents (the MCP tools over the site and the retriever) serves
 * both http and the stdio CLI, so it speaks no HTTP itself (the owner's recorder, report, routes and page); host makes apps. `config` and `ids` are the two files at the top of src/server.
 */
const SERVER_ROOMS: Record<string, readonly string[]> = {
  site: [],
  stores: [],
  ids: [],
  answering: ['site', 'stores', 'ids'],
  agents: ['site', 'answering'],
  export: ['site', 'stores', 'http', 'ids'],
  insights: ['stores', 'http'],
  http: ['site', 'stores', 'answering', 'agents', 'export', 'insights', 'ids'],
  host: ['site', 'http'],
  config: ['site', 'http'],
};
/** Answering yields parts in no wire format and stores keep data: neither speaks HTTP. */
const NO_HTTP_ROOMS = new Set(['answering', 'stores', 'agents']);
const HTTP_FRAMEWORK = /^(hono|@hono\/)/;

const SCANNED = ['src', 'demo', 'bench'];
const CODE_FILE = /\.(ts|tsx|mts|js|mjs)$/;

/** `src/ui/x.tsx` → `src/ui`; `src/index.ts` → `src/index`; `demo/react/main.tsx` → `demo`. */
function partOf(path: string): string {
  const [top, next] = path.split('/');
  if (top !== 'src' || next === undefined) return top!;
  return `src/${next.replace(/\.[^.]+$/, '')}`;
}

/** `src/server/answering/llm/x.ts` → `answering`; `src/server/config.ts` → `config`. */
function roomOf(path: string): string | undefined {
  const [top, server, room] = path.split('/');
  if (top !== 'src' || server !== 'server' || room === undefined) return undefined;
  return room.replace(/\.[^.]+$/, '');
}

/**
 * Every module a file names: static imports (type-only too), `export … from`, side-effect
 * imports, `import()` calls and `typeof import()` types — what TypeScript's own pre-processor
 * reads, so comments and strings that merely mention a path are not imports.
 */
function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The rule each import of the given files breaks (paths relative to the repository root). */
function violations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of files) {
    const from = partOf(path);
    const allowed = ALLOWED[from];
    for (const specifier of specifiersOf(text)) {
      const relativeImport = specifier.startsWith('.');
      const target = relativeImport ? join(dirname(path), specifier) : specifier;
      const to = relativeImport ? partOf(target) : undefined;
      if (
        to !== undefined &&
        to !== from &&
        allowed !== 'anything' &&
        !(allowed ?? []).includes(to)
      )
        found.push(`${path}: ${from} may not import ${to} (${specifier})`);
      if (BROWSER_PARTS.has(from) && (from === 'demo' ? /^node:/ : WIDGET_BANNED).test(target))
        found.push(`${path}: browser code may not import ${specifier}`);
      if (
        from === 'src/server' &&
        SOCKET_MODULES.test(specifier) &&
        path !== 'src/server/http/serve.ts'
      )
        found.push(`${path}: only serve.ts may import ${specifier}`);
      const room = roomOf(path);
      if (room !== undefined) {
        const rooms = SERVER_ROOMS[room];
        const into = relativeImport ? roomOf(target) : undefined;
        if (!rooms) found.push(`${path}: src/server/${room} is not a room of the server`);
        else if (into !== undefined && into !== room && !rooms.includes(into))
          found.push(`${path}: server room ${room} may not import ${into} (${specifier})`);
        if (NO_HTTP_ROOMS.has(room) && HTTP_FRAMEWORK.test(specifier))
          found.push(`${path}: server room ${room} may not import ${specifier}`);
      }
    }
  }
  return found;
}

/**
 * The modules a file imports statically: imports (type-only too) and re-exports. A cycle through
 * types is still two modules that cannot be read or moved apart (`import type` once let
 * cli/export.ts and cli/index.ts import each other); an `import()` loads later, on purpose.
 */
function staticImportsOf(text: string): string[] {
  const source = ts.createSourceFile('x.tsx', text, ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
    statement.moduleSpecifier &&
    ts.isStringLiteral(statement.moduleSpecifier)
      ? [statement.moduleSpecifier.text]
      : [],
  );
}

/**
 * Import cycles among the given modules, each as `a → b → a`: in a cycle one module runs before
 * the module it imports has finished, and sees its exports undefined; through types, the two
 * cannot be understood apart. This is the project's one cycle check (ESLint has none here).
 */
function cycles(files: ReadonlyMap<string, string>): string[] {
  const resolve = (from: string, specifier: string) => {
    const base = join(dirname(from), specifier).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => files.has(path));
  };
  const edges = new Map(
    [...files].map(([path, text]) => [
      path,
      staticImportsOf(text).flatMap((specifier) => {
        const target = specifier.startsWith('.') ? resolve(path, specifier) : undefined;
        return target ? [target] : [];
      }),
    ]),
  );
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (path: string) => {
    state.set(path, 'open');
    stack.push(path);
    for (const next of edges.get(path) ?? []) {
      if (state.get(next) === 'open')
        found.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(path, 'done');
  };
  for (const path of [...edges.keys()].sort()) if (!state.has(path)) visit(path);
  return found;
}

async function repositoryFiles(folders = SCANNED): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const top of folders) {
    const entries = await readdir(join(ROOT, top), { withFileTypes: true, recursive: true });
    for (const entry of entries) {
      if (!entry.isFile() || !CODE_FILE.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
      const full = join(entry.parentPath, entry.name);
      files.set(relative(ROOT, full), await readFile(full, 'utf8'));
    }
  }
  return files;
}

describe('architecture', () => {
  it('keeps every import of src, demo and bench in the direction the layers allow', async () => {
    const files = await repositoryFiles();
    // The scan reaches every part it claims to cover (a wrong folder name would pass vacuously).
    const parts = new Set([...files.keys()].map(partOf));
    for (const part of Object.keys(ALLOWED)) expect(parts, part).toContain(part);
    expect(violations(files)).toEqual([]);
  });

  it('has no import cycles in src, demo, bench or test, type-only imports included', async () => {
    const files = await repositoryFiles([...SCANNED, 'test']);
    for (const top of [...SCANNED, 'test'])
      expect(
        [...files.keys()].some((path) => path.startsWith(`${top}/`)),
        top,
      ).toBe(true);
    expect(cycles(files)).toEqual([]);
  });

  it('keeps every room of src/server to the rooms it may import', async () => {
    const files = await repositoryFiles(['src']);
    const rooms = new Set([...files.keys()].map(roomOf).filter((room) => room !== undefined));
    expect([...rooms].sort()).toEqual(Object.keys(SERVER_ROOMS).sort());
  });
});

describe('the architecture check itself', () => {
  /** Each case is a one-file module graph that breaks exactly one rule. */
  const breaks = (path: string, text: string) => violations(new Map([[path, text]]));

  it('catches a dynamic import(), a side-effect import, a re-export and a typeof import()', () => {
    expect(breaks('src/ui/x.tsx', "const s = await import('../server/app.js');")).toHaveLength(1);
    expect(breaks('src/chat/x.ts', "import '../ui/styles-check.js';")).toHaveLength(1);
    expect(breaks('src/client/x.ts', "export * from '../cli/index.js';")).toHaveLength(1);
    expect(breaks('src/protocol/x.ts', "type A = typeof import('../client/errors.js');")).toEqual([
      'src/protocol/x.ts: src/protocol may not import src/client (../client/errors.js)',
    ]);
  });

  it('keeps the public entry to the browser layers, and src from importing it back', () => {
    expect(breaks('src/index.ts', "export { x } from './ui/docs-assistant.js';")).toEqual([]);
    expect(breaks('src/index.ts', "export { createApp } from './server/app.js';")).toHaveLength(1);
    expect(breaks('src/ui/x.tsx', "import { DocsAssistant } from '../index.js';")).toEqual([
      'src/ui/x.tsx: src/ui may not import src/index (../index.js)',
    ]);
  });

  it('keeps src from importing tests, benchmarks, the demo or the e2e suite', () => {
    for (const outside of [
      'test/helpers/server.js',
      'bench/size.js',
      'demo/gallery/x.js',
      'e2e/helpers.js',
    ])
      expect(breaks('src/server/http/x.ts', `import '../../../${outside}';`), outside).toHaveLength(
        1,
      );
  });

  it('lets the demo use the public entry and browser layers but not the server', () => {
    expect(
      breaks('demo/react/main.tsx', "import { DocsAssistant } from '../../src/index.js';"),
    ).toEqual([]);
    expect(breaks('demo/gallery/x.ts', "import '../../src/ui/styles/widget.css';")).toEqual([]);
    expect(
      breaks('demo/gallery/x.ts', "const { createApp } = await import('../../src/server/app.js');"),
    ).toHaveLength(1);
    expect(
      breaks('demo/gallery/x.ts', "import { runCli } from '../../src/cli/index.js';"),
    ).toHaveLength(1);
  });

  it('lets a benchmark import anything', () => {
    expect(
      breaks(
        'bench/x.ts',
        "import '../src/server/http/app.js'; import '../test/helpers/server.js';",
      ),
    ).toEqual([]);
  });

  it('keeps Node built-ins out of browser code, however they are imported', () => {
    expect(breaks('src/ui/x.tsx', "const fs = await import('node:fs');")).toHaveLength(1);
    expect(breaks('src/index.ts', "import 'node:path';")).toHaveLength(1);
    expect(breaks('src/chat/x.ts', "import { a } from '../protocol/index.js';")).toHaveLength(1);
    expect(breaks('src/client/x.ts', "const fs = await import('node:fs');")).toEqual([]);
  });

  it('lets only serve.ts open sockets', () => {
    expect(
      breaks('src/server/http/app.ts', "import { serve } from '@hono/node-server';"),
    ).toHaveLength(1);
    expect(breaks('src/server/http/x.ts', "const http = await import('node:http');")).toHaveLength(
      1,
    );
    expect(breaks('src/server/http/serve.ts', "import { createServer } from 'node:http';")).toEqual(
      [],
    );
    expect(
      breaks(
        'src/server/http/x.ts',
        "import { serveStatic } from '@hono/node-server/serve-static';",
      ),
    ).toEqual([]);
  });

  it('keeps the server rooms apart: the site alone, answering without HTTP, a new room named', () => {
    expect(breaks('src/server/site/x.ts', "import { answer } from '../http/turn.js';")).toEqual([
      'src/server/site/x.ts: server room site may not import http (../http/turn.js)',
    ]);
    expect(
      breaks('src/server/site/x.ts', "import type { Retriever } from '../answering/retrieval.js';"),
    ).toHaveLength(1);
    expect(
      breaks(
        'src/server/answering/llm/x.ts',
        "import { errorResponse } from '../../http/middleware.js';",
      ),
    ).toEqual([
      'src/server/answering/llm/x.ts: server room answering may not import http (../../http/middleware.js)',
    ]);
    expect(breaks('src/server/answering/x.ts', "import { Hono } from 'hono';")).toHaveLength(1);
    expect(
      breaks('src/server/answering/x.ts', "import type { PagePath } from '../site/page-path.js';"),
    ).toEqual([]);
    expect(
      breaks('src/server/http/x.ts', "import { quoteAnswer } from '../answering/quote-answer.js';"),
    ).toEqual([]);
    expect(breaks('src/server/misc/x.ts', "import '../ids.js';")).toEqual([
      'src/server/misc/x.ts: src/server/misc is not a room of the server',
    ]);
  });

  it('finds an import cycle, through a re-export or a type too, but not through a lazy import', () => {
    const graph = (a: string, b: string) =>
      cycles(
        new Map([
          ['src/ui/a.ts', a],
          ['src/ui/b.tsx', b],
        ]),
      );
    expect(graph("import { b } from './b.js';", "import { a } from './a.js';")).toEqual([
      'src/ui/a.ts → src/ui/b.tsx → src/ui/a.ts',
    ]);
    expect(graph("export * from './b.js';", "import './a.js';")).toHaveLength(1);
    expect(graph("import type { B } from './b.js';", "import { a } from './a.js';")).toEqual([
      'src/ui/a.ts → src/ui/b.tsx → src/ui/a.ts',
    ]);
    expect(graph("const b = () => import('./b.js');", "import { a } from './a.js';")).toEqual([]);
  });

  it('ignores paths that are only mentioned in comments and strings', () => {
    const text = "// import '../server/app.js'\nconst hint = \"import('../cli/index.js')\";";
    expect(breaks('src/ui/x.tsx', text)).toEqual([]);
  });
});
