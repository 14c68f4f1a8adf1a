// Type guards for reading JSON that is not ours without `as` casts, and without zod (these run in
// the page, where zod must not be bundled).

/** A plain JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isString = (value: unknown): value is string => typeof value === 'string';

export const isNumber = (value: unknown): value is number => typeof value === 'number';

/** An array whose every item passes `item`. */
export const isArrayOf = <T>(value: unknown, item: (value: unknown) => value is T): value is T[] =>
  Array.isArray(value) && value.every(item);
