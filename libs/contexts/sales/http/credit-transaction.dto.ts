import { ApiProperty } from '@nestjs/swagger';
import { ResourceResponse } from '#platform/http/response-schema';
import { CREDIT_TRANSACTION_TYPES } from '../domain/customer-credit';

@ResourceResponse('credit_transaction', { tail: ['livemode', 'created_at'] })
export class CreditTransactionResponse {
  @ApiProperty({ format: 'uuid', description: 'Expandable: account.' }) account_id: string;
  @ApiProperty({
    enum: CREDIT_TRANSACTION_TYPES,
    description:
      '`return_credit`: a return refunded to credit; `deposit_remainder`: the unapplied part of a matched bank deposit; `invoice_payment`: credit spent on an invoice (a payment with method customer_credit); `payment_refund`: a refund of such a payment, back to the balance; `account_merge`: the balance of an account merged into another, moved to it.',
  })
  type: string;
  @ApiProperty({
    example: 25,
    description: 'Positive adds credit to the balance, negative spends it.',
  })
  amount: number;
  @ApiProperty({ example: 'USD', description: "The account's currency." }) currency: string;
  @ApiProperty({ example: 30, description: "The account's credit balance after this transaction." })
  ending_balance: number;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The invoice the credit came from or was spent on. Expandable: order.',
  })
  order_id: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description:
      'The customer_credit payment that spent it, or whose refund gave it back. Expandable: payment.',
  })
  payment_id: string | null;
  @ApiProperty({ example: 'return 0193a0c4-…' }) description: string;
}
