import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { BooleanFilter, NullableField, OptionalUuid } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

const MAX_UNITS = 1_000_000_000;

export class BalanceListQueryDto extends ListQueryDto {
  @OptionalUuid() product_id?: string;
  @OptionalUuid() location_id?: string;

  @BooleanFilter({
    description: 'true: only balances at or below their reorder point; false: the others.',
  })
  below_reorder_point?: boolean;
}

/** The planning fields of a balance; null clears one. */
export class UpdateBalanceDto {
  @NullableField({ type: 'integer', minimum: 0, maximum: MAX_UNITS }, IsInt(), Min(0), Max(MAX_UNITS))
  reorder_point?: number | null;

  @NullableField({ type: 'integer', minimum: 0, maximum: MAX_UNITS }, IsInt(), Min(0), Max(MAX_UNITS))
  reorder_quantity?: number | null;

  @NullableField({ type: 'integer', minimum: 0, maximum: MAX_UNITS }, IsInt(), Min(0), Max(MAX_UNITS))
  safety_stock?: number | null;
}

@ResourceResponse('inventory_balance')
export class BalanceResponse {
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ type: 'integer' }) on_hand: number;
  @ApiProperty({ type: 'integer', description: 'Committed to confirmed, unshipped sales-order lines.' })
  allocated: number;
  @ApiProperty({ type: 'integer', description: 'on_hand − allocated.' }) available: number;
  @ApiProperty({ type: 'integer', description: 'Open purchase-order quantity not yet received.' })
  on_order: number;
  @ApiProperty({ description: 'Moving weighted-average cost of one unit.' }) unit_cost: number;
  @ApiProperty({ description: 'Value of the stock at cost (sum of its ledger rows).' }) value: number;
  @ApiProperty({ type: 'integer', nullable: true }) reorder_point: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) reorder_quantity: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) safety_stock: number | null;
  @ApiProperty() below_reorder_point: boolean;
  // Demand figures added by replenishment's balance extensions (the retrieve shows them all, the list demand_avg_per_day).
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Retrieve only: committed, unshipped customer demand.',
  })
  current_demand_units?: number;
  @ApiPropertyOptional({ description: 'Retrieve only: units per day over the last 30 days.' })
  run_rate_30?: number;
  @ApiPropertyOptional({ description: 'Retrieve only: units per day over the last 90 days.' })
  run_rate_90?: number;
  @ApiPropertyOptional({ description: 'Retrieve only: units per day over the last 180 days.' })
  run_rate_180?: number;
  @ApiPropertyOptional({ description: 'Retrieve only: units per day over the last 365 days.' })
  run_rate_365?: number;
  @ApiPropertyOptional({ description: 'Retrieve only: 0.4·rr30 + 0.3·rr90 + 0.2·rr180 + 0.1·rr365.' })
  blended_daily?: number;
  @ApiPropertyOptional({
    description:
      'Units per day at this location (equals blended_daily). Shown on the retrieve and on every list item.',
  })
  demand_avg_per_day?: number;
  @ApiPropertyOptional({
    enum: ['sales', 'sales_and_builds', 'builds', 'consumption'],
    description: 'Retrieve only: sources of the 90-day demand.',
  })
  demand_basis?: string;
}
