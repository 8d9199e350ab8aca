import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';

@Entity('inventory_settings')
export class InventorySettingsRecord extends TenantRecord {
  @Column('boolean', { name: 'allow_negative_stock' }) allowNegativeStock: boolean;
  @Column('uuid', { name: 'default_location_id', nullable: true }) defaultLocationId: string | null;
}

@Entity('inventory_balances')
export class InventoryBalanceRecord extends TenantRecord {
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'variant_id', nullable: true }) variantId: string | null;
  @Column('uuid', { name: 'location_id' }) locationId: string;
  @Column('integer', { name: 'on_hand' }) onHand: number;
  @Column('integer') allocated: number;
  @Column('integer', { name: 'on_order' }) onOrder: number;
  @MoneyColumn({ name: 'unit_cost' }) unitCost: Decimal;
  @MoneyColumn() value: Decimal;
  @Column('integer', { name: 'reorder_point', nullable: true }) reorderPoint: number | null;
  @Column('integer', { name: 'reorder_quantity', nullable: true }) reorderQuantity: number | null;
  @Column('integer', { name: 'safety_stock', nullable: true }) safetyStock: number | null;
  @Column('text', { name: 'stock_level' }) stockLevel: string;
}

@Entity('inventory_transactions')
export class InventoryTransactionRecord extends TenantRecord {
  @Column('uuid', { name: 'balance_id' }) balanceId: string;
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'variant_id', nullable: true }) variantId: string | null;
  @Column('uuid', { name: 'location_id' }) locationId: string;
  @Column('text') type: string;
  @Column('integer') quantity: number;
  @MoneyColumn({ name: 'unit_cost' }) unitCost: Decimal;
  @MoneyColumn() value: Decimal;
  @Column('text', { name: 'source_type', nullable: true }) sourceType: string | null;
  @Column('uuid', { name: 'source_id', nullable: true }) sourceId: string | null;
  @Column('uuid', { name: 'order_id', nullable: true }) orderId: string | null;
  @Column('uuid', { name: 'order_item_id', nullable: true }) orderItemId: string | null;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('jsonb', { name: 'serial_numbers' }) serialNumbers: string[];
  @Column('uuid', { name: 'journal_entry_id', nullable: true }) journalEntryId: string | null;
  @Column('timestamptz', { name: 'occurred_at' }) occurredAt: Date;
}

@Entity('stock_commitments')
export class StockCommitmentRecord extends TenantRecord {
  @Column('text') kind: 'allocated' | 'on_order';
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('uuid', { name: 'order_item_id' }) orderItemId: string;
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'location_id', nullable: true }) locationId: string | null;
  /** The line's ordered quantity. */
  @Column('integer') quantity: number;
  /** What is still committed (counted in the balance's allocated or on_order). */
  @Column('integer', { name: 'open_quantity' }) openQuantity: number;
  /** Shipped (allocated) or received (on_order) so far. */
  @Column('integer', { name: 'done_quantity' }) doneQuantity: number;
}

@Entity('serial_numbers')
export class SerialNumberRecord extends TenantRecord {
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'variant_id', nullable: true }) variantId: string | null;
  @Column('text', { name: 'serial_number' }) serialNumber: string;
  @Column('text') status: string;
  @Column('uuid', { name: 'location_id', nullable: true }) locationId: string | null;
  @Column('uuid', { name: 'order_id', nullable: true }) orderId: string | null;
  @Column('uuid', { name: 'order_item_id', nullable: true }) orderItemId: string | null;
  @Column('text', { name: 'lot_number', nullable: true }) lotNumber: string | null;
  @Column('date', { name: 'expiry_date', nullable: true }) expiryDate: string | null;
  @Column('date', { name: 'warranty_start_date', nullable: true }) warrantyStartDate: string | null;
  @Column('date', { name: 'warranty_end_date', nullable: true }) warrantyEndDate: string | null;
  @Column('date', { name: 'extended_warranty_end_date', nullable: true }) extendedWarrantyEndDate:
    string | null;
  @Column('text', { name: 'warranty_status', nullable: true }) warrantyStatus: string | null;
  @Column('timestamptz', { name: 'received_at', nullable: true }) receivedAt: Date | null;
  @Column('timestamptz', { name: 'sold_at', nullable: true }) soldAt: Date | null;
  @Column('timestamptz', { name: 'returned_at', nullable: true }) returnedAt: Date | null;
  @Column('timestamptz', { name: 'last_scanned_at', nullable: true }) lastScannedAt: Date | null;
}

export const INVENTORY_RECORDS = [
  InventorySettingsRecord,
  InventoryBalanceRecord,
  InventoryTransactionRecord,
  StockCommitmentRecord,
  SerialNumberRecord,
];
