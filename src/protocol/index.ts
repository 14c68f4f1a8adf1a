export * from './limits.js';
export * from './schemas.js';
export * from './keys.js';
export * from './errors.js';
export * from './stream.js';
export * from './routes.js';
export * from './headers.js';
export * from './search-hits.js';
