import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';

/** The recognition counters of one sales-order line (its id is the line's id). */
@Entity({ name: 'order_line_revenue' })
export class OrderLineRevenueRecord extends TenantRecord {
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @MoneyColumn() shipped: Decimal;
  @MoneyColumn() billed: Decimal;
}

/** What one document (package, return receipt, invoice, import) moved on one order line. */
@Entity({ name: 'revenue_recognitions' })
export class RevenueRecognitionRecord extends TenantRecord {
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('uuid', { name: 'order_line_id' }) orderLineId: string;
  @Column('uuid', { name: 'document_id' }) documentId: string;
  @MoneyColumn() shipped: Decimal;
  @MoneyColumn() billed: Decimal;
  /** Revenue and tax recognised (negative: reversed). */
  @MoneyColumn() net: Decimal;
  @MoneyColumn() tax: Decimal;
}
