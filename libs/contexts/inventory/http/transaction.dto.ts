import { ApiProperty } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { MOVEMENT_TYPES } from '../domain/stock';
import { CreatedAfter, CreatedBefore, OptionalEnum, OptionalUuid } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

export class TransactionListQueryDto extends ListQueryDto {
  @OptionalUuid() product_id?: string;
  @OptionalUuid() location_id?: string;
  @OptionalEnum(MOVEMENT_TYPES) type?: string;

  @OptionalUuid({
    description: 'The source document (adjustment, transfer, purchase order, package, return).',
  })
  source_id?: string;

  @CreatedAfter('transactions') created_after?: string;

  @CreatedBefore('transactions') created_before?: string;
}

@ResourceResponse('inventory_transaction', { tail: ['created_at'] })
export class TransactionResponse {
  @ApiProperty({ format: 'uuid' }) balance_id: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ enum: MOVEMENT_TYPES }) type: string;
  @ApiProperty({ type: 'integer', description: 'Signed: positive into stock, negative out.' })
  quantity: number;
  @ApiProperty() unit_cost: number;
  @ApiProperty({ description: 'Signed value at cost.' }) value: number;
  @ApiProperty({ nullable: true, type: String, example: 'purchase_order' }) source_type: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) source_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) order_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) order_item_id: string | null;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) occurred_at: string;
}
