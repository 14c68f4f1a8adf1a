import { statSync, watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  DEFAULT_LANGUAGE,
  loadDocsSite,
  stampOf,
  type DocsSite,
  type LoadOptions,
  type PageCache,
  type PageStore,
} from './docs.js';
import { loadHtmlSite, type SkippedPage } from './html.js';
import { cacheVersion } from './page-cache.js';

/** A docs folder: Markdown (`--docs`) or a generator's built HTML (`--site`). */
export interface SiteSource {
  kind: 'docs' | 'site';
  dir: string;
  defaultLanguage?: string;
  /**
   * Threads that parse pages when many are parsed (docs.ts `LoadOptions`).
   * @default one per core
   */
  parseThreads?: number;
  /** Parse threads shared with other reads at once (a `--config` file's sites), instead of its own. */
  pool?: LoadOptions['pool'];
}

/** What one read of the folder found, against the read before it. */
export interface SiteRead {
  site: DocsSite;
  /** Files not served, and why: every one on the first read, after it those newly skipped. */
  skipped: SkippedPage[];
  /** Page files whose content changed, that appeared and that went, since the last read. */
  changed: string[];
  added: string[];
  removed: string[];
  /** Whether the folder's other files (images, downloads) are not those of the last read. */
  filesChanged: boolean;
  /** With a page store: pages this read took from it, and pages it parsed. */
  kept?: { reused: number; parsed: number };
}

/**
 * Reads a docs folder, and again on each `read()`: only the files whose size, inode or
 * modification time moved are parsed again, so a re-read after one edit costs one page's parse
 * plus a `stat` per file.
 */
export function siteReader(
  source: SiteSource,
  /** Keeps parsed pages between starts (page-cache.ts); the site then carries a `stamp`. */
  store?: PageStore,
): { read(): Promise<SiteRead> } {
  const cache: PageCache = new Map();
  let last: DocsSite | undefined;
  let skippedBefore = new Set<string>();
  return {
    async read() {
      const language = source.defaultLanguage ?? DEFAULT_LANGUAGE;
      const options: LoadOptions = source.pool
        ? { pool: source.pool }
        : source.parseThreads === undefined
          ? {}
          : { threads: source.parseThreads };
      const { site, skipped } =
        source.kind === 'site'
          ? await loadHtmlSite(source.dir, language, cache, store, options)
          : { site: await loadDocsSite(source.dir, language, cache, store, options), skipped: [] };
      const before = new Map(last?.pages.map((page) => [page.file, page]));
      const now = new Set(site.pages.map((page) => page.file));
      const said = (page: SkippedPage) => `${page.file}\n${page.reason}`;
      const read: SiteRead = {
        site,
        skipped: skipped.filter((page) => !skippedBefore.has(said(page))),
        changed: site.pages
          .filter((page) => before.has(page.file) && before.get(page.file) !== page)
          .map((page) => page.file),
        added: last ? site.pages.filter((page) => !before.has(page.file)).map((p) => p.file) : [],
        removed: [...before.keys()].filter((file) => !now.has(file)),
        filesChanged: last !== undefined && last.files.join('\n') !== site.files.join('\n'),
      };
      // Deleted files leave the cache; skipped ones stay, so an unchanged redirect is not re-read.
      for (const skip of skipped) now.add(skip.file);
      for (const file of cache.keys()) if (!now.has(file)) cache.delete(file);
      if (store) {
        await store.keepOnly(now);
        const { reused, parsed } = store.counted();
        read.kept = { reused, parsed };
        site.pageStamps = new Map(
          site.pages.map((page) => [page.path, cache.get(page.file)?.stamp ?? '']),
        );
        site.stamp = stampOf(
          site,
          cache,
          [source.kind, resolve(source.dir), language, cacheVersion()].join('\0'),
        );
      }
      last = site;
      skippedBefore = new Set(skipped.map(said));
      return read;
    },
  };
}

