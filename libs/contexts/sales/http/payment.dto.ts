import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { IsId } from '#platform/http/id.validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { PAYMENT_METHODS_ACCEPTED } from '../application/payments.service';
import {
  ExpiryMonthField,
  ExpiryYearField,
  MAX_AMOUNT,
  MetadataField,
  MetadataProperty,
  OmittableField,
} from './validation';
import { IsDecimalNumber } from '#platform/http/money.validator';
import { ClearableField, RequiredEnum } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

/** The card of one charge (a stored payment method's card is payment-method.dto's CardDto). */
export class ChargeCardDto {
  @ApiProperty({
    example: '4242424242424242',
    description: 'Used for this charge only; never stored (only brand and last4 are kept).',
  })
  @IsString()
  @Matches(/^\d{12,19}$/, { message: 'number must be 12 to 19 digits' })
  number: string;

  @ExpiryMonthField({ example: 12 }) exp_month: number;

  @ExpiryYearField({ example: 2030 }) exp_year: number;

  @OmittableField(
    { example: '123' },
    IsString(),
    Matches(/^\d{3,4}$/, { message: 'cvc must be 3 or 4 digits' }),
  )
  cvc?: string;
}

const otherThan = (method: string) => PAYMENT_METHODS_ACCEPTED.filter((m) => m !== method);

/** The card and the stored payment method each go with their own method only (PaymentsService.payOrder checks them in this order). */
@CrossFieldRules(
  {
    kind: 'when',
    field: 'method',
    is: ['card'],
    requires: ['card'],
    param: 'card',
    sentence: 'method card needs card.',
  },
  {
    kind: 'when',
    field: 'method',
    is: otherThan('card'),
    forbids: ['card'],
    param: 'card',
    sentence: "card is accepted only with method 'card'.",
  },
  {
    kind: 'when',
    field: 'method',
    is: ['payment_method'],
    requires: ['payment_method_id'],
    param: 'payment_method_id',
    sentence: 'method payment_method needs payment_method_id.',
  },
  {
    kind: 'when',
    field: 'method',
    is: otherThan('payment_method'),
    forbids: ['payment_method_id'],
    param: 'payment_method_id',
    sentence: "payment_method_id is accepted only with method 'payment_method'.",
  },
)
export class CreatePaymentDto {
  @OmittableField(
    {
      example: 50,
      description:
        "Default: the amount due (customer_credit: as much of it as the account's credit balance covers). At most 2 decimals, > 0, not above the amount due (nor, for customer_credit, the credit balance).",
    },
    IsDecimalNumber(2),
    Min(0.01),
    Max(MAX_AMOUNT),
  )
  amount?: number;

  @RequiredEnum(PAYMENT_METHODS_ACCEPTED, {
    description:
      "`customer_credit` pays from the account's credit balance (no processor; refunds of such a payment go back to the balance).",
  })
  method: (typeof PAYMENT_METHODS_ACCEPTED)[number];

  @OmittableField({ type: ChargeCardDto }, ValidateNested(), Type(() => ChargeCardDto))
  card?: ChargeCardDto;

  @OmittableField(
    {
      format: 'uuid',
      description: "With method payment_method: a payment method of the order's account.",
    },
    IsId(),
  )
  payment_method_id?: string;

  @ClearableField({ example: 'check 1042' }, IsString(), MaxChars(200)) reference?: string | null;

  @MetadataField() metadata?: Record<string, string>;
}

export class CreateRefundDto {
  @OmittableField(
    { example: 10, description: 'Default: what is left to refund.' },
    IsDecimalNumber(2),
    Min(0.01),
    Max(MAX_AMOUNT),
  )
  amount?: number;

  @ClearableField({ example: 'customer request' }, IsString(), MaxChars(500)) reason?: string | null;
}

export class PaymentListQueryDto extends ListQueryDto {
  @OmittableField({ format: 'uuid' }, IsId()) order_id?: string;

  @OmittableField({ format: 'uuid' }, IsId()) account_id?: string;

  @OmittableField(
    { enum: ['succeeded', 'failed', 'partially_refunded', 'refunded'] },
    IsIn(['succeeded', 'failed', 'partially_refunded', 'refunded']),
  )
  status?: string;
}

@ResourceResponse('payment')
export class PaymentResponse {
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) account_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) order_id: string | null;
  @ApiProperty({ example: 50 }) amount: number;
  @ApiProperty({ example: 0 }) amount_refunded: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ enum: ['succeeded', 'failed', 'partially_refunded', 'refunded'] }) status: string;
  @ApiProperty({ enum: [...PAYMENT_METHODS_ACCEPTED, 'bank_deposit'] }) method: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The stored payment method used, if any.',
  })
  payment_method_id: string | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    properties: { brand: { type: 'string', nullable: true }, last4: { type: 'string' } },
    example: { brand: 'visa', last4: '4242' },
  })
  card: {
    brand: string;
    last4: string;
  } | null;
  @ApiProperty({ nullable: true, type: String, example: 'ch_3Q2x9f' }) processor_reference: string | null;
  @ApiProperty({ nullable: true, type: String }) failure_code: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'Your card was declined.' }) failure_message:
    string | null;
  @ApiProperty({ nullable: true, type: String, example: 'check 1042' }) reference: string | null;
  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      required: ['order_id', 'amount'],
      properties: { order_id: { type: 'string', format: 'uuid' }, amount: { type: 'number' } },
    },
  })
  applications: unknown[];
  @MetadataProperty({}) metadata: Record<string, string>;
}

@ResourceResponse('refund', { tail: ['livemode', 'created_at'] })
export class RefundResponse {
  @ApiProperty({ format: 'uuid' }) payment_id: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) order_id: string | null;
  @ApiProperty({ example: 10 }) amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({
    enum: ['pending', 'succeeded', 'failed'],
    description:
      '`pending` from its reservation until the payment processor’s answer is recorded; `failed` when the processor refused it (nothing was refunded).',
  })
  status: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
}
