import { requestMetadataSchema } from '#platform/http/metadata-doc';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import { CrossFieldRule, CrossFieldRules } from '#platform/http/cross-field-rules';
import { IsId } from '#platform/http/id.validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { IsMoneyAmount } from '#platform/http/money.validator';
import { CARRIER_SERVICE_CODES, CARRIERS, SERVICE_LEVELS, servicesOf } from '../domain/carrier-service';
import { LABEL_FILE_TYPES } from '../domain/label';
import { PACKAGE_STATUSES } from '../domain/package';
import {
  CreatedAfter,
  CreatedBefore,
  OptionalBoolean,
  OptionalEnum,
  OptionalField,
  OptionalNonEmptyText,
  OptionalText,
  OptionalUuid,
  RequiredText,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

const MAX_UNITS = 1_000_000;

/**
 * How `carrier`, `service` and the compound `carrier_service` go together (the checks of
 * resolveCarrierService): a carrier takes only its own services, and a compound code sent with
 * `carrier` or `service` must agree with them. One rule per carrier and per code, from the table.
 */
const CARRIER_RULES: CrossFieldRule[] = [
  ...CARRIERS.map((carrier): CrossFieldRule => ({
    kind: 'when',
    field: 'carrier',
    is: [carrier],
    allowed: { service: servicesOf(carrier) },
    param: 'service',
    sentence: `With carrier \`${carrier}\`, service is one of ${servicesOf(carrier).join(', ')}.`,
  })),
  ...SERVICE_LEVELS.map(({ carrier, service }, i): CrossFieldRule => ({
    kind: 'when',
    field: 'carrier_service',
    is: [CARRIER_SERVICE_CODES[i]],
    allowed: { carrier: [carrier], service: [service] },
    param: 'carrier_service',
    sentence: `carrier_service \`${CARRIER_SERVICE_CODES[i]}\` goes with carrier \`${carrier}\` and service \`${service}\` when those are sent too.`,
  })),
];

const CARRIER_SERVICE_DOC =
  'Compound `<carrier>_<service>` code; split into carrier and service_level. Sent with `carrier` or `service`, it must agree with them.';
const CARRIER_DOC = 'The carrier; `service` (when sent) is one of its services.';
const nullable = (_: unknown, v: unknown) => v !== null;

/** A rate_object_id carries its signed rate (docs/api-decisions.md, "Fulfillment: shipping rates"). */
const RATE_OBJECT_ID_MAX = 512;

export class PackageItemInputDto {
  @OptionalUuid({ description: 'The order line; its remaining unpackaged quantity bounds quantity.' })
  order_item_id?: string;

  @OptionalUuid({ description: 'Required without order_item_id: must match a line of the order.' })
  product_id?: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_UNITS })
  @IsInt()
  @Min(1)
  @Max(MAX_UNITS)
  quantity: number;

  @OptionalField(
    {
      type: [String],
      description: 'One per unit of a serial-tracked product; each allocated to this order.',
    },
    IsArray(),
    ArrayMaxSize(MAX_UNITS),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxChars(120, { each: true }),
  )
  serial_numbers?: string[];
}

