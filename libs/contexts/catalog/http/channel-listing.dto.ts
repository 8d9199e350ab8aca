import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { CHANNELS, LISTING_STATUSES, REMOTE_ID_MAX, SYNC_STATUSES } from '../domain/channel-listing';
import type { Channel, ListingStatus } from '../domain/channel-listing';
import { AMOUNT_MAX, CURRENCY_PATTERN } from '../domain/product';
import { IsMetadata } from './catalog-validators';
import { IsMoneyAmount } from '../../../platform/http/money.validator';

const notNull = (_: unknown, v: unknown) => v !== null;
const METADATA_DOC = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { listing_group: 'summer' },
} as const;

class ListingFieldsDto {
  @ApiPropertyOptional({
    nullable: true,
    maxLength: REMOTE_ID_MAX,
    example: 'gid://storefront/Product/123',
    description: "The listing's id on the channel.",
  })
  @IsOptional()
  @ValidateIf(notNull)
  @IsString()
  @MinLength(1)
  @MaxLength(REMOTE_ID_MAX)
  remote_id?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    minimum: 0,
    example: 29.99,
    description: "Price on the channel; null: the product's list price.",
  })
  @IsOptional()
  @ValidateIf(notNull)
  @IsMoneyAmount()
  @Min(0)
  @Max(AMOUNT_MAX)
  price?: number | null;

  @ApiPropertyOptional({
    example: 'USD',
    pattern: '^[A-Z]{3}$',
    description: "Defaults to the product's currency.",
  })
  @IsOptional()
  @IsString()
  @Matches(CURRENCY_PATTERN, { message: 'currency must be an upper-case ISO 4217 code' })
  currency?: string;

  @ApiPropertyOptional({ enum: LISTING_STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(LISTING_STATUSES)
  status?: ListingStatus;

  @ApiPropertyOptional({
    ...METADATA_DOC,
    description: 'On update, merged into the current metadata; "" or null removes a key.',
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string | null>;
}

export class CreateChannelListingDto extends ListingFieldsDto {
  @ApiProperty({ format: 'uuid', description: 'An active product of the same entity and mode.' })
  @IsUUID()
  product_id: string;

  @ApiProperty({ enum: CHANNELS, example: 'storefront', description: 'One listing per product and channel.' })
  @IsIn(CHANNELS)
  channel: Channel;
}

export class UpdateChannelListingDto extends ListingFieldsDto {}

export class ChannelListingListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  product_id?: string;

  @ApiPropertyOptional({ enum: CHANNELS })
  @IsOptional()
  @IsIn(CHANNELS)
  channel?: Channel;
}

export class ChannelListingResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'channel_listing' }) object: string;
  @ApiProperty({ format: 'uuid', description: 'Expandable: expand[]=product.' }) product_id: string;
  @ApiProperty({ enum: CHANNELS, example: 'storefront' }) channel: string;
  @ApiProperty({ nullable: true, type: String, example: 'gid://storefront/Product/123' }) remote_id:
    string | null;
  @ApiProperty({ nullable: true, type: Number, example: 29.99 }) price: number | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ enum: LISTING_STATUSES, example: 'active' }) status: string;
  @ApiProperty({ enum: SYNC_STATUSES, example: 'synced', readOnly: true }) sync_status: string;
  @ApiProperty({ example: 1, readOnly: true, description: 'Sync attempts recorded by the connector worker.' })
  sync_attempts: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', readOnly: true }) last_synced_at:
    string | null;
  @ApiProperty(METADATA_DOC) metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class SyncAcknowledgmentResponse {
  @ApiProperty({ example: 'queued' }) status: string;
  @ApiProperty({ format: 'uuid' }) listing_id: string;
}
