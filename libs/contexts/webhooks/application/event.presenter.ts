import { OutboxEventRecord } from '#platform/events/outbox-event.entity';

/** The event envelope (docs/reference/events.md), as delivered and as served by the events API. */
export interface EventEnvelope {
  id: string;
  object: 'event';
  type: string;
  created_at: string;
  api_version: string;
  entity_id: string;
  livemode: boolean;
  data: Record<string, unknown>;
  request: { id: string | null };
}

export const toEventEnvelope = (
  e: Pick<
    OutboxEventRecord,
    'id' | 'type' | 'createdAt' | 'apiVersion' | 'entityId' | 'livemode' | 'data' | 'requestId'
  >,
): EventEnvelope => ({
  id: e.id,
  object: 'event',
  type: e.type,
  created_at: e.createdAt.toISOString(),
  api_version: e.apiVersion,
  entity_id: e.entityId,
  livemode: e.livemode,
  data: e.data as Record<string, unknown>,
  request: { id: e.requestId },
});
