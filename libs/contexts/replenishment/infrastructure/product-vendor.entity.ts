import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'product_vendors' })
export class ProductVendorRecord extends TenantRecord {
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'vendor_account_id' }) vendorAccountId: string;
  @Column('text', { name: 'vendor_sku', nullable: true }) vendorSku: string | null;
  @MoneyColumn({ name: 'unit_cost', nullable: true }) unitCost: Decimal | null;
  @Column('char', { length: 3 }) currency: string;
  @Column('integer', { name: 'lead_time_days' }) leadTimeDays: number;
  @Column('integer', { name: 'min_order_quantity' }) minOrderQuantity: number;
  @Column('integer', { name: 'order_multiple' }) orderMultiple: number;
  @Column('boolean', { name: 'is_preferred' }) isPreferred: boolean;
}
