import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { newId } from '#platform/persistence/ids';
import { subscriptionMatches } from '../domain/event-subscription';
import { DeliveryScheduler } from '../application/delivery-ports';

export const FANOUT_BATCH = 500;

interface PendingEvent {
  id: string;
  entity_id: string;
  livemode: boolean;
  type: string;
  created_at: Date;
}

interface ActiveEndpoint {
  id: string;
  entity_id: string;
  livemode: boolean;
  enabled_events: string[];
  created_at: Date;
}

/**
 * Turns committed outbox events into deliveries: one per active endpoint of the event's
 * entity and mode whose subscription matches. A batch is a fixed number of queries whatever
 * its size; SKIP LOCKED lets several dispatchers drain the outbox side by side.
 */
@Injectable()
export class OutboxFanoutService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: DeliveryScheduler,
  ) {}

  /** Dispatches one batch; returns the number of events it took. */
  async drainBatch(batchSize = FANOUT_BATCH): Promise<number> {
    const { events, created } = await this.dataSource.transaction(async (m) => {
      const events = (await m.query(
        `SELECT id, entity_id, livemode, type, created_at FROM outbox_events WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      )) as PendingEvent[];
      if (events.length === 0) return { events, created: [] as string[] };
      const scopes = [...new Map(events.map((e) => [`${e.entity_id}:${e.livemode}`, e])).values()];
      const endpoints = (await m.query(
        `SELECT id, entity_id, livemode, enabled_events, created_at FROM webhook_endpoints
         WHERE status = 'active' AND deleted_at IS NULL
           AND (entity_id, livemode) IN (SELECT * FROM unnest($1::uuid[], $2::boolean[]))`,
        [scopes.map((s) => s.entity_id), scopes.map((s) => s.livemode)],
      )) as ActiveEndpoint[];
      const byScope = new Map<string, ActiveEndpoint[]>();
      for (const endpoint of endpoints) {
        const key = `${endpoint.entity_id}:${endpoint.livemode}`;
        byScope.set(key, [...(byScope.get(key) ?? []), endpoint]);
      }
      const rows = {
        id: [] as string[],
        entity: [] as string[],
        live: [] as boolean[],
        endpoint: [] as string[],
        event: [] as string[],
        type: [] as string[],
      };
      for (const event of events) {
        for (const endpoint of byScope.get(`${event.entity_id}:${event.livemode}`) ?? []) {
          // An endpoint receives the events that happen after it is registered, never older ones.
          if (event.created_at < endpoint.created_at) continue;
          if (!subscriptionMatches(endpoint.enabled_events, event.type)) continue;
          rows.id.push(newId());
          rows.entity.push(event.entity_id);
          rows.live.push(event.livemode);
          rows.endpoint.push(endpoint.id);
          rows.event.push(event.id);
          rows.type.push(event.type);
        }
      }
      let created: string[] = [];
      if (rows.id.length > 0) {
        const inserted = (await m.query(
          `INSERT INTO webhook_deliveries (id, entity_id, livemode, endpoint_id, event_id, event_type, status, attempt_count, next_retry_at)
           SELECT id, entity_id, livemode, endpoint_id, event_id, event_type, 'pending', 0, now()
           FROM unnest($1::uuid[], $2::uuid[], $3::boolean[], $4::uuid[], $5::uuid[], $6::text[])
             AS t(id, entity_id, livemode, endpoint_id, event_id, event_type)
           ON CONFLICT (endpoint_id, event_id) DO NOTHING
           RETURNING id, endpoint_id`,
          [rows.id, rows.entity, rows.live, rows.endpoint, rows.event, rows.type],
        )) as { id: string; endpoint_id: string }[];
        // Grouped by endpoint, oldest first: a batch job then holds one receiver's deliveries, so a
        // slow receiver holds up its own batches only.
        created = inserted
          .sort((a, b) =>
            a.endpoint_id === b.endpoint_id ? (a.id < b.id ? -1 : 1) : a.endpoint_id < b.endpoint_id ? -1 : 1,
          )
          .map((r) => r.id);
      }
      await m.query(`UPDATE outbox_events SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [
        events.map((e) => e.id),
      ]);
      return { events, created };
    });
    await this.queue.enqueue(created.map((id) => ({ id, attempt: 1 })));
    return events.length;
  }
}
