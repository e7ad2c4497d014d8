export * from './client.js';
export * from './webhooks.js';
