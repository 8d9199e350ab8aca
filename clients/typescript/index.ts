/**
 * The package's entry point: every operation function and type (generated into src/), the
 * client factory, the API version this package was generated for, and the webhook helpers.
 *
 *   import { createClient, createConfig, ordersCreate, constructWebhookEvent } from '@erp-integration-api/client';
 */
import { createClient as createGeneratedClient } from './src/client/index.js';
import type { Client, Config } from './src/client/index.js';

export * from './src/index.js';
export { createConfig } from './src/client/index.js';
export type { Client, Config } from './src/client/index.js';
export * from './src/webhooks.js';

/**
 * The operations' paths start with `/v1`, so the base URL is the server's root. The start banner
 * and the QA seed print the API's URL with `/v1`; a base URL given that way (or with a trailing
 * slash) is taken as its root instead of sending every request to `/v1/v1/...`.
 */
export function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

const withApiRoot = <T extends Config>(config: T): T =>
  typeof config.baseUrl === 'string' ? { ...config, baseUrl: apiRoot(config.baseUrl) } : config;

/** A client for one server and key: `createClient(createConfig({ baseUrl, headers }))`. */
export function createClient(config: Config = {}): Client {
  const client = createGeneratedClient(withApiRoot(config));
  const setConfig = client.setConfig;
  client.setConfig = (next: Config) => setConfig(withApiRoot(next));
  return client;
}
