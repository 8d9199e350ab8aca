import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { BalanceResponse } from './balance.dto';
import { DISTINCT_SERIALS, SerialNumbersField } from './serial-numbers.validator';
import { NullableUuid, OptionalNonEmptyText, RequiredUuid } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

@CrossFieldRules(DISTINCT_SERIALS)
export class CreateTransferDto {
  @RequiredUuid() product_id: string;

  @NullableUuid({ type: String }) variant_id?: string | null;

  @RequiredUuid() from_location_id: string;
  @RequiredUuid() to_location_id: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1_000_000_000 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  quantity: number;

  @OptionalNonEmptyText(500, { maxLength: 500 }) reason?: string;

  @SerialNumbersField('Serial-tracked products: the available serials that move (one per unit).')
  serial_numbers?: string[];
}

@ResourceResponse('inventory_transfer', { tail: ['livemode', 'created_at'] })
export class TransferResponse {
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) from_location_id: string;
  @ApiProperty({ format: 'uuid' }) to_location_id: string;
  @ApiProperty({ type: 'integer' }) quantity: number;
  @ApiProperty({ description: 'The moving-average cost at which the units left.' }) unit_cost: number;
  @ApiProperty() value: number;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ example: { transfer_out: 'uuid', transfer_in: 'uuid' } })
  transaction_ids: { transfer_out: string; transfer_in: string };
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty({ type: BalanceResponse }) from_balance: BalanceResponse;
  @ApiProperty({ type: BalanceResponse }) to_balance: BalanceResponse;
}
