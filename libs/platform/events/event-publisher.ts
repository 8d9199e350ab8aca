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
}
