// Node-only (`docs-assistant/client/node`): static export needs an admin key, which must never reach
// a page, and downloadBundle writes files.
export * from './static-export.js';
// The one error model: the browser entry's error, so `instanceof` works across both entries.
export {
  AssistantError,
  type AssistantErrorCode,
  type AssistantErrorKind,
  type ClientErrorCode,
} from './errors.js';
export type { Bundle, Job, JobStatus, StartJobRequest } from '../protocol/types.js';
