import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import {
  CreatedAfter,
  CreatedBefore,
  NullableText,
  OptionalEnum,
  OptionalMoney,
  OptionalUuid,
  RequiredList,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { RETURN_STATUSES } from '../domain/return-authorization';

export const REFUND_METHODS = ['original_payment', 'customer_credit'] as const;

export class ReturnLineDto {
  @RequiredUuid({ description: 'A line of the order whose shipped units come back.' }) order_item_id: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'At most what shipped less what other returns hold.',
  })
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  quantity: number;
}

@CrossFieldRules({
  kind: 'distinct',
  field: 'lines',
  key: 'order_item_id',
  param: 'lines',
  sentence: 'Each order line appears once in lines (order_item_id differs from line to line).',
})
export class CreateReturnDto {
  @RequiredUuid({ description: "The customer account: the order's account." }) account_id: string;
  @RequiredUuid({ description: 'The sales order whose shipped units come back.' }) order_id: string;
  @RequiredList(ReturnLineDto, 1, 500) lines: ReturnLineDto[];
  @NullableText(1000, { example: 'Arrived damaged' }) reason?: string | null;
}

export class RefundReturnDto {
  @OptionalMoney(0.01, {
    description:
      "Default: the value of the units received back and not refunded yet, at most what the invoice still has due or paid and not refunded. The credit memo first reduces the invoice's amount due; only the rest is paid back.",
  })
  amount?: number;
  @OptionalEnum(REFUND_METHODS, {
    default: 'original_payment',
    description:
      "`original_payment`: back through the invoice's payments (their processor); `customer_credit`: a credit balance on the customer's account.",
  })
  method?: (typeof REFUND_METHODS)[number];
}

export class ReturnListQuery extends ListQueryDto {
  @OptionalUuid() account_id?: string;
  @OptionalUuid({ description: 'The sales order returned from.' }) order_id?: string;
  @OptionalEnum(RETURN_STATUSES) status?: string;
  @CreatedAfter('returns') created_after?: string;
  @CreatedBefore('returns') created_before?: string;
}

export class ReturnLineResponse {
  @ApiProperty({ format: 'uuid' }) order_item_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) product_id: string | null;
  @ApiProperty({ example: 2 }) quantity: number;
  @ApiProperty({ example: 1 }) received_quantity: number;
}

export class ReturnRefundResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 25, description: 'The credit memo on the invoice.' }) amount: number;
  @ApiProperty({ enum: REFUND_METHODS }) method: string;
  @ApiProperty({ format: 'uuid' }) invoice_id: string;
  @ApiProperty({
    example: 0,
    description:
      "The part of the credit memo that reduced the invoice's amount due (nothing paid back for it).",
  })
  amount_due_reduced: number;
  @ApiProperty({
    example: 25,
    description:
      'The part paid back: through the payments (original_payment) or to the customer credit balance (customer_credit); amount less amount_due_reduced.',
  })
  refunded_amount: number;
  @ApiProperty({ type: [String], description: 'The payment refunds made (original_payment).' })
  refund_ids: string[];
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: "The customer_credit method's credit transaction (GET /accounts/{id}/credit-transactions).",
  })
  credit_transaction_id: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

@ResourceResponse('return')
export class ReturnResponse {
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty({ format: 'uuid', description: 'The sales order returned from.' }) order_id: string;
  @ApiProperty({ enum: RETURN_STATUSES }) status: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: [ReturnLineResponse] }) lines: ReturnLineResponse[];
  @ApiProperty({ example: 50, description: 'Value (net and tax) of the units received back.' })
  amount_received: number;
  @ApiProperty({ example: 50 }) amount_refunded: number;
  @ApiProperty({ type: [ReturnRefundResponse] }) refunds: ReturnRefundResponse[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) received_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) refunded_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) cancelled_at: string | null;
}
