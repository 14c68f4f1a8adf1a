export * from './assistant.js';
export * from './errors.js';
export * from './static-export.js';
