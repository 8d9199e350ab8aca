import { Injectable } from '@nestjs/common';
import { subscriptionMatches } from '../domain/event-subscription';
import { OutboxDispatchRepository } from '../infrastructure/outbox-dispatch.repository';
import { DeliveryScheduler } from '../application/delivery-ports';

export const FANOUT_BATCH = 500;

/**
 * Turns committed outbox events into deliveries: one per active endpoint of the event's
 * entity and mode whose subscription matches. A batch is a fixed number of queries whatever
 * its size; SKIP LOCKED lets several dispatchers drain the outbox side by side.
 */
@Injectable()
export class OutboxFanoutService {
  constructor(
    private readonly outbox: OutboxDispatchRepository,
    private readonly queue: DeliveryScheduler,
  ) {}

  /** Dispatches one batch; returns the number of events it took. */
  async drainBatch(batchSize = FANOUT_BATCH): Promise<number> {
    const { events, created } = await this.outbox.fanOut(
      batchSize,
      // An endpoint receives the events that happen after it is registered, never older ones.
      (event, endpoint) =>
        event.created_at >= endpoint.created_at && subscriptionMatches(endpoint.enabled_events, event.type),
    );
    // Grouped by endpoint, oldest first: a batch job then holds one receiver's deliveries, so a
    // slow receiver holds up its own batches only.
    const ordered = created
      .sort((a, b) =>
        a.endpoint_id === b.endpoint_id ? (a.id < b.id ? -1 : 1) : a.endpoint_id < b.endpoint_id ? -1 : 1,
      )
      .map((r) => r.id);
    await this.queue.enqueue(ordered.map((id) => ({ id, attempt: 1 })));
    return events;
  }
}
