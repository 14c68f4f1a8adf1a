import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isRecord } from '../../protocol/_guards.js';
import type { DocsSite } from '../site/docs.js';
import { cacheVersion, digest, temporaryBeside, versionDir } from '../site/page-cache.js';
import type { IndexStore, SavedIndexes } from './retrieval.js';

/** What happened to a site's index at its last build: the CLI's start-up line says it. */
export type IndexOutcome = 'reused' | 'updated' | 'built';

/**
 * The built indexes of the sites served, one file per docs folder under `cacheDir`, written for
 * one `stamp` of the site's pages (docs.ts `stampOf`): a start on the same pages loads it instead
 * of building; any other start builds and writes it again. The file is one line of JSON per part
 * (a header with the version and stamp, the compounds, the page index, the passage index), so no
 * part has to fit in one string with the others. A file that cannot be loaded is ignored, removed
 * and rebuilt, and `warn` says so.
 */
export function diskIndexStore(
  cacheDir: string,
  warn: (line: string) => void,
): IndexStore & { outcome(site: DocsSite): IndexOutcome | undefined } {
  const dir = join(versionDir(cacheDir), 'index');
  const outcomes = new WeakMap<DocsSite, IndexOutcome>();
  const fileOf = (site: DocsSite) => join(dir, `${digest(resolve(site.dir ?? ''))}.json`);
  return {
    outcome: (site) => outcomes.get(site),
    load(site, restore) {
      if (!site.stamp) return undefined;
      const file = fileOf(site);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        outcomes.set(site, 'built');
        return undefined;
      }
      const lines: string[] = [];
      for (let from = 0; from < bytes.length;) {
        const to = bytes.indexOf(10, from);
        lines.push(bytes.toString('utf8', from, to === -1 ? bytes.length : to));
        from = to === -1 ? bytes.length : to + 1;
      }
      try {
        const header: unknown = JSON.parse(lines[0] ?? '');
        if (!isRecord(header) || header.version !== cacheVersion())
          throw new Error('not an index of this version');
        // Another stamp is another state of the pages: not a fault, an update or a rebuild.
        const exact = header.stamp === site.stamp;
        const [compounds, pages, passages, stamps]: unknown[] = lines
          .slice(1)
          .map((line): unknown => JSON.parse(line));
        if (!isCompounds(compounds) || !isPlainIndex(pages) || !isPlainIndex(passages))
          throw new Error('its parts are missing or damaged');
        const loaded = restore(
          { compounds, pages, passages, ...(isStamps(stamps) ? { stamps } : {}) },
          exact,
        );
        outcomes.set(site, loaded === undefined ? 'built' : exact ? 'reused' : 'updated');
        return loaded;
      } catch (error) {
        warn(`Ignored the index cache ${file}: ${(error as Error).message}; built it again.`);
        rmSync(file, { force: true });
        outcomes.set(site, 'built');
        return undefined;
      }
    },
    save(site, saved) {
      if (!site.stamp) return;
      const file = fileOf(site);
      const temporary = temporaryBeside(file);
      try {
        mkdirSync(dir, { recursive: true });
        const { compounds, pages, passages, stamps } = saved();
        const header = JSON.stringify({ version: cacheVersion(), stamp: site.stamp });
        writeFileSync(temporary, header + '\n');
        // One part at a time: the passage index of a large site is hundreds of megabytes of JSON.
        for (const part of [compounds, pages, passages, stamps ?? []])
          writeFileSync(temporary, JSON.stringify(part) + '\n', { flag: 'a' });
        renameSync(temporary, file);
      } catch (error) {
        // A data folder under a regular file fails here too (ENOTDIR): never throw from the catch.
        try {
          rmSync(temporary, { force: true });
        } catch {
          // Nothing was written.
        }
        warn(`Cannot keep the built index in ${file}: ${(error as Error).message}`);
      }
    },
  };
}

function isCompounds(value: unknown): value is SavedIndexes['compounds'] {
  return (
    Array.isArray(value) &&
    value.every(
      (entry) =>
        Array.isArray(entry) &&
        typeof entry[0] === 'string' &&
        Array.isArray(entry[1]) &&
        entry[1].every((part) => typeof part === 'string'),
    )
  );
}

/** MiniSearch's own `toJSON` shape; `loadJS` checks the rest (its serialization version). */
function isPlainIndex(value: unknown): value is SavedIndexes['pages'] {
  return (
    isRecord(value) &&
    typeof value.documentCount === 'number' &&
    typeof value.nextId === 'number' &&
    isRecord(value.documentIds) &&
    isRecord(value.fieldIds) &&
    isRecord(value.fieldLength) &&
    Array.isArray(value.averageFieldLength) &&
    isRecord(value.storedFields) &&
    Array.isArray(value.index) &&
    typeof value.serializationVersion === 'number'
  );
}

function isStamps(value: unknown): value is [string, string][] {
  return (
    Array.isArray(value) &&
    value.every(
      (entry) =>
        Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string',
    )
  );
}
