import { Injectable } from '@nestjs/common';
import { newId } from '../persistence/ids';
import { TransactionHost } from '../persistence/transaction-host';
import { RequestContext } from '../tenancy/request-context';
import { isKnownEventType } from './event-catalog';
import { OutboxEventRecord } from './outbox-event.entity';

/** The date-style version used to serialize `data.object`. */
export const API_VERSION = '2026-09-22';

/** One outbox_events row (dispatched_at NULL). */
export interface OutboxRow {
  id: string;
  entityId: string;
  livemode: boolean;
  type: string;
  apiVersion: string;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  requestId: string | null;
  createdAt: Date;
}

/**
 * Writes domain events to the outbox inside the caller's transaction. Nothing is published
 * before commit: the dispatcher reads committed rows only.
 */
@Injectable()
export class EventPublisher {
  constructor(private readonly tx: TransactionHost) {}

  /** Records `type` with the full resource as it is now. Must run inside TransactionHost.run(). */
  async publish(
    type: string,
    object: unknown,
    previousAttributes?: Record<string, unknown>,
  ): Promise<string> {
    const row = this.outboxRow(type, object, previousAttributes);
    await this.tx.transactional.insert(OutboxEventRecord, { ...row, dispatchedAt: null });
    return row.id;
  }

  /**
   * The outbox row publish() would write, for a writer that inserts it in its own statement
   * (together with the resource's rows, in the same transaction). Checks the type the same way.
   */
  outboxRow(type: string, object: unknown, previousAttributes?: Record<string, unknown>): OutboxRow {
    if (!isKnownEventType(type)) throw new Error(`Event type '${type}' is not in the event catalog`);
    const { entityId, livemode } = RequestContext.caller();
    return {
      id: newId(),
      entityId,
      livemode,
      type,
      apiVersion: API_VERSION,
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      requestId: RequestContext.requestId() ?? null,
      createdAt: new Date(),
    };
  }

  /**
   * Records several events with one multi-row INSERT (bulk writes such as imports); the same
   * rules as publish(): every type must be in the catalog, inside TransactionHost.run().
   * Returns the event ids in order.
   */
  async publishMany(
    events: readonly { type: string; object: unknown; previousAttributes?: Record<string, unknown> }[],
  ): Promise<string[]> {
    if (events.length === 0) return [];
    for (const e of events)
      if (!isKnownEventType(e.type)) throw new Error(`Event type '${e.type}' is not in the event catalog`);
    const { entityId, livemode } = RequestContext.caller();
    const requestId = RequestContext.requestId() ?? null;
    const createdAt = new Date();
    const ids = events.map(() => newId());
    await this.tx.transactional.query(
      `INSERT INTO outbox_events (id, entity_id, livemode, type, api_version, data, request_id, created_at, dispatched_at)
       SELECT id, $1, $2, type, $3, data, $4, $5, NULL FROM unnest($6::uuid[], $7::text[], $8::jsonb[]) AS t(id, type, data)`,
      [
        entityId,
        livemode,
        API_VERSION,
        requestId,
        createdAt,
        ids,
        events.map((e) => e.type),
        events.map((e) =>
          JSON.stringify(
            e.previousAttributes
              ? { object: e.object, previous_attributes: e.previousAttributes }
              : { object: e.object },
          ),
        ),
      ],
    );
    return ids;
  }
}
