import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { WebhookEndpointsService } from '../application/webhook-endpoints.service';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointDto,
  DeliveryListQueryDto,
  DeliveryListResponse,
  RecoverWebhookEndpointDto,
  RecoveryResponse,
  RotatedSecretResponse,
  UpdateWebhookEndpointDto,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
} from './webhook.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

/**
 * Webhook endpoints of the entity (API-CONTRACT.md section 7), served in SPEC.md's flat form
 * `/webhook_endpoints/...` and under `/entities/{entity_id}/webhook_endpoints/...` with the same
 * scopes (there the entity id must be the key's).
 */
@ApiTags('Webhook endpoints')
@Controller(['webhook_endpoints', 'entities/:entity_id/webhook_endpoints'])
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description: 'The signing secret is in `secret`, shown only in this response.',
  })
  @ApiResponse({ status: 201, type: CreatedWebhookEndpointResponse })
  create(@Body() body: CreateWebhookEndpointDto) {
    return this.endpoints.create(body);
  }

  @Get()
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'List webhook endpoints', description: 'Newest first, cursor-paginated.' })
  @ApiListResponse(WebhookEndpointResponse)
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.endpoints.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'Retrieve a webhook endpoint' })
  @ApiResponse({ status: 200, type: WebhookEndpointResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.endpoints.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description: 'url, enabled_events (or its alias events), description, status active/disabled.',
  })
  @ApiResponse({ status: 200, type: WebhookEndpointResponse })
  update(@Param('id') id: string, @Body() body: UpdateWebhookEndpointDto) {
    return this.endpoints.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'Pending deliveries are cancelled.' })
  delete(@Param('id') id: string) {
    return this.endpoints.delete(id);
  }

  @Post(':id/rotate_secret')
  @HttpCode(200)
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'Returns `signing_secret`; the old secret stops at once.',
  })
  @ApiResponse({ status: 200, type: RotatedSecretResponse })
  rotateSecret(@Param('id') id: string) {
    return this.endpoints.rotateSecret(id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Send a test event',
    description: 'Sends a `webhook.test` event to this endpoint only; returns the delivery.',
  })
  @ApiResponse({ status: 200, type: WebhookDeliveryResponse })
  test(@Param('id') id: string) {
    return this.endpoints.sendTest(id);
  }

  @Post(':id/recover')
  @HttpCode(200)
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Re-queue failed deliveries',
    description: 'A background job re-queues every failed delivery created since `since`, oldest first.',
  })
  @ApiResponse({ status: 200, type: RecoveryResponse })
  recover(@Param('id') id: string, @Body() body: RecoverWebhookEndpointDto) {
    return this.endpoints.recover(id, new Date(body.since));
  }

  @Get(':id/deliveries')
  @RequireScopes('webhooks:manage')
  @ApiOperation({
    summary: 'List deliveries of an endpoint',
    description: 'Most recent first; `next_cursor` is the `starting_after` of the next page.',
  })
  @ApiResponse({ status: 200, type: DeliveryListResponse })
  deliveries(@Param('id') id: string, @Query() query: DeliveryListQueryDto, @Req() req: Request) {
    return this.endpoints.listDeliveries(id, query, path(req));
  }

  @Get(':id/deliveries/:delivery_id')
  @RequireScopes('webhooks:manage')
  @ApiOperation({ summary: 'Retrieve a delivery' })
  @ApiResponse({ status: 200, type: WebhookDeliveryResponse })
  delivery(@Param('id') id: string, @Param('delivery_id') deliveryId: string) {
    return this.endpoints.retrieveDelivery(id, deliveryId);
  }

  @Post(':id/deliveries/:delivery_id/resend')
  @HttpCode(200)
  @RequireScopes('webhooks:manage')
  @ApiOperation({
    summary: 'Resend a delivery',
    description: 'Queues one new attempt of a finished delivery.',
  })
  @ApiResponse({ status: 200, type: WebhookDeliveryResponse })
  resend(@Param('id') id: string, @Param('delivery_id') deliveryId: string) {
    return this.endpoints.resend(id, deliveryId);
  }
}
