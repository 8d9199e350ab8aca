/**
 * The package's entry point: every operation function and type (generated into src/), the
 * client factory, the API version this package was generated for, and the webhook helpers.
 *
 *   import { createClient, createConfig, ordersCreate, constructWebhookEvent } from '@erp-integration-api/client';
 */
export * from './src/index.js';
export { createClient, createConfig } from './src/client/index.js';
export type { Client, Config } from './src/client/index.js';
export * from './src/webhooks.js';
