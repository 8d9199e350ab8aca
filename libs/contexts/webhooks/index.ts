/** The webhooks context's public surface: the only file other contexts and apps import. */
export * from './webhooks.module';
export * from './webhooks-worker.module';
