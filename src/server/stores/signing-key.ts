import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileDurably } from './fs.js';
import type { SigningKeyStore } from './types.js';

export function memorySigningKeyStore(): SigningKeyStore {
  let key: Buffer | undefined;
  return { getOrCreate: async (fresh) => (key ??= fresh) };
}

const read = async (file: string): Promise<Buffer | undefined> => {
  try {
    const hex = (await readFile(file, 'utf8')).trim();
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  } catch {
    return undefined;
  }
};

/** The key in a file (mode 0600) beside the jobs, so links stay valid across restarts. */
export function fileSigningKeyStore(file: string): SigningKeyStore {
  return {
    async getOrCreate(fresh) {
      const existing = await read(file);
      if (existing) return existing;
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${randomUUID()}.new`;
      await writeFileDurably(temp, fresh.toString('hex'), 0o600);
      try {
        // link() fails when the file exists: of two processes starting together, one key wins.
        await link(temp, file).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
          // An unreadable key file (empty, truncated) is replaced rather than trusted.
          if (!(await read(file))) await writeFileDurably(file, fresh.toString('hex'), 0o600);
        });
      } finally {
        await rm(temp, { force: true });
      }
      return (await read(file)) ?? fresh;
    },
  };
}
