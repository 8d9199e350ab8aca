import { randomBytes } from 'node:crypto';
import { SecretBox } from '#platform/crypto/secret-box';
import { SIGNING_SECRET_PURPOSE } from '../domain/signing-secret';
import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { normalizeSubscriptions } from '../domain/event-subscription';
import { requestEndpointStatus } from '../domain/endpoint';
import { WebhooksError } from '../domain/webhooks-error';
import { WebhookDeliveryRepository } from '../infrastructure/webhook-delivery.repository';
import { EndpointStatus } from '../infrastructure/webhook-endpoint.entity';
import { WebhookEndpointRepository } from '../infrastructure/webhook-endpoint.repository';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookDeliveryResource } from './webhook-delivery.presenter';
import { toEndpointResource, WebhookEndpointResource } from './webhook-endpoint.presenter';
import { WebhookTargets } from './delivery-ports';
import { allRecords, ResourceReads } from '#platform/http/list/resource-reads';
import type { WebhookEndpointRecord } from '../infrastructure/webhook-endpoint.entity';

export interface EndpointInput {
  url?: string;
  enabled_events?: string[];
  events?: string[];
  description?: string | null;
  status?: EndpointStatus;
}

const newSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

/** Resolves `enabled_events` and its deprecated alias `events`; both with different values is a 400. */
function subscriptionsOf(input: EndpointInput): string[] | undefined {
  const { enabled_events: enabled, events } = input;
  if (enabled !== undefined && events !== undefined) {
    const same = enabled.length === events.length && enabled.every((e, i) => e === events[i]);
    if (!same) {
      throw new WebhooksError('parameter_invalid', {
        param: 'events',
        hint: '`events` is the deprecated alias of `enabled_events`; send one of them, or both with the same value.',
      });
    }
  }
  if (enabled !== undefined) return normalizeSubscriptions(enabled, 'enabled_events');
  if (events !== undefined) return normalizeSubscriptions(events, 'events');
  return undefined;
}

/** Webhook endpoints: registration, subscriptions, secrets and the test event; deliveries are WebhookDeliveriesService's. */
@Injectable()
export class WebhookEndpointsService extends ResourceReads<
  WebhookEndpointRecord,
  WebhookEndpointResource,
  ListQueryDto
> {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly tx: TransactionHost,
    private readonly targets: WebhookTargets,
    private readonly secrets: SecretBox,
    private readonly deliveryLog: WebhookDeliveriesService,
  ) {
    super(allRecords(endpoints), toEndpointResource);
  }

  private async checkUrl(url: string): Promise<void> {
    const hint = await this.targets.refusal(url);
    if (hint) throw new WebhooksError('parameter_invalid', { param: 'url', hint });
  }

  private async assertUrlFree(url: string, exceptId?: string): Promise<void> {
    const existing = await this.endpoints.findActiveByUrl(url, exceptId);
    if (existing) {
      throw new WebhooksError('duplicate_url', {
        hint: 'An active endpoint with this URL already exists in this mode.',
        details: { existing_id: existing.id },
      });
    }
  }

  async create(input: EndpointInput): Promise<WebhookEndpointResource & { secret: string }> {
    if (input.url === undefined)
      throw new WebhooksError('parameter_missing', {
        param: 'url',
        hint: 'Missing required parameter: url.',
      });
    const enabledEvents = subscriptionsOf(input);
    if (enabledEvents === undefined) {
      throw new WebhooksError('parameter_missing', {
        param: 'enabled_events',
        hint: 'Missing required parameter: enabled_events.',
      });
    }
    await this.checkUrl(input.url);
    const secret = newSecret();
    return this.tx.run(async () => {
      await this.assertUrlFree(input.url!);
      const endpoint = await this.endpoints.create({
        url: input.url!,
        enabledEvents,
        description: input.description ?? null,
        // Stored encrypted; the plaintext is in this response only.
        secret: this.secrets.seal(secret, SIGNING_SECRET_PURPOSE),
        status: 'active',
        disabledReason: null,
        consecutiveFailures: 0,
        deletedAt: null,
      });
      return { ...toEndpointResource(endpoint), secret };
    });
  }

  async update(id: string, input: EndpointInput): Promise<WebhookEndpointResource> {
    const enabledEvents = subscriptionsOf(input);
    if (input.url !== undefined) await this.checkUrl(input.url);
    return this.tx.run(async () => {
      const endpoint = await this.endpoints.getForUpdate(id);
      if (input.url !== undefined) endpoint.url = input.url;
      if (enabledEvents !== undefined) endpoint.enabledEvents = enabledEvents;
      if (input.description !== undefined) endpoint.description = input.description;
      const { state, reactivated, disabled } = requestEndpointStatus(endpoint, input.status);
      endpoint.status = state.status;
      endpoint.disabledReason = state.disabledReason;
      endpoint.consecutiveFailures = state.consecutiveFailures;
      if (disabled) await this.deliveries.cancelPending(endpoint.id);
      if (endpoint.status === 'active' && (input.url !== undefined || reactivated))
        await this.assertUrlFree(endpoint.url, endpoint.id);
      return toEndpointResource(await this.endpoints.save(endpoint));
    });
  }

  /** Deletes the endpoint; its pending deliveries are cancelled and its log stays readable no more. */
  async delete(id: string): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
    return this.tx.run(async () => {
      const endpoint = await this.endpoints.getForUpdate(id);
      endpoint.deletedAt = new Date();
      await this.endpoints.save(endpoint);
      await this.deliveries.cancelPending(endpoint.id);
      return { id: endpoint.id, object: 'webhook_endpoint' as const, deleted: true as const };
    });
  }

  /** A new signing secret; the old one stops at once (attempts sign with the secret read when they run). */
  async rotateSecret(
    id: string,
  ): Promise<WebhookEndpointResource & { secret: string; signing_secret: string }> {
    return this.tx.run(async () => {
      const endpoint = await this.endpoints.getForUpdate(id);
      const secret = newSecret();
      endpoint.secret = this.secrets.seal(secret, SIGNING_SECRET_PURPOSE);
      const saved = await this.endpoints.save(endpoint);
      return { ...toEndpointResource(saved), secret, signing_secret: secret };
    });
  }

  /** Sends a `webhook.test` event to this endpoint only (the endpoint's `test` action). */
  sendTest(id: string): Promise<WebhookDeliveryResource> {
    return this.deliveryLog.sendTest(id);
  }
}
