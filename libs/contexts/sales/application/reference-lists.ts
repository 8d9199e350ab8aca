import { money, toJsonNumber } from '#platform/domain/money';
import {
  assignNameAndCode,
  copyFields,
  ReferenceListDefinition,
} from '#platform/reference-lists/reference-list.service';
import { invalidParam } from '#platform/errors/domain-error';
import {
  PaymentTermRecord,
  PricingLevelRecord,
  SalesChannelRecord,
  UnitOfMeasureRecord,
} from '../infrastructure/reference-list.entity';

export const PAYMENT_TERMS: ReferenceListDefinition<PaymentTermRecord> = {
  object: 'payment_term',
  label: 'payment term',
  entity: PaymentTermRecord,
  nullable: [],
  assign(record, input) {
    assignNameAndCode(record, input);
    copyFields(record, input, { net_days: 'netDays', discount_days: 'discountDays' });
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
    assignNameAndCode(record, input);
    copyFields(record, input, { precision: 'precision' });
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
    assignNameAndCode(record, input);
    copyFields(record, input, { kind: 'kind' });
  },
  present: (r) => ({ kind: r.kind }),
};

export const PRICING_LEVELS: ReferenceListDefinition<PricingLevelRecord> = {
  object: 'pricing_level',
  label: 'pricing level',
  entity: PricingLevelRecord,
  nullable: [],
  assign(record, input) {
    assignNameAndCode(record, input);
    if (input.percent_adjustment !== undefined)
      record.percentAdjustment = money(input.percent_adjustment as number);
  },
  present: (r) => ({ percent_adjustment: toJsonNumber(r.percentAdjustment) }),
};

/** Sales' reference lists (locations are inventory's). */
export const REFERENCE_LISTS = [PAYMENT_TERMS, UNITS_OF_MEASURE, SALES_CHANNELS, PRICING_LEVELS] as const;
