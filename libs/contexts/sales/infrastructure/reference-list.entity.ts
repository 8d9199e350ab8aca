import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';
import { moneyTransformer } from '#platform/persistence/money';

/** Columns shared by every reference list: a name and a code unique per entity and mode. */
export abstract class ReferenceRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text') code: string;
}

const PercentColumn = (name: string) =>
  Column('numeric', { name, precision: 9, scale: 4, transformer: moneyTransformer });

export interface PostalAddress {
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postal_code: string | null;
  country: string;
}

@Entity({ name: 'locations' })
export class LocationRecord extends ReferenceRecord {
  @Column('text') type: string;
  @Column('jsonb', { nullable: true }) address: PostalAddress | null;
}

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
