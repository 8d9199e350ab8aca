import { money, toJsonNumber } from '#platform/persistence/money';
import { normalizeCountry } from '../domain/account';
import { invalidParam } from '../domain/sales-error';
import {
  LocationRecord,
  PaymentTermRecord,
  PostalAddress,
  PricingLevelRecord,
  ReferenceRecord,
  SalesChannelRecord,
  UnitOfMeasureRecord,
} from '../infrastructure/reference-list.entity';
import { ReferenceListDefinition } from './reference-list.service';

type Input = Record<string, unknown>;

/** Copies the listed snake_case request fields onto camelCase record properties when present. */
function copy<E>(
  record: E,
  input: Input,
  fields: Record<string, keyof E>,
  convert: (field: string, v: unknown) => unknown = (_, v) => v,
) {
  for (const [field, property] of Object.entries(fields)) {
    if (input[field] !== undefined)
      (record as Record<keyof E, unknown>)[property] = convert(field, input[field]);
  }
}

const common = <E extends ReferenceRecord>(record: E, input: Input) => {
  copy(record, input, { name: 'name', code: 'code' } as Record<string, keyof E>, (_, v) => String(v).trim());
};

const address = (value: unknown): PostalAddress | null => {
  if (value === null) return null;
  const a = value as Partial<PostalAddress>;
  return {
    line1: a.line1!,
    line2: a.line2 ?? null,
    city: a.city!,
    region: a.region ?? null,
    postal_code: a.postal_code ?? null,
    country: normalizeCountry(a.country!),
  };
};

export const LOCATIONS: ReferenceListDefinition<LocationRecord> = {
  object: 'location',
  label: 'location',
  entity: LocationRecord,
  nullable: ['address'],
  assign(record, input) {
    common(record, input);
    copy(record, input, { type: 'type', address: 'address' }, (field, v) =>
      field === 'address' ? address(v) : v,
    );
    if (record.address === undefined) record.address = null;
  },
  present: (r) => ({ type: r.type, address: r.address }),
};

export const PAYMENT_TERMS: ReferenceListDefinition<PaymentTermRecord> = {
  object: 'payment_term',
  label: 'payment term',
  entity: PaymentTermRecord,
  nullable: [],
  assign(record, input) {
    common(record, input);
    copy(record, input, { net_days: 'netDays', discount_days: 'discountDays' });
    if (input.discount_percent !== undefined)
      record.discountPercent = money(input.discount_percent as number);
    record.discountPercent ??= money(0);
    record.discountDays ??= 0;
  },
  check(record) {
    if (record.discountDays > record.netDays)
      throw invalidParam('discount_days', 'discount_days cannot exceed net_days.');
    if (record.discountPercent.gt(0) && record.discountDays === 0) {
      throw invalidParam(
        'discount_days',
        'A discount_percent needs discount_days > 0 (the days within which the discount holds).',
      );
    }
  },
  present: (r) => ({
    net_days: r.netDays,
    discount_percent: toJsonNumber(r.discountPercent),
    discount_days: r.discountDays,
  }),
};

export const UNITS_OF_MEASURE: ReferenceListDefinition<UnitOfMeasureRecord> = {
  object: 'unit_of_measure',
  label: 'unit of measure',
  entity: UnitOfMeasureRecord,
  nullable: [],
  assign(record, input) {
    common(record, input);
    copy(record, input, { precision: 'precision' });
    record.precision ??= 0;
  },
  present: (r) => ({ precision: r.precision }),
};

export const SALES_CHANNELS: ReferenceListDefinition<SalesChannelRecord> = {
  object: 'sales_channel',
  label: 'sales channel',
  entity: SalesChannelRecord,
  nullable: [],
  assign(record, input) {
    common(record, input);
    copy(record, input, { kind: 'kind' });
  },
  present: (r) => ({ kind: r.kind }),
};

export const PRICING_LEVELS: ReferenceListDefinition<PricingLevelRecord> = {
  object: 'pricing_level',
  label: 'pricing level',
  entity: PricingLevelRecord,
  nullable: [],
  assign(record, input) {
    common(record, input);
    if (input.percent_adjustment !== undefined)
      record.percentAdjustment = money(input.percent_adjustment as number);
  },
  present: (r) => ({ percent_adjustment: toJsonNumber(r.percentAdjustment) }),
};

export const REFERENCE_LISTS = [
  LOCATIONS,
  PAYMENT_TERMS,
  UNITS_OF_MEASURE,
  SALES_CHANNELS,
  PRICING_LEVELS,
] as const;