/** One line for the log about a re-read: how many pages, how long, and which. */
export function reindexLine(read: SiteRead, ms: number): string {
  const count = read.changed.length + read.added.length + read.removed.length;
  const named = [
    ...read.changed.map((file) => `${file} changed`),
    ...read.added.map((file) => `${file} added`),
    ...read.removed.map((file) => `${file} removed`),
  ];
  const shown = named.length > 3 ? [...named.slice(0, 3), `${named.length - 3} more`] : named;
  return `Re-indexed ${count} page${count === 1 ? '' : 's'} in ${Math.round(ms)} ms${shown.length ? `: ${shown.join(', ')}` : ''}.`;
}

export interface SiteWatcher {
  close(): void;
}

/**
 * `serve --watch`: reads the folder again after each burst of changes under it (node's recursive
 * `fs.watch`, inotify on Linux; an editor's save is several events, taken as one after `quietMs`),
 * and hands the new site to `update` when a page or file changed. Reads never overlap: a change
 * during one reads again after it. A read that fails (the folder emptied, a Markdown page that
 * cannot be read) keeps the site being served and says why in `warn`; a folder deleted and made
 * again (a generator's clean build) is watched anew.
 */
export function watchSite(
  source: SiteSource,
  reader: { read(): Promise<SiteRead> },
  handlers: {
    update(read: SiteRead): void;
    /** Hears the re-index line. */
    log(line: string): void;
    /** Hears what was skipped or kept, and why. */
    warn(line: string): void;
  },
  { quietMs = 100 }: { quietMs?: number } = {},
): SiteWatcher {
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  let again = false;
  let closed = false;
  let watcher: FSWatcher | undefined;
  /** The folder's inode when it was last watched: a generator that deletes and remakes its output folder makes a new one. */
  let watchedInode: number | undefined;
  /**
   * An event about the folder itself (no file name): it was deleted or moved, and a watch on it
   * hears nothing more, even once a folder of that name (maybe reusing its inode) is back.
   */
  let folderEvent = false;
  const reread = async () => {
    const started = performance.now();
    const folder = await stat(source.dir).catch(() => undefined);
    if (!folder?.isDirectory()) {
      // A watch on a deleted folder hears nothing more: look for it again until it is back.
      if (watchedInode !== undefined)
        handlers.warn(`${source.dir} is gone; serving the pages already read until it is back.`);
      unwatch();
      timer = setTimeout(run, 500);
      return;
    }
    if (folderEvent || folder.ino !== watchedInode) rewatch(folder.ino);
    try {
      const read = await reader.read();
      if (closed) return;
      for (const page of read.skipped) handlers.warn(`Skipped ${page.file}: ${page.reason}.`);
      if (!read.changed.length && !read.added.length && !read.removed.length && !read.filesChanged)
        return;
      handlers.update(read);
      handlers.log(reindexLine(read, performance.now() - started));
    } catch (error) {
      if (!closed)
        handlers.warn(`Kept the pages already served: ${(error as Error).message.trimEnd()}`);
    }
  };
  const run = () => {
    timer = undefined;
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = reread().finally(() => {
      reading = undefined;
      if (again && !closed) {
        again = false;
        run();
      }
    });
  };
  const unwatch = () => {
    watcher?.close();
    watcher = undefined;
    watchedInode = undefined;
  };
  function rewatch(inode: number) {
    unwatch();
    watchedInode = inode;
    folderEvent = false;
    watcher = watch(source.dir, { recursive: true }, (_event, name) => {
      if (!name) folderEvent = true;
      // Dot folders (.git, an editor's swap files, a data folder kept beside the docs) are never read.
      if (
        name &&
        String(name)
          .split(sep)
          .some((part) => part.startsWith('.'))
      )
        return;
      clearTimeout(timer);
      timer = setTimeout(run, quietMs);
    });
    watcher.on('error', (error) =>
      handlers.warn(
        `Stopped watching ${source.dir}: ${error.message}. Restart serve to see edits.`,
      ),
    );
  }
  rewatch(statSync(source.dir).ino);
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      unwatch();
    },
  };
}
