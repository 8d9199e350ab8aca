import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { moneyTransformer } from '#platform/persistence/money-transformer';
import { ReferenceRecord } from '#platform/reference-lists/reference-record';

const PercentColumn = (name: string) =>
  Column('numeric', { name, precision: 9, scale: 4, transformer: moneyTransformer });

@Entity({ name: 'payment_terms' })
export class PaymentTermRecord extends ReferenceRecord {
  @Column('integer', { name: 'net_days' }) netDays: number;
  @PercentColumn('discount_percent') discountPercent: Decimal;
  @Column('integer', { name: 'discount_days' }) discountDays: number;
}

@Entity({ name: 'units_of_measure' })
export class UnitOfMeasureRecord extends ReferenceRecord {
  @Column('integer') precision: number;
}

@Entity({ name: 'sales_channels' })
export class SalesChannelRecord extends ReferenceRecord {
  @Column('text') kind: string;
}

@Entity({ name: 'pricing_levels' })
export class PricingLevelRecord extends ReferenceRecord {
  @PercentColumn('percent_adjustment') percentAdjustment: Decimal;
}
