import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString } from 'class-validator';
import {
  NullableText,
  OptionalEnum,
  OptionalField,
  OptionalNonEmptyText,
  RequiredText,
  IsDateTime,
  EachOneOf,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRule, CrossFieldRules } from '#platform/http/cross-field-rules';
import { subscriptionValues } from '../domain/event-subscription';

const EVENTS_EXAMPLE = ['order.confirmed', 'product.*'];

/** A subscription list as the description shows it: at least one value (EachOneOf lists them). */
const subscriptions = (doc: ApiPropertyOptions) =>
  ({ example: EVENTS_EXAMPLE, type: [String], minItems: 1, ...doc }) as ApiPropertyOptions;

/** A receiver URL: absolute, https (the target policy refuses other schemes and private hosts). */
const URL_DOC = { format: 'uri', pattern: '^https://', example: 'https://example.com/webhooks' } as const;

/** `events` is the deprecated alias of `enabled_events`: both may be sent only with the same value. */
const ALIAS_AGREES: CrossFieldRule = {
  kind: 'equal',
  fields: ['enabled_events', 'events'],
  param: 'events',
  sentence:
    '`events` is the deprecated alias of `enabled_events`; send one of them, or both with the same value.',
};

@CrossFieldRules(ALIAS_AGREES, {
  kind: 'one_required',
  fields: ['enabled_events', 'events'],
  param: 'enabled_events',
  sentence: 'enabled_events (or its alias events) is required.',
})
export class CreateWebhookEndpointDto {
  @RequiredText(2048, {
    ...URL_DOC,
    description:
      'https only; its host must resolve, and not to a loopback, private, link-local or metadata address.',
  })
  url: string;

  @OptionalField(
    subscriptions({ description: 'Event names, `<family>.*` or `*`. Required unless `events` is sent.' }),
    IsArray(),
    ArrayMaxSize(200),
    IsString({ each: true }),
    EachOneOf(subscriptionValues),
  )
  enabled_events?: string[];

  @OptionalField(
    subscriptions({ deprecated: true, description: 'Deprecated alias of `enabled_events` (removed in v2).' }),
    IsArray(),
    ArrayMaxSize(200),
    IsString({ each: true }),
    EachOneOf(subscriptionValues),
  )
  events?: string[];

  @NullableText(500, { example: 'Order sync' }) description?: string | null;
}

@CrossFieldRules(ALIAS_AGREES)
export class UpdateWebhookEndpointDto {
  @OptionalNonEmptyText(2048, URL_DOC) url?: string;

  @OptionalField(
    subscriptions({}),
    IsArray(),
    ArrayMaxSize(200),
    IsString({ each: true }),
    EachOneOf(subscriptionValues),
  )
  enabled_events?: string[];

  @OptionalField(
    subscriptions({ deprecated: true }),
    IsArray(),
    ArrayMaxSize(200),
    IsString({ each: true }),
    EachOneOf(subscriptionValues),
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
