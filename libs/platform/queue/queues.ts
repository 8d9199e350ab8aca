/** Every queue and its job names with their payloads: a job without a queue does not compile. */
export interface JobMap {
  maintenance: {
    'purge-idempotency-keys': Record<string, never>;
    'purge-rate-limit-windows': Record<string, never>;
  };
  /** One job per delivery attempt; ids only, never a secret or a payload. */
  'webhook-deliveries': {
    deliver: { deliveryId: string };
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
  'webhook-deliveries': 'webhook-deliveries',
  webhooks: 'webhooks',
};
