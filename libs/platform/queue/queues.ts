/** Every queue and its job names with their payloads: a job without a queue does not compile. */
export interface JobMap {
  maintenance: {
    'purge-idempotency-keys': Record<string, never>;
    'purge-rate-limit-windows': Record<string, never>;
  };
  /** Bulk imports of the migration context: one job per import, resumable from its checkpoint. */
  'migration-imports': {
    'run-import': { importId: string; entityId: string; livemode: boolean };
  };
  accounting: {
    'run-recurring-entries': Record<string, never>;
  };
  /** Collections of the sales context: the overdue and late-fee sweep over every entity. */
  sales: {
    'run-collections': Record<string, never>;
  };
  catalog: {
    /** Push one channel listing to its connector; ids only, the worker reloads the listing. */
    'sync-channel-listing': {
      entity_id: string;
      entity_code: string;
      livemode: boolean;
      api_key_id: string;
      listing_id: string;
    };
  };
  /** Integrations: the scheduled pull of every connected integration's orders and payouts. */
  integrations: {
    'import-all-integrations': Record<string, never>;
  };
  /** Shipment notifications of the fulfillment context: one job per queued message; ids only. */
  fulfillment: {
    'send-shipment-notification': {
      entityId: string;
      entityCode: string;
      livemode: boolean;
      apiKeyId: string;
      notificationId: string;
    };
    /** Re-queues notifications still queued after the grace period (their job was lost). */
    'sweep-shipment-notifications': Record<string, never>;
  };
  /**
   * Replenishment: the refresh of the products' stored demand averages that a stock movement
   * marked, queued after its commit (delayed, one at a time), and the sweep of marks left behind.
   */
  replenishment: {
    'refresh-demand-averages': Record<string, never>;
    'sweep-demand-averages': Record<string, never>;
  };
  /** Delivery attempts: one delivery, or a batch claimed in one query; ids only, never a secret or a payload. */
  'webhook-deliveries': {
    deliver: { deliveryId: string };
    'deliver-batch': { deliveryIds: string[] };
  };
  /** Webhook housekeeping: recovery of an endpoint's failed deliveries, event retention. */
  webhooks: {
    'recover-endpoint': { endpointId: string; entityId: string; livemode: boolean; since: string };
    'purge-events': Record<string, never>;
  };
}

export type QueueName = keyof JobMap;
export type JobName<Q extends QueueName> = keyof JobMap[Q] & string;
export type JobData<Q extends QueueName, J extends JobName<Q>> = JobMap[Q][J];

export const QUEUE_NAMES: { [Q in QueueName]: Q } = {
  maintenance: 'maintenance',
  'migration-imports': 'migration-imports',
  accounting: 'accounting',
  sales: 'sales',
  catalog: 'catalog',
  fulfillment: 'fulfillment',
  integrations: 'integrations',
  replenishment: 'replenishment',
  'webhook-deliveries': 'webhook-deliveries',
  webhooks: 'webhooks',
};
