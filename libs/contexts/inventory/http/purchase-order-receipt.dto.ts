import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsMoneyAmount } from '../../../platform/http/money.validator';
import { SerialNumbersField } from './serial-numbers.validator';

export class ReceiveLineDto {
  @ApiProperty({ format: 'uuid', description: 'The purchase-order line.' }) @IsUUID() order_item_id: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Not above what is still to receive on the line.',
  })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  quantity: number;

  @ApiProperty({ format: 'uuid', description: 'Where the goods go in.' }) @IsUUID() location_id: string;

  @ApiPropertyOptional({ minimum: 0, description: "Cost of one unit; default: the line's unit_price." })
  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  unit_cost?: number;

  @SerialNumbersField('Serial-tracked products: one per unit; each becomes a serial record in available.')
  serial_numbers?: string[];

  @ApiPropertyOptional({ maxLength: 120 }) @IsOptional() @IsString() @MaxLength(120) lot_number?: string;
}

export class ReceivePurchaseOrderDto {
  @ApiProperty({ type: [ReceiveLineDto], minItems: 1, maxItems: 1000 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ReceiveLineDto)
  lines: ReceiveLineDto[];
}

class ReceiptLineResponse {
  @ApiProperty({ format: 'uuid' }) order_item_id: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ type: 'integer' }) quantity: number;
  @ApiProperty() unit_cost: number;
  @ApiProperty() value: number;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ nullable: true, type: String }) lot_number: string | null;
  @ApiProperty({ format: 'uuid' }) transaction_id: string;
}

export class ReceiptResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'purchase_order_receipt' }) object: string;
  @ApiProperty({ format: 'uuid' }) purchase_order_id: string;
  @ApiProperty({ enum: ['partially_received', 'received'] }) status: string;
  @ApiProperty({ type: [ReceiptLineResponse] }) lines: ReceiptLineResponse[];
  @ApiProperty() total_value: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The PO_RECEIPT entry.' })
  journal_entry_id: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
