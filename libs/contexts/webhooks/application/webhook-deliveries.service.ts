import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { assertEndpointActive } from '../domain/endpoint';
import { WebhooksError } from '../domain/webhooks-error';
import { WebhookDeliveryRecord } from '../infrastructure/webhook-delivery.entity';
import { WebhookDeliveryRepository } from '../infrastructure/webhook-delivery.repository';
import { WebhookEndpointRepository } from '../infrastructure/webhook-endpoint.repository';
import { toDeliveryResource, WebhookDeliveryResource } from './webhook-delivery.presenter';
import { toEndpointResource } from './webhook-endpoint.presenter';
import { DeliveryScheduler } from './delivery-ports';

/** A delivery read through another endpoint's path is not found there. */
function assertDeliveryOf(delivery: WebhookDeliveryRecord, endpointId: string, deliveryId: string): void {
  if (delivery.endpointId !== endpointId)
    throw new WebhooksError('not_found', {
      hint: `No webhook delivery with id '${deliveryId}' exists for this endpoint.`,
    });
}

/** Webhook deliveries of an endpoint: the test delivery, the delivery log, resends and recovery. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly tx: TransactionHost,
    private readonly deliveryQueue: DeliveryScheduler,
    @InjectQueue(QUEUE_NAMES.webhooks) private readonly webhooksQueue: Queue,
    private readonly events: EventPublisher,
  ) {}

  /** Sends a `webhook.test` event to this endpoint only (whatever its subscriptions). */
  async sendTest(endpointId: string): Promise<WebhookDeliveryResource> {
    const delivery = await this.tx.run(async () => {
      const endpoint = await this.endpoints.getForUpdate(endpointId);
      assertEndpointActive(endpoint.status);
      const event = this.events.outboxRow('webhook.test', toEndpointResource(endpoint));
      const now = event.createdAt;
      const eventId = event.id;
      // Written as already dispatched: the fan-out must not send it to other endpoints.
      await this.events.write([{ ...event, dispatchedAt: now }]);
      return this.deliveries.create({
        endpointId: endpoint.id,
        eventId,
        eventType: 'webhook.test',
        status: 'pending',
        attemptCount: 0,
        lastAttempt: null,
        nextRetryAt: now,
      } as Partial<WebhookDeliveryRecord>);
    });
    await this.deliveryQueue.enqueue([{ id: delivery.id, attempt: 1 }]);
    return toDeliveryResource(delivery);
  }

  async list(endpointId: string, query: ListQueryDto & { status?: string }, url: string) {
    await this.endpoints.getById(endpointId);
    const page = await this.deliveries.listOfEndpoint(endpointId, query, url);
    const data = page.rows.map(toDeliveryResource);
    return { ...listEnvelope(data, page, url), next_cursor: page.has_more ? data[data.length - 1].id : null };
  }

  async retrieve(endpointId: string, deliveryId: string): Promise<WebhookDeliveryResource> {
    await this.endpoints.getById(endpointId);
    const delivery = await this.deliveries.getById(deliveryId);
    assertDeliveryOf(delivery, endpointId, deliveryId);
    return toDeliveryResource(delivery);
  }

  /** Queues one new attempt of a finished delivery (no automatic retries follow it). */
  async resend(endpointId: string, deliveryId: string): Promise<WebhookDeliveryResource> {
    const delivery = await this.tx.run(async () => {
      const endpoint = await this.endpoints.getForUpdate(endpointId);
      assertEndpointActive(endpoint.status);
      const found = await this.deliveries.getForUpdate(deliveryId);
      assertDeliveryOf(found, endpoint.id, deliveryId);
      if (found.status === 'pending') {
        throw new WebhooksError('invalid_state', {
          hint: 'The delivery is pending: an attempt is already scheduled.',
        });
      }
      found.status = 'pending';
      found.lastAttempt = found.attemptCount + 1;
      found.nextRetryAt = new Date();
      found.claimedUntil = null;
      return this.deliveries.save(found);
    });
    await this.deliveryQueue.enqueue([{ id: delivery.id, attempt: delivery.attemptCount + 1 }]);
    return toDeliveryResource(delivery);
  }

  /** Queues a background job that re-queues every failed delivery of the endpoint since `since`, oldest first. */
  async recover(endpointId: string, since: Date) {
    const endpoint = await this.endpoints.getById(endpointId);
    assertEndpointActive(endpoint.status);
    const job = await this.webhooksQueue.add(
      'recover-endpoint',
      {
        endpointId: endpoint.id,
        entityId: endpoint.entityId,
        livemode: endpoint.livemode,
        since: since.toISOString(),
      },
      {
        removeOnComplete: 1000,
        removeOnFail: 1000,
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
      },
    );
    return {
      object: 'webhook_recovery',
      id: job.id ?? null,
      webhook_id: endpoint.id,
      since: since.toISOString(),
      status: 'queued',
    };
  }
}
