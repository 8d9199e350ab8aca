import { ApiProperty, ApiPropertyOptional, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsString, Max, Min, ValidateNested } from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { IsId } from '#platform/http/id.validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { DOCUMENT_TYPES, MAX_ORDER_LINES, ORDER_STATUSES, PAYMENT_STATUSES } from '../domain/order';
import {
  CurrencyField,
  IsAmount,
  IsPercent,
  MAX_AMOUNT,
  MetadataField,
  MetadataProperty,
  OmittableField,
} from './validation';
import { IsMoneyAmount } from '#platform/http/money.validator';
import {
  ClearableField,
  CreatedAfter,
  CreatedBefore,
  RequiredUnless,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

const MAX_LINES = MAX_ORDER_LINES;

/** A line without a product says what it sells and at what price (OrderLinePricingService). */
const LINE_WITHOUT_PRODUCT = CrossFieldRules(
  {
    kind: 'one_required',
    fields: ['product_id', 'description'],
    param: 'description',
    sentence: 'A line without product_id needs a description.',
  },
  {
    kind: 'one_required',
    fields: ['product_id', 'unit_price'],
    param: 'unit_price',
    sentence: 'A line without product_id needs a unit_price.',
  },
);

@LINE_WITHOUT_PRODUCT
export class OrderLineDto {
  @ClearableField(
    {
      format: 'uuid',
      description:
        'A product of this entity and mode; its list price and pricing policies price the line when unit_price is absent.',
    },
    IsId(),
  )
  product_id?: string | null;

  @OmittableField(
    {
      example: 'QA Widget',
      description: 'Default: the product name. Required without product_id.',
    },
    IsString(),
    IsNotEmpty(),
    MaxChars(500),
  )
  description?: string;

  @ApiProperty({ example: 3, description: 'Greater than 0, up to 4 decimals.' })
  @IsMoneyAmount()
  @Min(0.0001)
  @Max(MAX_AMOUNT)
  quantity: number;

  @OmittableField(
    {
      example: 22.5,
      description:
        'Overrides the priced unit price (then pricing_policy_id is null). Required without product_id.',
    },
    IsAmount(),
  )
  unit_price?: number;

  @OmittableField({ example: 5, minimum: 0, maximum: 100 }, IsPercent())
  discount_percent?: number;

  @OmittableField(
    {
      example: 1.5,
      minimum: 0,
      description: 'A fixed amount off the line, after discount_percent.',
    },
    IsAmount(),
  )
  discount_amount?: number;

  @OmittableField(
    {
      example: 8.25,
      minimum: 0,
      maximum: 100,
      description: 'Tax percent on the discounted line.',
    },
    IsPercent(),
  )
  tax_rate?: number;
}

export class UpdateOrderLineDto extends PartialType(OrderLineDto) {}

export class CreateOrderDto {
  @OmittableField({ enum: DOCUMENT_TYPES, default: 'sales_order' }, IsIn(DOCUMENT_TYPES))
  document_type?: (typeof DOCUMENT_TYPES)[number];

  @RequiredUnless(
    { field: 'document_type', values: ['purchase_order'], fallback: 'sales_order' },
    {
      format: 'uuid',
      description:
        'The customer account: required (not null) except on purchase orders, where it is the optional vendor.',
    },
    IsId(),
  )
  account_id?: string | null;

  @CurrencyField("Default: the account's currency (the entity base currency without an account).")
  currency?: string;

  @OmittableField(
    { type: [OrderLineDto], maxItems: MAX_LINES },
    IsArray(),
    ArrayMaxSize(MAX_LINES),
    ValidateNested({ each: true }),
    Type(() => OrderLineDto),
  )
  lines?: OrderLineDto[];

  @ClearableField({}, IsString(), MaxChars(5000)) notes?: string | null;

  @MetadataField() metadata?: Record<string, unknown>;
}

export const PURCHASE_ORDER_TYPES = ['purchase_order'] as const;

/**
 * POST /purchase-orders: the fields of an order document, of type purchase_order only (omitted,
 * it is purchase_order), and an optional vendor account (null or absent: none).
 */
export class CreatePurchaseOrderDto extends OmitType(CreateOrderDto, [
  'document_type',
  'account_id',
] as const) {
  @OmittableField(
    { enum: PURCHASE_ORDER_TYPES, description: 'Default: `purchase_order`, the only value.' },
    IsIn(PURCHASE_ORDER_TYPES, {
      message: 'This route creates purchase orders only; omit document_type or send purchase_order.',
    }),
  )
  document_type?: (typeof PURCHASE_ORDER_TYPES)[number];

  @ClearableField({ format: 'uuid', description: 'The vendor account, if any.' }, IsId())
  account_id?: string | null;
}

/** An order's editable fields; the lines sent replace every line. */
export class UpdateOrderDto extends PickType(CreateOrderDto, ['lines', 'notes', 'metadata'] as const) {
  @OmittableField({ format: 'uuid', description: 'Only while draft.' }, IsId()) account_id?: string;

  @ApiPropertyOptional({ type: [OrderLineDto], description: 'Replaces every line.' })
  override lines?: OrderLineDto[];
}

export const ORDER_SORTS = ['created_at_desc', 'created_at_asc', '-created_at', 'created_at'] as const;

export class OrderListQueryDto extends ListQueryDto {
  @OmittableField(
    { enum: DOCUMENT_TYPES, description: 'Default: quotes, sales orders and invoices.' },
    IsIn(DOCUMENT_TYPES),
  )
  document_type?: (typeof DOCUMENT_TYPES)[number];

  @OmittableField({ format: 'uuid' }, IsId()) account_id?: string;

  @OmittableField({ enum: ORDER_STATUSES }, IsIn(ORDER_STATUSES))
  order_status?: (typeof ORDER_STATUSES)[number];

  @OmittableField({ enum: PAYMENT_STATUSES }, IsIn(PAYMENT_STATUSES))
  payment_status?: (typeof PAYMENT_STATUSES)[number];

  @CreatedAfter('orders') created_after?: string;

  @CreatedBefore('orders') created_before?: string;

  @OmittableField(
    {
      enum: ORDER_SORTS,
      default: 'created_at_desc',
      description: '`created_at_desc` (= `-created_at`, newest first) or `created_at_asc` (= `created_at`).',
    },
    IsIn(ORDER_SORTS),
  )
  sort?: (typeof ORDER_SORTS)[number];
}

/**
 * GET /purchase-orders: the order filters, with `document_type` narrowed to the one type the route
 * lists (another type is 400 naming it, not a filter silently ignored).
 */
export class PurchaseOrderListQueryDto extends OmitType(OrderListQueryDto, ['document_type'] as const) {
  @OmittableField(
    { enum: PURCHASE_ORDER_TYPES, description: 'Default: `purchase_order`, the only type this route lists.' },
    IsIn(PURCHASE_ORDER_TYPES, {
      message: 'This route lists purchase orders only; omit document_type or send purchase_order.',
    }),
  )
  document_type?: (typeof PURCHASE_ORDER_TYPES)[number];
}

export class TagRefDto {
  @RequiredUuid() tag_id: string;
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

@ResourceResponse('order')
export class OrderResponse {
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
  @ApiProperty({ example: 0, description: 'What credit memos (refunds of returns) took off the total.' })
  amount_credited: number;
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
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date',
    description:
      "Issued invoices: the issue day (entity time zone) plus the account's payment-terms net_days; null without payment terms (never overdue) and on other documents.",
  })
  due_date: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['current', 'overdue'],
    description:
      'Issued invoices and late-fee invoices: overdue once the collections job finds the due date passed with an amount due; current otherwise (a payment that clears the amount due makes an overdue invoice current). Null on other documents.',
  })
  collection_status: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When it was marked overdue; null while current.',
  })
  overdue_at: string | null;
  @ApiProperty({ type: [String] }) tag_ids: string[];
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
  @MetadataProperty() metadata: Record<string, string>;
}
