import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString } from 'class-validator';
import {
  NullableText,
  OptionalEnum,
  OptionalField,
  OptionalNonEmptyText,
  RequiredText,
  IsDateTime,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

const EVENTS_EXAMPLE = ['order.confirmed', 'product.*'];

export class CreateWebhookEndpointDto {
  @RequiredText(2048, {
    example: 'https://example.com/webhooks',
    description: 'https only; may not resolve to a loopback, private, link-local or metadata address.',
  })
  url: string;

  @OptionalField(
    {
      example: EVENTS_EXAMPLE,
      description: 'Event names, `<family>.*` or `*`. Required unless `events` is sent.',
    },
    IsArray(),
    ArrayMaxSize(200),
    IsString({ each: true }),
  )
  enabled_events?: string[];

  @OptionalField(
    {
      example: EVENTS_EXAMPLE,
      deprecated: true,
      description: 'Deprecated alias of `enabled_events` (removed in v2).',
    },
    IsArray(),
    ArrayMaxSize(200),
    IsString({ each: true }),
  )
  events?: string[];

  @NullableText(500, { example: 'Order sync' }) description?: string | null;
}

export class UpdateWebhookEndpointDto {
  @OptionalNonEmptyText(2048, { example: 'https://example.com/webhooks' }) url?: string;

  @OptionalField({ example: EVENTS_EXAMPLE }, IsArray(), ArrayMaxSize(200), IsString({ each: true }))
  enabled_events?: string[];

  @OptionalField(
    { example: EVENTS_EXAMPLE, deprecated: true },
    IsArray(),
    ArrayMaxSize(200),
    IsString({ each: true }),
  )
  events?: string[];

  @NullableText(500) description?: string | null;

  @OptionalEnum(['active', 'disabled'], { description: 'Re-enabling resets the consecutive-failure count.' })
  status?: 'active' | 'disabled';
}

export class RecoverWebhookEndpointDto {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-20T00:00:00.000Z',
    description: 'Failed deliveries created at or after this time are re-queued.',
  })
  @IsDateTime()
  since: string;
}

@ResourceResponse('webhook_endpoint')
export class WebhookEndpointResponse {
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

export class RecoveryResponse {
  @ApiProperty({ example: 'webhook_recovery' }) object: string;
  @ApiProperty({ nullable: true, type: String }) id: string | null;
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty({ format: 'date-time' }) since: string;
  @ApiProperty({ example: 'queued' }) status: string;
}
