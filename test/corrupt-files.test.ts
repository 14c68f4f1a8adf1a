import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { ConfigError, fileConfig, SAMPLE_DOCS_DIR } from '../src/server/config.js';
import { fileJobStore } from '../src/server/stores/index.js';
import { captureIo } from './helpers/cli.js';
import { askBody, demoApp, post, tempDir } from './helpers/server.js';

// Files on disk are parsed with their schemas: a damaged one gives a message that names the file
// and what is wrong with it, never a crash and never an object that only looks right.

afterEach(() => vi.restoreAllMocks());

async function configFile(text: string): Promise<string> {
  const file = join(await tempDir(), 'config.json');
  await writeFile(file, text);
  return file;
}

describe('a --config file', () => {
  it('that is not JSON, or not a config, is refused with the file and the field named', async () => {
    const notJson = await configFile('{"orgs": [');
    await expect(fileConfig(notJson)).rejects.toThrow(ConfigError);
    await expect(fileConfig(notJson)).rejects.toThrow(`${notJson} is not valid JSON`);

    const noSites = await configFile('{"orgs": []}');
    await expect(fileConfig(noSites)).rejects.toThrow(/is not a docs-assistant config.*sites/);

    const keysNotAList = await configFile(
      JSON.stringify({
        orgs: [{ id: 'acme', plan: 'enterprise', keys: 'svc_dsc_acme' }],
        sites: [{ domain: 'acme', org: 'acme', docs: SAMPLE_DOCS_DIR }],
      }),
    );
    await expect(fileConfig(keysNotAList)).rejects.toThrow(/orgs\.0\.keys: Expected array/);

    const unknownPlan = await configFile(
      JSON.stringify({
        orgs: [{ id: 'acme', plan: 'gold', keys: [] }],
        sites: [],
      }),
    );
    await expect(fileConfig(unknownPlan)).rejects.toThrow(/orgs\.0\.plan/);
  });

  it('makes serve exit 2 with that message, before listening', async () => {
    const file = await configFile('{"orgs": [{"id": 1}], "sites": []}');
    const run = captureIo();
    expect(await runCli(['serve', '--config', file, '--port', '0'], run.io)).toBe(2);
    expect(run.err).toContain(`${file} is not a docs-assistant config`);
    expect(run.err).toContain('orgs.0.id');
    expect(run.out).not.toContain('running at');
  });

  it('that is well formed still loads', async () => {
    const file = await configFile(
      JSON.stringify({
        orgs: [{ id: 'acme', plan: 'enterprise', keys: ['svc_dsc_acme'] }],
        sites: [{ domain: 'acme', org: 'acme', docs: SAMPLE_DOCS_DIR }],
      }),
    );
    const config = await fileConfig(file);
    expect(config.orgs).toEqual([{ id: 'acme', plan: 'enterprise', keys: ['svc_dsc_acme'] }]);
    expect(config.sites?.map((site) => site.domain)).toEqual(['acme']);
  });
});

describe('a thread file', () => {
  for (const [what, damage] of [
    ['cut short', (text: string) => text.slice(0, text.length / 2)],
    ['with a field of the wrong type', (text: string) => text.replace(/"turns":\[/, '"turns":[7,')],
  ] as const) {
    it(`${what} is reported with its path, answers 404 thread_not_found and stays on disk`, async () => {
      const dataDir = await tempDir();
      const app = await demoApp({ dataDir });
      const first = await post(app, askBody('How do I install it?'));
      const threadId = first.headers.get('x-thread-id')!;
      await first.text();
      const file = join(dataDir, 'threads', `${threadId}.json`);
      const damaged = damage(await readFile(file, 'utf8'));
      await writeFile(file, damaged);

      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      // A new process, so no cached copy hides the file.
      const restarted = await demoApp({ dataDir });
      const followUp = await post(restarted, askBody('and then?', { threadId }));
      expect(followUp.status).toBe(404);
      expect(await followUp.json()).toMatchObject({ error: 'thread_not_found' });
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining(`thread file ${file} is unreadable`),
      );
      expect(await readFile(file, 'utf8')).toBe(damaged);
    });
  }
});

describe('a job file', () => {
  it('that is damaged is skipped with its path logged; the other jobs load', async () => {
    const dir = join(await tempDir(), 'exports');
    const good = 'se_01JD8X3K2M0000000000000001';
    const bad = 'se_01JD8X3K2M0000000000000002';
    const job = {
      jobId: good,
      domain: 'demo',
      org: 'demo',
      status: 'completed',
      progress: 100,
      pageCount: 3,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    for (const [id, text] of [
      [good, JSON.stringify(job)],
      [bad, JSON.stringify({ ...job, jobId: bad, progress: 'half' })],
    ]) {
      await mkdir(join(dir, id!), { recursive: true });
      await writeFile(join(dir, id!, 'job.json'), text!);
    }
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const store = fileJobStore(dir);
    await store.open();
    expect(await store.get(good)).toMatchObject({ status: 'completed', pageCount: 3 });
    expect(await store.get(bad)).toBeUndefined();
    expect(logged).toHaveBeenCalledWith(
      expect.stringMatching(
        new RegExp(`job file .*${bad}.*unreadable \\(progress: Expected number`),
      ),
    );
  });
});
