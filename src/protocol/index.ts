export * from './limits.js';
export * from './schemas.js';
export * from './keys.js';
export * from './errors.js';
export * from './stream.js';
