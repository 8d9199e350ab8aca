import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { EnqueuesJobs } from '#platform/queue/queue-availability';
import { Route } from '#platform/http/route';
import { requestPath, StandardRoutes } from '#platform/http/standard-routes';
import { WebhookDeliveriesService } from '../application/webhook-deliveries.service';
import { WebhookEndpointsService } from '../application/webhook-endpoints.service';
import { DeliveryListQueryDto, DeliveryListResponse, WebhookDeliveryResponse } from './webhook-delivery.dto';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointDto,
  RecoverWebhookEndpointDto,
  RecoveryResponse,
  RotatedSecretResponse,
  UpdateWebhookEndpointDto,
  WebhookEndpointResponse,
} from './webhook-endpoint.dto';

/**
 * Webhook endpoints of the entity, served in the flat form
 * `/webhook_endpoints/...` and under `/entities/{entity_id}/webhook_endpoints/...` with the same
 * scopes (there the entity id must be the key's).
 */
@ApiTags('Webhook endpoints')
@Controller(['webhook_endpoints', 'entities/:entity_id/webhook_endpoints'])
@StandardRoutes({
  service: WebhookEndpointsService,
  scope: 'webhooks',
  model: WebhookEndpointResponse,
  create: [
    CreateWebhookEndpointDto,
    'Register a webhook endpoint',
    {
      description: 'The signing secret is in `secret`, shown only in this response.',
      returns: CreatedWebhookEndpointResponse,
      secretFields: ['secret'],
    },
  ],
  list: [
    ListQueryDto,
    'List webhook endpoints',
    { description: 'Newest first, cursor-paginated.', list: WebhookEndpointResponse },
  ],
  retrieve: ['Retrieve a webhook endpoint'],
  update: [
    UpdateWebhookEndpointDto,
    'Update a webhook endpoint',
    { description: 'url, enabled_events (or its alias events), description, status active/disabled.' },
  ],
  delete: ['Delete a webhook endpoint', { description: 'Pending deliveries are cancelled.' }],
  actions: {
    rotateSecret: [
      'Rotate the signing secret',
      {
        path: 'rotate_secret',
        description:
          'Answers the endpoint with the new secret in `secret`, as create does, and the same value as `signing_secret`; the old secret stops at once.',
        returns: RotatedSecretResponse,
        secretFields: ['secret', 'signing_secret'],
      },
    ],
    sendTest: [
      'Send a test event',
      {
        handler: 'test',
        decorators: [EnqueuesJobs()],
        description: 'Sends a `webhook.test` event to this endpoint only; returns the delivery.',
        returns: WebhookDeliveryResponse,
      },
    ],
  },
})
export class WebhookEndpointsController {
  constructor(private readonly deliveryLog: WebhookDeliveriesService) {}

  @Route('POST', ':id/recover', {
    scopes: 'webhooks:write',
    summary: 'Re-queue failed deliveries',
    description: 'A background job re-queues every failed delivery created since `since`, oldest first.',
    code: 200,
    returns: RecoveryResponse,
  })
  @EnqueuesJobs()
  recover(@Param('id') id: string, @Body() body: RecoverWebhookEndpointDto) {
    return this.deliveryLog.recover(id, new Date(body.since));
  }

  @Route('GET', ':id/deliveries', {
    scopes: 'webhooks:manage',
    summary: 'List deliveries of an endpoint',
    description: 'Most recent first; `next_cursor` is the `starting_after` of the next page.',
    returns: DeliveryListResponse,
  })
  deliveries(@Param('id') id: string, @Query() query: DeliveryListQueryDto, @Req() req: Request) {
    return this.deliveryLog.list(id, query, requestPath(req));
  }

  @Route('GET', ':id/deliveries/:delivery_id', {
    scopes: 'webhooks:manage',
    summary: 'Retrieve a delivery',
    returns: WebhookDeliveryResponse,
  })
  delivery(@Param('id') id: string, @Param('delivery_id') deliveryId: string) {
    return this.deliveryLog.retrieve(id, deliveryId);
  }

  @Route('POST', ':id/deliveries/:delivery_id/resend', {
    scopes: 'webhooks:manage',
    summary: 'Resend a delivery',
    description: 'Queues one new attempt of a finished delivery.',
    code: 200,
    returns: WebhookDeliveryResponse,
  })
  @EnqueuesJobs()
  resend(@Param('id') id: string, @Param('delivery_id') deliveryId: string) {
    return this.deliveryLog.resend(id, deliveryId);
  }
}
