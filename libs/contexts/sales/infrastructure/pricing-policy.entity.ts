import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'pricing_policies' })
export class PricingPolicyRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text') kind: string;
  @MoneyColumn() value: Decimal;
  @Column('uuid', { name: 'account_id', nullable: true }) accountId: string | null;
  @Column('uuid', { name: 'product_id', nullable: true }) productId: string | null;
  @Column('uuid', { name: 'product_category_id', nullable: true }) productCategoryId: string | null;
  @Column('integer') priority: number;
  @Column('boolean') active: boolean;
  @Column('timestamptz', { name: 'starts_at', nullable: true }) startsAt: Date | null;
  @Column('timestamptz', { name: 'ends_at', nullable: true }) endsAt: Date | null;
  @Column('jsonb') metadata: Record<string, string>;
}
