import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn } from 'class-validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { DEFAULT_DEMAND_WINDOW, DEMAND_WINDOWS, DemandWindow } from '../domain/run-rates';
import { DEMAND_BASES } from '../domain/demand';
import { BooleanFilter, OptionalField, OptionalUuid } from '#platform/http/dto-fields';

export class ReorderReportQueryDto extends ListQueryDto {
  @OptionalField(
    {
      enum: DEMAND_WINDOWS,
      default: DEFAULT_DEMAND_WINDOW,
      description: 'Trailing days (ending on the business day) that daily_demand averages over.',
    },
    Type(() => Number),
    IsIn(DEMAND_WINDOWS as unknown as number[], { message: 'demand_window must be one of 30, 90, 180, 365' }),
  )
  demand_window?: DemandWindow;

  @OptionalUuid() location_id?: string;

  @OptionalUuid({ description: 'Only products this account supplies, planned with its terms.' })
  vendor_account_id?: string;

  @BooleanFilter({ description: 'Only rows whose on_hand is at or below the reorder point in force.' })
  only_below_reorder_point?: boolean;
}

class ReorderPointInputs {
  @ApiProperty() lead_time_days: number;
  @ApiProperty() daily_demand: number;
  @ApiProperty() safety_stock: number;
}

export class ReorderReportRowResponse {
  @ApiProperty({ format: 'uuid', description: 'The balance id (the cursor of the list).' }) id: string;
  @ApiProperty({ example: 'reorder_report_row' }) object: string;
  @ApiProperty({ format: 'uuid' }) balance_id: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ nullable: true, type: String }) sku: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The product's unit of measure." }) unit:
    string | null;
  @ApiProperty({ enum: DEMAND_WINDOWS }) demand_window: number;
  @ApiProperty({ description: 'Units per day over demand_window.' }) daily_demand: number;
  @ApiProperty({ enum: DEMAND_BASES }) demand_basis: string;
  @ApiProperty() on_hand: number;
  @ApiProperty() allocated: number;
  @ApiProperty() on_order: number;
  @ApiProperty({ description: 'on_hand − allocated' }) available: number;
  @ApiProperty() reorder_point: number;
  @ApiProperty({ enum: ['manual', 'computed'] }) reorder_point_source: string;
  @ApiProperty({ type: ReorderPointInputs, nullable: true }) reorder_point_inputs: ReorderPointInputs | null;
  @ApiProperty() lead_time_days: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) vendor_account_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) product_vendor_id: string | null;
  @ApiProperty({ nullable: true, type: Number }) min_order_quantity: number | null;
  @ApiProperty({ nullable: true, type: Number }) order_multiple: number | null;
  @ApiProperty({ nullable: true, type: String, format: 'date', description: 'Null without demand.' })
  cover_through: string | null;
  @ApiProperty() net_suggested_qty: number;
  @ApiProperty() below_reorder_point: boolean;
}
