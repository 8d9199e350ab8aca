import { ApiProperty } from '@nestjs/swagger';
import { IsString, Max, Min } from 'class-validator';
import { MaxChars, MinChars } from '#platform/http/text-length';
import { IsId } from '#platform/http/id.validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { CHANNELS, LISTING_STATUSES, REMOTE_ID_MAX, SYNC_STATUSES } from '../domain/channel-listing';
import type { Channel, ListingStatus } from '../domain/channel-listing';
import { AMOUNT_MAX } from '../domain/product';
import { metadataDoc, OptionalMetadata } from './catalog-validators';
import { IsMoneyAmount } from '#platform/http/money.validator';
import {
  NullableField,
  OptionalEnum,
  OptionalCurrency,
  OptionalUuid,
  RequiredEnum,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

const METADATA_EXAMPLE = { listing_group: 'summer' };

class ListingFieldsDto {
  @NullableField(
    {
      maxLength: REMOTE_ID_MAX,
      example: 'gid://storefront/Product/123',
      description: "The listing's id on the channel.",
    },
    IsString(),
    MinChars(1),
    MaxChars(REMOTE_ID_MAX),
  )
  remote_id?: string | null;

  @NullableField(
    { minimum: 0, example: 29.99, description: "Price on the channel; null: the product's list price." },
    IsMoneyAmount(),
    Min(0),
    Max(AMOUNT_MAX),
  )
  price?: number | null;

  @OptionalCurrency({ example: 'USD', description: "Defaults to the product's currency." })
  currency?: string;

  @OptionalEnum(LISTING_STATUSES, { default: 'active' }) status?: ListingStatus;

  @OptionalMetadata(
    METADATA_EXAMPLE,
    'On update, merged into the current metadata; "" or null removes a key.',
  )
  metadata?: Record<string, string | null>;
}

export class CreateChannelListingDto extends ListingFieldsDto {
  @NullableField(
    {
      format: 'uuid',
      description:
        'The connected integration of this channel the listing is pushed through. Default: the oldest connected integration of the channel, or none.',
    },
    IsId(),
  )
  integration_id?: string | null;

  @RequiredUuid({ description: 'An active product of the same entity and mode.' }) product_id: string;

  @RequiredEnum(CHANNELS, { example: 'storefront', description: 'One listing per product and channel.' })
  channel: Channel;
}

export class UpdateChannelListingDto extends ListingFieldsDto {
  @NullableField(
    {
      format: 'uuid',
      description: 'A connected integration of the listing’s channel; null detaches the listing.',
    },
    IsId(),
  )
  integration_id?: string | null;
}

export class ChannelListingListQueryDto extends ListQueryDto {
  @OptionalUuid() product_id?: string;

  @OptionalEnum(CHANNELS) channel?: Channel;
}

@ResourceResponse('channel_listing')
export class ChannelListingResponse {
  @ApiProperty({ format: 'uuid', description: 'Expandable: expand[]=product.' }) product_id: string;
  @ApiProperty({ enum: CHANNELS, example: 'storefront' }) channel: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The integration the listing is pushed through; null: none (a sync answers 409).',
  })
  integration_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'gid://storefront/Product/123' }) remote_id:
    string | null;
  @ApiProperty({ nullable: true, type: Number, example: 29.99 }) price: number | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ enum: LISTING_STATUSES, example: 'active' }) status: string;
  @ApiProperty({ enum: SYNC_STATUSES, example: 'synced', readOnly: true }) sync_status: string;
  @ApiProperty({
    example: 1,
    readOnly: true,
    description: 'Push attempts made by the connector worker (retries included).',
  })
  sync_attempts: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', readOnly: true }) last_synced_at:
    string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    readOnly: true,
    description: 'Why the last push failed (kept until a push succeeds); null otherwise.',
  })
  last_sync_error: string | null;
  @ApiProperty(metadataDoc(METADATA_EXAMPLE)) metadata: Record<string, string>;
}

export class SyncAcknowledgmentResponse {
  @ApiProperty({ example: 'queued' }) status: string;
  @ApiProperty({ format: 'uuid' }) listing_id: string;
}
