export * from './assistant.js';
export * from './errors.js';
