// Type guards for reading JSON that is not ours without `as` casts, and without zod (these run in
// the page, where zod must not be bundled).

/** A plain JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
