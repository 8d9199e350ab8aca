import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsDateString,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';

const EVENTS_EXAMPLE = ['order.confirmed', 'product.*'];

export class CreateWebhookEndpointDto {
  @ApiProperty({
    example: 'https://example.com/webhooks',
    description: 'https only; may not resolve to a loopback, private, link-local or metadata address.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({
    example: EVENTS_EXAMPLE,
    description: 'Event names, `<family>.*` or `*`. Required unless `events` is sent.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  enabled_events?: string[];

  @ApiPropertyOptional({
    example: EVENTS_EXAMPLE,
    deprecated: true,
    description: 'Deprecated alias of `enabled_events` (removed in v2).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ example: 'Order sync', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ example: 'https://example.com/webhooks' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ example: EVENTS_EXAMPLE })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  enabled_events?: string[];

  @ApiPropertyOptional({ example: EVENTS_EXAMPLE, deprecated: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({
    enum: ['active', 'disabled'],
    description: 'Re-enabling resets the consecutive-failure count.',
  })
  @IsOptional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';
}

export class RecoverWebhookEndpointDto {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-20T00:00:00.000Z',
    description: 'Failed deliveries created at or after this time are re-queued.',
  })
  @IsDateString({ strict: true })
  since: string;
}

export class DeliveryListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'succeeded', 'failed', 'cancelled'] })
  @IsOptional()
  @IsIn(['pending', 'succeeded', 'failed', 'cancelled'])
  status?: string;
}

export class EventListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ example: 'order.confirmed' })
  @IsOptional()
  @IsString()
  type?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsDateString({ strict: true })
  created_before?: string;
}

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'webhook_endpoint' }) object: string;
  @ApiProperty({ example: 'https://example.com/webhooks' }) url: string;
  @ApiProperty({ nullable: true, type: String, example: 'Order sync' }) description: string | null;
  @ApiProperty({ example: EVENTS_EXAMPLE }) enabled_events: string[];
  @ApiProperty({ enum: ['active', 'disabled'], example: 'active' }) status: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: null,
    description: '`manual` or `consecutive_failures`',
  })
  disabled_reason: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({ example: 'whsec_5f0c...', description: 'Shown only in this response.' }) secret: string;
}

export class RotatedSecretResponse extends CreatedWebhookEndpointResponse {
  @ApiProperty({
    example: 'whsec_9a1b...',
    description: 'The new secret (same value as `secret`); the old one stops at once.',
  })
  signing_secret: string;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'webhook_delivery' }) object: string;
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty({ example: 'order.confirmed' }) event_type: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'cancelled'], example: 'pending' }) status: string;
  @ApiProperty({ example: 1 }) attempt_count: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) next_retry_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) delivered_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) failed_at: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 200 }) response_status: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'First 500 bytes of the response body.' })
  response_body: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Transport error of the last attempt (timeout, refused).',
  })
  error: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class DeliveryListResponse {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({ type: [WebhookDeliveryResponse] }) data: WebhookDeliveryResponse[];
  @ApiProperty() has_more: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'Pass as starting_after for the next page.',
  })
  next_cursor: string | null;
  @ApiProperty() url: string;
}

export class RecoveryResponse {
  @ApiProperty({ example: 'webhook_recovery' }) object: string;
  @ApiProperty({ nullable: true, type: String }) id: string | null;
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty({ format: 'date-time' }) since: string;
  @ApiProperty({ example: 'queued' }) status: string;
}

export class EventTypeResponse {
  @ApiProperty({ example: 'order.confirmed' }) type: string;
  @ApiProperty({ example: 'order' }) family: string;
  @ApiProperty({ example: 'An order was confirmed.' }) description: string;
}

export class EventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'event' }) object: string;
  @ApiProperty({ example: 'order.confirmed' }) type: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ example: '2026-09-22' }) api_version: string;
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({
    example: { object: { id: '0190...', object: 'order' } },
    description: '`object`: the full resource at the time; `previous_attributes` on updates.',
  })
  data: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', nullable: true, example: 'req_8fK2mQ4b1c9f0e2d4a6b8c7e' } },
    description: 'The API request that caused the event (null for scheduled work).',
  })
  request: { id: string | null };
}