/** The package fields PATCH changes (and POST sets). */
@CrossFieldRules(...CARRIER_RULES)
export class PackageFieldsDto {
  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'A product of type box: fills the dimensions.',
  })
  @IsOptional()
  @ValidateIf(nullable)
  @IsId()
  box_product_id?: string | null;

  @ApiPropertyOptional({ description: 'Inches.', nullable: true, type: Number })
  @IsOptional()
  @ValidateIf(nullable)
  @IsMoneyAmount()
  @Min(0)
  length?: number | null;

  @ApiPropertyOptional({ description: 'Inches.', nullable: true, type: Number })
  @IsOptional()
  @ValidateIf(nullable)
  @IsMoneyAmount()
  @Min(0)
  width?: number | null;

  @ApiPropertyOptional({ description: 'Inches.', nullable: true, type: Number })
  @IsOptional()
  @ValidateIf(nullable)
  @IsMoneyAmount()
  @Min(0)
  height?: number | null;

  @ApiPropertyOptional({ description: 'Pounds.', nullable: true, type: Number })
  @IsOptional()
  @ValidateIf(nullable)
  @IsMoneyAmount()
  @Min(0)
  weight?: number | null;

  @ApiPropertyOptional({ maxLength: 2000, nullable: true, type: String })
  @IsOptional()
  @ValidateIf(nullable)
  @IsString()
  @MaxChars(2000)
  notes?: string | null;

  @OptionalField(requestMetadataSchema(), IsObject()) metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    enum: CARRIER_SERVICE_CODES,
    example: 'usps_priority',
    description: CARRIER_SERVICE_DOC,
  })
  @IsOptional()
  @ValidateIf(nullable)
  @IsString()
  @IsIn(CARRIER_SERVICE_CODES)
  carrier_service?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    enum: CARRIERS,
    example: 'usps',
    description: CARRIER_DOC,
  })
  @IsOptional()
  @ValidateIf(nullable)
  @IsString()
  @IsIn(CARRIERS)
  carrier?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'priority',
    description: 'Service level code.',
  })
  @IsOptional()
  @ValidateIf(nullable)
  @IsString()
  @MaxChars(64)
  service?: string | null;

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description:
      'Where the package ships from (default: the inventory default location, else the oldest location).',
  })
  @IsOptional()
  @ValidateIf(nullable)
  @IsId()
  location_id?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    description: 'Declared value for insurance; wins over the computed one.',
  })
  @IsOptional()
  @ValidateIf(nullable)
  @IsMoneyAmount()
  @Min(0)
  insurance_amount_override?: number | null;

  @ApiPropertyOptional({ nullable: true, type: Number })
  @IsOptional()
  @ValidateIf(nullable)
  @IsMoneyAmount()
  @Min(0)
  billed_ship_cost?: number | null;
}

export class UpdatePackageDto extends PackageFieldsDto {}

@CrossFieldRules(
  {
    kind: 'when',
    field: 'buy_label',
    is: [true],
    requires: ['rate_object_id'],
    param: 'rate_object_id',
    sentence: 'buy_label: true needs the rate_object_id of a rate from GET /v1/packages/{id}/rates.',
  },
  {
    kind: 'distinct',
    field: 'items',
    key: 'serial_numbers[]',
    param: 'items',
    sentence: 'Each serial number appears once in the request, across items[].serial_numbers.',
  },
)
export class CreatePackageDto extends PackageFieldsDto {
  @RequiredUuid({ description: 'A confirmed sales order.' }) order_id: string;

  @OptionalField(
    { type: [PackageItemInputDto], description: 'Created atomically with the package.' },
    IsArray(),
    ArrayMaxSize(500),
    ValidateNested({ each: true }),
    Type(() => PackageItemInputDto),
  )
  items?: PackageItemInputDto[];

  @OptionalBoolean({ default: false }) buy_label?: boolean;

  @OptionalNonEmptyText(RATE_OBJECT_ID_MAX, {
    description: 'Required with buy_label: a rate of this order from GET /packages/{id}/rates.',
  })
  rate_object_id?: string;

  @OptionalBoolean({
    default: false,
    description:
      'Ships the package when the label purchase succeeded; needs orders:write besides fulfillment:write.',
  })
  fulfill_after_label?: boolean;

  @OptionalEnum(LABEL_FILE_TYPES, { default: 'PDF' }) label_file_type?: (typeof LABEL_FILE_TYPES)[number];

  @OptionalBoolean({ description: 'Passes the revision gate; needs the scope orders:revision_override.' })
  skip_revision_ack?: boolean;
}

export class CreatePackageQueryDto {
  @OptionalEnum(['true', 'false'], {
    description: 'Passes the revision gate; needs orders:revision_override.',
  })
  override?: 'true' | 'false';
}

export class BuyLabelDto {
  @RequiredText(RATE_OBJECT_ID_MAX) rate_object_id: string;
  @OptionalEnum(LABEL_FILE_TYPES, { default: 'PDF' }) label_file_type?: (typeof LABEL_FILE_TYPES)[number];
}

@CrossFieldRules(...CARRIER_RULES, {
  kind: 'one_required',
  fields: ['carrier', 'carrier_service'],
  stored: true,
  param: 'carrier',
  sentence:
    'A package shipped without a bought label needs its carrier: carrier or carrier_service, unless the package already holds one. A package with a bought label takes neither (nor tracking_number): they come from the label.',
})
export class ShipPackageDto {
  @OptionalEnum(CARRIER_SERVICE_CODES, { example: 'ups_ground', description: CARRIER_SERVICE_DOC })
  carrier_service?: string;
  @OptionalEnum(CARRIERS, { example: 'ups', description: CARRIER_DOC }) carrier?: string;
  @OptionalText(64, { example: 'ground' }) service?: string;
  @OptionalNonEmptyText(100, { description: 'Required without a bought label.' }) tracking_number?: string;
  @OptionalText(500) tracking_url?: string;
}

