import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { newId } from '#platform/persistence/ids';

/** A committed outbox event not yet dispatched. */
export interface PendingEvent {
  id: string;
  entity_id: string;
  livemode: boolean;
  type: string;
  created_at: Date;
}

/** An active endpoint of an entity and mode with events pending. */
export interface ActiveEndpoint {
  id: string;
  entity_id: string;
  livemode: boolean;
  enabled_events: string[];
  created_at: Date;
}

/**
 * The outbox as the dispatcher drains it, across entities and modes: fan-out of committed events
 * into deliveries, and retention.
 */
@Injectable()
export class OutboxDispatchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * In one transaction: takes up to `batchSize` undispatched events (oldest first; SKIP LOCKED lets
   * several dispatchers drain side by side), inserts a pending delivery, due now, for each active
   * endpoint of the event's entity and mode that `receives` it (one per endpoint and event), and
   * marks the events dispatched. A fixed number of statements whatever the batch's size. Answers
   * how many events it took and the deliveries it created.
   */
  async fanOut(
    batchSize: number,
    receives: (event: PendingEvent, endpoint: ActiveEndpoint) => boolean,
  ): Promise<{ events: number; created: { id: string; endpoint_id: string }[] }> {
    return this.dataSource.transaction(async (m) => {
      const events = (await m.query(
        `SELECT id, entity_id, livemode, type, created_at FROM outbox_events WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      )) as PendingEvent[];
      if (events.length === 0) return { events: 0, created: [] };
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
          if (!receives(event, endpoint)) continue;
          rows.id.push(newId());
          rows.entity.push(event.entity_id);
          rows.live.push(event.livemode);
          rows.endpoint.push(endpoint.id);
          rows.event.push(event.id);
          rows.type.push(event.type);
        }
      }
      let created: { id: string; endpoint_id: string }[] = [];
      if (rows.id.length > 0) {
        created = (await m.query(
          `INSERT INTO webhook_deliveries (id, entity_id, livemode, endpoint_id, event_id, event_type, status, attempt_count, next_retry_at)
           SELECT id, entity_id, livemode, endpoint_id, event_id, event_type, 'pending', 0, now()
           FROM unnest($1::uuid[], $2::uuid[], $3::boolean[], $4::uuid[], $5::uuid[], $6::text[])
             AS t(id, entity_id, livemode, endpoint_id, event_id, event_type)
           ON CONFLICT (endpoint_id, event_id) DO NOTHING
           RETURNING id, endpoint_id`,
          [rows.id, rows.entity, rows.live, rows.endpoint, rows.event, rows.type],
        )) as { id: string; endpoint_id: string }[];
      }
      await m.query(`UPDATE outbox_events SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [
        events.map((e) => e.id),
      ]);
      return { events: events.length, created };
    });
  }

  /** Deletes up to `limit` dispatched events older than `days` days; answers how many. */
  async purgeDispatched(days: number, limit: number): Promise<number> {
    const [, n] = (await this.dataSource.query(
      `DELETE FROM outbox_events WHERE id IN (
         SELECT id FROM outbox_events WHERE created_at < now() - $1 * interval '1 day' AND dispatched_at IS NOT NULL LIMIT $2)`,
      [days, limit],
    )) as [unknown, number];
    return n;
  }
}
