import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'accounts' })
export class AccountRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) phone: string | null;
  @Column('char', { length: 3 }) currency: string;
  @MoneyColumn({ name: 'credit_limit', nullable: true }) creditLimit: Decimal | null;
  /** Customer credit the account holds (the sum of its credit transactions); changed under the account's row lock. */
  @MoneyColumn({ name: 'credit_balance' }) creditBalance: Decimal;
  @Column('uuid', { name: 'payment_terms_id', nullable: true }) paymentTermsId: string | null;
  @Column('text', { name: 'tax_id', nullable: true }) taxId: string | null;
  @Column('text') status: string;
  @Column('uuid', { name: 'merged_into_id', nullable: true }) mergedIntoId: string | null;
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt: Date | null;
  @Column('jsonb') metadata: Record<string, string>;
}

/** Columns of the records that hang off an account (addresses, contacts, payment methods). */
export abstract class AccountChildRecord extends TenantRecord {
  @Column('uuid', { name: 'account_id' }) accountId: string;
}

@Entity({ name: 'account_addresses' })
export class AccountAddressRecord extends AccountChildRecord {
  @Column('text') type: string;
  @Column('text') line1: string;
  @Column('text', { nullable: true }) line2: string | null;
  @Column('text') city: string;
  @Column('text', { nullable: true }) region: string | null;
  @Column('text', { name: 'postal_code', nullable: true }) postalCode: string | null;
  @Column('char', { length: 2 }) country: string;
  @Column('boolean', { name: 'is_default' }) isDefault: boolean;
}

@Entity({ name: 'account_contacts' })
export class AccountContactRecord extends AccountChildRecord {
  @Column('text') name: string;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) phone: string | null;
  @Column('text', { nullable: true }) role: string | null;
  @Column('boolean', { name: 'is_primary' }) isPrimary: boolean;
}

@Entity({ name: 'payment_methods' })
export class PaymentMethodRecord extends AccountChildRecord {
  @Column('text') type: string;
  @Column('text', { name: 'card_brand', nullable: true }) cardBrand: string | null;
  @Column('char', { name: 'card_last4', length: 4, nullable: true }) cardLast4: string | null;
  @Column('integer', { name: 'card_exp_month', nullable: true }) cardExpMonth: number | null;
  @Column('integer', { name: 'card_exp_year', nullable: true }) cardExpYear: number | null;
  @Column('text', { name: 'bank_name', nullable: true }) bankName: string | null;
  @Column('char', { name: 'bank_last4', length: 4, nullable: true }) bankLast4: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { name: 'billing_name', nullable: true }) billingName: string | null;
  @Column('boolean', { name: 'is_default' }) isDefault: boolean;
  @Column('jsonb') metadata: Record<string, string>;
}
