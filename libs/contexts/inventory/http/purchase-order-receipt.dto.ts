import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { distinctSerialsAcross, SerialNumbersField } from './serial-numbers.validator';
import { OptionalMoney, OptionalText, RequiredList, RequiredUuid } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

export class ReceiveLineDto {
  @RequiredUuid({ description: 'The purchase-order line.' }) order_item_id: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Not above what is still to receive on the line.',
  })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  quantity: number;

  @RequiredUuid({ description: 'Where the goods go in.' }) location_id: string;

  @OptionalMoney(0, { minimum: 0, description: "Cost of one unit; default: the line's unit_price." })
  unit_cost?: number;

  @SerialNumbersField('Serial-tracked products: one per unit; each becomes a serial record in available.')
  serial_numbers?: string[];

  @OptionalText(120, { maxLength: 120 }) lot_number?: string;
}

@CrossFieldRules(distinctSerialsAcross('lines'))
export class ReceivePurchaseOrderDto {
  @RequiredList(ReceiveLineDto, 1, 1000, { minItems: 1, maxItems: 1000 }) lines: ReceiveLineDto[];
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

@ResourceResponse('purchase_order_receipt', { tail: ['livemode', 'created_at'] })
export class ReceiptResponse {
  @ApiProperty({ format: 'uuid' }) purchase_order_id: string;
  @ApiProperty({ enum: ['partially_received', 'received'] }) status: string;
  @ApiProperty({ type: [ReceiptLineResponse] }) lines: ReceiptLineResponse[];
  @ApiProperty() total_value: number;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The PO_RECEIPT entry.' })
  journal_entry_id: string | null;
}
