// Browser-safe: what a page may use. The static export client (admin keys, files) is in ./node.ts.
export * from './assistant.js';
export * from './errors.js';
export * from './docs.js';
