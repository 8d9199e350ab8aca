import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { DOCUMENT_TYPES, ORDER_STATUSES, PAYMENT_STATUSES } from '../domain/order';
import { PAYMENT_METHODS_ACCEPTED } from '../application/payments.service';
import { Optional, OptionalNullable } from './validation';
import { IsDecimalNumber, IsMoneyAmount } from '../../../platform/http/money.validator';

const MAX_AMOUNT = 999_999_999_999_999;
const MAX_LINES = 1000;

export class OrderLineDto {
  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    description:
      'A product of this entity and mode; its list price and pricing policies price the line when unit_price is absent.',
  })
  @OptionalNullable()
  @IsUUID()
  product_id?: string | null;

  @ApiPropertyOptional({
    example: 'QA Widget',
    description: 'Default: the product name. Required without product_id.',
  })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  description?: string;

  @ApiProperty({ example: 3, description: 'Greater than 0, up to 4 decimals.' })
  @IsMoneyAmount()
  @Min(0.0001)
  @Max(MAX_AMOUNT)
  quantity: number;

  @ApiPropertyOptional({
    example: 22.5,
    description:
      'Overrides the priced unit price (then pricing_policy_id is null). Required without product_id.',
  })
  @Optional()
  @IsMoneyAmount()
  @Min(0)
  @Max(MAX_AMOUNT)
  unit_price?: number;

  @ApiPropertyOptional({ example: 5, minimum: 0, maximum: 100 })
  @Optional()
  @IsMoneyAmount()
  @Min(0)
  @Max(100)
  discount_percent?: number;

  @ApiPropertyOptional({
    example: 1.5,
    minimum: 0,
    description: 'A fixed amount off the line, after discount_percent.',
  })
  @Optional()
  @IsMoneyAmount()
  @Min(0)
  @Max(MAX_AMOUNT)
  discount_amount?: number;

  @ApiPropertyOptional({
    example: 8.25,
    minimum: 0,
    maximum: 100,
    description: 'Tax percent on the discounted line.',
  })
  @Optional()
  @IsMoneyAmount()
  @Min(0)
  @Max(100)
  tax_rate?: number;
}

export class UpdateOrderLineDto extends PartialType(OrderLineDto) {}

export class CreateOrderDto {
  @ApiPropertyOptional({ enum: DOCUMENT_TYPES, default: 'sales_order' })
  @Optional()
  @IsIn(DOCUMENT_TYPES)
  document_type?: (typeof DOCUMENT_TYPES)[number];

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    description: 'The customer account; required except on purchase orders.',
  })
  @OptionalNullable()
  @IsUUID()
  account_id?: string | null;

  @ApiPropertyOptional({
    example: 'USD',
    description: "Default: the account's currency (the entity base currency without an account).",
  })
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code' })
  currency?: string;

  @ApiPropertyOptional({ type: [OrderLineDto], maxItems: MAX_LINES })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_LINES)
  @ValidateNested({ each: true })
  @Type(() => OrderLineDto)
  lines?: OrderLineDto[];

  @ApiPropertyOptional({ nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(5000)
  notes?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @Optional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

/** An order's editable fields; the lines sent replace every line. */
export class UpdateOrderDto extends PickType(CreateOrderDto, ['lines', 'notes', 'metadata'] as const) {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only while draft.' })
  @Optional()
  @IsUUID()
  account_id?: string;

  @ApiPropertyOptional({ type: [OrderLineDto], description: 'Replaces every line.' })
  override lines?: OrderLineDto[];
}

export const ORDER_SORTS = ['created_at_desc', 'created_at_asc', '-created_at', 'created_at'] as const;

export class OrderListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: DOCUMENT_TYPES, description: 'Default: quotes, sales orders and invoices.' })
  @Optional()
  @IsIn(DOCUMENT_TYPES)
  document_type?: (typeof DOCUMENT_TYPES)[number];

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  account_id?: string;

  @ApiPropertyOptional({ enum: ORDER_STATUSES })
  @Optional()
  @IsIn(ORDER_STATUSES)
  order_status?: (typeof ORDER_STATUSES)[number];

  @ApiPropertyOptional({ enum: PAYMENT_STATUSES })
  @Optional()
  @IsIn(PAYMENT_STATUSES)
  payment_status?: (typeof PAYMENT_STATUSES)[number];

  @ApiPropertyOptional({ format: 'date-time', description: 'Only orders created strictly after.' })
  @Optional()
  @IsISO8601({ strict: true })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only orders created strictly before.' })
  @Optional()
  @IsISO8601({ strict: true })
  created_before?: string;

  @ApiPropertyOptional({
    enum: ORDER_SORTS,
    default: 'created_at_desc',
    description: '`created_at_desc` (= `-created_at`, newest first) or `created_at_asc` (= `created_at`).',
  })
  @Optional()
  @IsIn(ORDER_SORTS)
  sort?: (typeof ORDER_SORTS)[number];
}

/** Body of the action routes: none; any field is 400 parameter_unknown. */
export class EmptyBodyDto {}