export class PackageListQueryDto extends ListQueryDto {
  @OptionalUuid() order_id?: string;
  @OptionalEnum(PACKAGE_STATUSES) status?: string;
  @OptionalText(32, { example: 'usps' }) carrier?: string;
  @CreatedAfter() created_after?: string;
  @CreatedBefore() created_before?: string;
}

export class InsuranceResponse {
  @ApiProperty() active: boolean;
  @ApiProperty() bought: boolean;
  @ApiProperty() amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty() fee_estimate: number;
  @ApiProperty({ nullable: true, type: String, example: 'USPS' }) provider: string | null;
  @ApiProperty({ type: [String] }) covered_items: string[];
  @ApiProperty({ type: 'integer' }) covered_item_count: number;
  @ApiProperty({ enum: ['product_toggle', 'entity_threshold', 'manual_override'] }) source: string;
}

@ResourceResponse('package_item', { tail: [] })
export class PackageItemResponse {
  @ApiProperty({ format: 'uuid' }) package_id: string;
  @ApiProperty({ format: 'uuid' }) order_item_id: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ type: 'integer' }) quantity: number;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ type: [String], description: 'Serials of this item received back by returns.' })
  returned_serial_numbers: string[];
  @ApiProperty() unit_price: number;
  @ApiProperty({ nullable: true, type: Number }) unit_cost: number | null;
  @ApiProperty({ type: 'integer' }) returned_quantity: number;
}

@ResourceResponse('package')
export class PackageResponse {
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'QA1-PKG-000001' }) package_number: string;
  @ApiProperty({ enum: PACKAGE_STATUSES }) status: string;
  @ApiProperty({ nullable: true, type: Number }) weight_lb: number | null;
  @ApiProperty({ nullable: true, type: Number }) length_in: number | null;
  @ApiProperty({ nullable: true, type: Number }) width_in: number | null;
  @ApiProperty({ nullable: true, type: Number }) height_in: number | null;
  @ApiProperty({ nullable: true, type: String }) carrier: string | null;
  @ApiProperty({ nullable: true, type: String }) service_level: string | null;
  @ApiProperty({ nullable: true, type: String }) tracking_number: string | null;
  @ApiProperty({ nullable: true, type: String }) tracking_url: string | null;
  @ApiProperty({ nullable: true, type: Number }) ship_cost: number | null;
  @ApiProperty({ nullable: true, type: Number }) billed_ship_cost: number | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) location_id: string | null;
  @ApiProperty({ nullable: true, type: Number }) insurance_amount_override: number | null;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The box product whose dimensions were used.',
  })
  box_product_id: string | null;
  @ApiProperty({ type: InsuranceResponse, nullable: true }) insurance: InsuranceResponse | null;
  @ApiProperty({ type: [PackageItemResponse] }) items: PackageItemResponse[];
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'Label data (file at label.url).',
  })
  label: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true }) revision_override: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Record<string, string>;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) shipped_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) delivered_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) returned_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) voided_at: string | null;
}

export class RateResponse {
  @ApiProperty({ example: 'shipping_rate' }) object: string;
  @ApiProperty({
    example: 'rate_WyJzYW5kYm94IiwidXNwcyIs....K3m9Qf1tWc0xg2nVb8ZyRw',
    description: 'The rate itself, signed: send it back unchanged to buy the label.',
  })
  rate_object_id: string;
  @ApiProperty({ format: 'uuid', description: 'The package the rate was quoted for.' }) package_id: string;
  @ApiProperty({ example: 'usps' }) carrier: string;
  @ApiProperty({ example: 'priority' }) service_level: string;
  @ApiProperty() amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: 'integer', nullable: true }) estimated_days: number | null;
  @ApiProperty() insurance_fee: number;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

@ResourceResponse('shipment_notification', { tail: ['created_at'] })
export class ShipmentNotificationResponse {
  @ApiProperty({ format: 'uuid' }) package_id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'email' }) channel: string;
  @ApiProperty({ nullable: true, type: String }) recipient: string | null;
  @ApiProperty() subject: string;
  @ApiProperty() body: string;
  @ApiProperty({ enum: ['queued', 'sent'], example: 'sent' }) status: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) sent_at: string | null;
}
