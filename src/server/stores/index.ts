import { join } from 'node:path';
import { fileInsightStore, memoryInsightStore } from './insights.js';
import { fileJobStore, memoryJobStore } from './jobs.js';
import { fileRateLimitStore, memoryRateLimitStore } from './rate-limits.js';
import { fileSigningKeyStore, memorySigningKeyStore } from './signing-key.js';
import { fileThreadStore, memoryThreadStore } from './threads.js';
import type { Stores } from './types.js';
import { createFileVectorStore, memoryVectorStore } from './vectors.js';

export type * from './types.js';
export { isJobId } from './jobs.js';
export { isThreadId } from './threads.js';
export { fingerprintKey, hashFingerprint } from './fingerprint.js';
export { MAX_INSIGHT_QUESTION_CHARS } from './insights.js';
export { createFileVectorStore, memoryVectorStore } from './vectors.js';
export {
  fileInsightStore,
  memoryInsightStore,
  fileJobStore,
  fileRateLimitStore,
  fileSigningKeyStore,
  fileThreadStore,
  memoryJobStore,
  memoryRateLimitStore,
  memorySigningKeyStore,
  memoryThreadStore,
};

/**
 * The stores of one process: files under `dataDir` (threads/, insights/, exports/, rate-limits.json), or
 * memory when there is no data folder.
 */
export function defaultStores(
  dataDir: string | undefined,
  options: { threadCacheSize?: number } = {},
): Stores {
  if (!dataDir)
    return {
      threads: memoryThreadStore(),
      insights: memoryInsightStore(),
      jobs: memoryJobStore(),
      rateLimits: memoryRateLimitStore(),
      signingKey: memorySigningKeyStore(),
      vectors: memoryVectorStore(),
    };
  return {
    threads: fileThreadStore(
      join(dataDir, 'threads'),
      options.threadCacheSize ? { cacheSize: options.threadCacheSize } : {},
    ),
    insights: fileInsightStore(join(dataDir, 'insights')),
    jobs: fileJobStore(join(dataDir, 'exports')),
    rateLimits: fileRateLimitStore(join(dataDir, 'rate-limits.json')),
    signingKey: fileSigningKeyStore(join(dataDir, 'exports', '.signing-key')),
    vectors: createFileVectorStore(join(dataDir, 'vectors')),
  };
}
