import { Injectable } from '@nestjs/common';
import { newId } from '../persistence/ids';
import { TransactionHost } from '../persistence/transaction-host';
import { RequestContext } from '../tenancy/request-context';
import { isKnownEventType } from './event-catalog';
import { OutboxEventRecord } from './outbox-event.entity';

/** The date-style version used to serialize `data.object`. */
export const API_VERSION = '2026-09-22';

/**
 * Writes domain events to the outbox inside the caller's transaction. Nothing is published
 * before commit: the dispatcher reads committed rows only.
 */
@Injectable()
export class EventPublisher {
  constructor(private readonly tx: TransactionHost) {}

  /** Records `type` with the full resource as it is now. Must run inside TransactionHost.run(). */
  async publish(type: string, object: unknown, previousAttributes?: Record<string, unknown>): Promise<string> {
    if (!isKnownEventType(type)) throw new Error(`Event type '${type}' is not in the event catalog`);
    const { entityId, livemode } = RequestContext.caller();
    const id = newId();
    await this.tx.transactional.insert(OutboxEventRecord, {
      id,
      entityId,
      livemode,
      type,
      apiVersion: API_VERSION,
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      requestId: RequestContext.requestId() ?? null,
      createdAt: new Date(),
      dispatchedAt: null,
    });
    return id;
  }

  /**
   * Records several events with one multi-row INSERT (bulk writes such as imports); the same
   * rules as publish(): every type must be in the catalog, inside TransactionHost.run().
   * Returns the event ids in order.
   */
  async publishMany(events: readonly { type: string; object: unknown; previousAttributes?: Record<string, unknown> }[]): Promise<string[]> {
    if (events.length === 0) return [];
    for (const e of events) if (!isKnownEventType(e.type)) throw new Error(`Event type '${e.type}' is not in the event catalog`);
    const { entityId, livemode } = RequestContext.caller();
    const requestId = RequestContext.requestId() ?? null;
    const createdAt = new Date();
    const rows = events.map((e) => ({
      id: newId(),
      entityId,
      livemode,
      type: e.type,
      apiVersion: API_VERSION,
      data: e.previousAttributes ? { object: e.object, previous_attributes: e.previousAttributes } : { object: e.object },
      requestId,
      createdAt,
      dispatchedAt: null,
    }));
    const manager = this.tx.transactional;
    // Chunks keep each statement well under PostgreSQL's 65,535 bind parameters.
    for (let i = 0; i < rows.length; i += 1000) {
      await manager.createQueryBuilder().insert().into(OutboxEventRecord).values(rows.slice(i, i + 1000)).updateEntity(false).execute();
    }
    return rows.map((r) => r.id);
  }
}
