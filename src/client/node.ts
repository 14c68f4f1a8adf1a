// Node-only (`docs-assistant/client/node`): static export needs an admin key, which must never reach
// a page, and downloadBundle writes files.
export * from './static-export.js';
export type { Bundle, Job, JobStatus, StartJobRequest } from '../protocol/types.js';