export class TagRefDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  tag_id: string;
}

export class CardDto {
  @ApiProperty({
    example: '4242424242424242',
    description: 'Used for this charge only; never stored (only brand and last4 are kept).',
  })
  @IsString()
  @Matches(/^\d{12,19}$/, { message: 'number must be 12 to 19 digits' })
  number: string;

  @ApiProperty({ example: 12 })
  @IsInt()
  @Min(1)
  @Max(12)
  exp_month: number;

  @ApiProperty({ example: 2030 })
  @IsInt()
  @Min(2000)
  @Max(2100)
  exp_year: number;

  @ApiPropertyOptional({ example: '123' })
  @Optional()
  @IsString()
  @Matches(/^\d{3,4}$/, { message: 'cvc must be 3 or 4 digits' })
  cvc?: string;
}

export class CreatePaymentDto {
  @ApiPropertyOptional({
    example: 50,
    description: 'Default: the amount due. At most 2 decimals, > 0, not above the amount due.',
  })
  @Optional()
  @IsDecimalNumber(2)
  @Min(0.01)
  @Max(MAX_AMOUNT)
  amount?: number;

  @ApiProperty({ enum: PAYMENT_METHODS_ACCEPTED })
  @IsIn(PAYMENT_METHODS_ACCEPTED)
  method: (typeof PAYMENT_METHODS_ACCEPTED)[number];

  @ApiPropertyOptional({ type: CardDto })
  @Optional()
  @ValidateNested()
  @Type(() => CardDto)
  card?: CardDto;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "With method payment_method: a payment method of the order's account.",
  })
  @Optional()
  @IsUUID()
  payment_method_id?: string;

  @ApiPropertyOptional({ nullable: true, example: 'check 1042' })
  @OptionalNullable()
  @IsString()
  @MaxLength(200)
  reference?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @Optional()
  @IsObject()
  metadata?: Record<string, string>;
}

export class CreateRefundDto {
  @ApiPropertyOptional({ example: 10, description: 'Default: what is left to refund.' })
  @Optional()
  @IsDecimalNumber(2)
  @Min(0.01)
  @Max(MAX_AMOUNT)
  amount?: number;

  @ApiPropertyOptional({ nullable: true, example: 'customer request' })
  @OptionalNullable()
  @IsString()
  @MaxLength(500)
  reason?: string | null;
}

export class PaymentListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  order_id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  account_id?: string;

  @ApiPropertyOptional({ enum: ['succeeded', 'failed', 'partially_refunded', 'refunded'] })
  @Optional()
  @IsIn(['succeeded', 'failed', 'partially_refunded', 'refunded'])
  status?: string;
}

export class OrderLineResponse extends OrderLineDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'order_line' }) object: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty() position: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    example: 25,
    description: 'The product list price when the line was priced.',
  })
  list_price: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The policy that set unit_price; kept after the policy is deleted.',
  })
  pricing_policy_id: string | null;
  @ApiProperty({ example: 75 }) subtotal: number;
  @ApiProperty({ example: 0 }) discount_total: number;
  @ApiProperty({ example: 0 }) tax_total: number;
  @ApiProperty({ example: 75 }) total: number;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: "A kit's component line points to the kit line; component lines are priced at 0.",
  })
  parent_line_id: string | null;
}

export class RevisionResponse {
  @ApiProperty() revised: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revised_at: string | null;
  @ApiProperty() revision_count: number;
  @ApiProperty({ description: 'false while a revision awaits the customer acknowledgment.' })
  acknowledged: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) acknowledged_at: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The total the customer acknowledged.' })
  acknowledged_total: number | null;
}

export class OrderResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'order' }) object: string;
  @ApiProperty({ enum: DOCUMENT_TYPES }) document_type: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Expandable: account.' })
  account_id: string | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ enum: ORDER_STATUSES }) order_status: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) payment_status: string;
  @ApiProperty({ example: 75 }) subtotal: number;
  @ApiProperty({ example: 0 }) discount_total: number;
  @ApiProperty({ example: 0 }) tax_total: number;
  @ApiProperty({ example: 75 }) total: number;
  @ApiProperty({ example: 0, description: 'Net of refunds.' }) amount_paid: number;
  @ApiProperty({ example: 0 }) amount_refunded: number;
  @ApiProperty({ example: 75 }) amount_due: number;
  @ApiProperty({
    type: [OrderLineResponse],
    description: 'Embedded; expand[]=lines.product expands products.',
  })
  lines: OrderLineResponse[];
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) source_order_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) converted_to_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) confirmed_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) sent_to_customer_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) fulfilled_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) closed_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) cancelled_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) voided_at: string | null;
  @ApiProperty({ type: RevisionResponse }) revision: RevisionResponse;
  @ApiProperty({ type: [String] }) tag_ids: string[];
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class PaymentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'payment' }) object: string;
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
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} })
  metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class RefundResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'refund' }) object: string;
  @ApiProperty({ format: 'uuid' }) payment_id: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) order_id: string | null;
  @ApiProperty({ example: 10 }) amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 'succeeded' }) status: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
