import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { BalanceResponse } from './balance.dto';
import { DISTINCT_SERIALS, SerialNumbersField } from './serial-numbers.validator';
import {
  NullableUuid,
  OptionalField,
  OptionalMoney,
  OptionalText,
  RequiredText,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

const MAX_UNITS = 1_000_000_000;

/** Either `quantity` (a signed change) or `counted_quantity` (a cycle count). */
@CrossFieldRules(
  {
    kind: 'exclusive',
    fields: ['quantity', 'counted_quantity'],
    param: 'quantity',
    sentence: 'Send either quantity (a signed change) or counted_quantity (the quantity counted), not both.',
  },
  {
    kind: 'one_required',
    fields: ['quantity', 'counted_quantity'],
    param: 'quantity',
    sentence: 'One of quantity and counted_quantity is required.',
  },
  DISTINCT_SERIALS,
)
export class CreateAdjustmentDto {
  @RequiredUuid() product_id: string;

  @NullableUuid({ type: String }) variant_id?: string | null;

  @RequiredUuid({ description: 'A location (GET /locations).' }) location_id: string;

  @OptionalField(
    {
      type: 'integer',
      description: 'Signed change of on_hand (not 0).',
      minimum: -MAX_UNITS,
      maximum: MAX_UNITS,
    },
    IsInt(),
    Min(-MAX_UNITS),
    Max(MAX_UNITS),
  )
  quantity?: number;

  @OptionalField(
    {
      type: 'integer',
      minimum: 0,
      maximum: MAX_UNITS,
      description: 'The quantity counted: on_hand is brought to it (type cycle_count).',
    },
    IsInt(),
    Min(0),
    Max(MAX_UNITS),
  )
  counted_quantity?: number;

  @RequiredText(500, { maxLength: 500, example: 'Damaged in storage' }) reason: string;

  @OptionalMoney(0, {
    minimum: 0,
    description: 'Cost of one added unit; increases only (default: the current average).',
  })
  unit_cost?: number;

  @SerialNumbersField(
    'Serial-tracked products: the serials added (created available) or removed (retired to end_of_life).',
  )
  serial_numbers?: string[];

  @OptionalText(120, { maxLength: 120 }) lot_number?: string;
}

@ResourceResponse('inventory_adjustment', { tail: ['livemode', 'created_at'] })
export class AdjustmentResponse {
  @ApiProperty({ enum: ['adjustment', 'cycle_count'] }) type: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ type: 'integer', description: 'The change applied (0 when a count matched).' })
  quantity: number;
  @ApiProperty({ type: 'integer', nullable: true }) counted_quantity: number | null;
  @ApiProperty() reason: string;
  @ApiProperty({ nullable: true, type: Number }) unit_cost: number | null;
  @ApiProperty({ nullable: true, type: Number }) value: number | null;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) transaction_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty({ type: BalanceResponse }) balance: BalanceResponse;
}
