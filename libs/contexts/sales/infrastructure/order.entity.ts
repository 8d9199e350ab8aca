import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'orders' })
export class OrderRecord extends TenantRecord {
  @Column('text', { name: 'document_type' }) documentType: string;
  @Column('uuid', { name: 'account_id', nullable: true }) accountId: string | null;
  @Column('char', { length: 3 }) currency: string;
  @Column('text', { name: 'order_status' }) orderStatus: string;
  @Column('text', { name: 'payment_status' }) paymentStatus: string;
  @MoneyColumn() subtotal: Decimal;
  @MoneyColumn({ name: 'discount_total' }) discountTotal: Decimal;
  @MoneyColumn({ name: 'tax_total' }) taxTotal: Decimal;
  @MoneyColumn() total: Decimal;
  @MoneyColumn({ name: 'amount_paid' }) amountPaid: Decimal;
  @MoneyColumn({ name: 'amount_refunded' }) amountRefunded: Decimal;
  @MoneyColumn({ name: 'amount_due' }) amountDue: Decimal;
  /** What credit memos (refunds of returns) took off what the document bills. */
  @MoneyColumn({ name: 'amount_credited' }) amountCredited: Decimal;
  @Column('uuid', { name: 'source_order_id', nullable: true }) sourceOrderId: string | null;
  @Column('uuid', { name: 'converted_to_id', nullable: true }) convertedToId: string | null;
  @Column('timestamptz', { name: 'confirmed_at', nullable: true }) confirmedAt: Date | null;
  @Column('timestamptz', { name: 'cancelled_at', nullable: true }) cancelledAt: Date | null;
  @Column('timestamptz', { name: 'voided_at', nullable: true }) voidedAt: Date | null;
  @Column('timestamptz', { name: 'fulfilled_at', nullable: true }) fulfilledAt: Date | null;
  @Column('timestamptz', { name: 'closed_at', nullable: true }) closedAt: Date | null;
  @Column('timestamptz', { name: 'sent_to_customer_at', nullable: true }) sentToCustomerAt: Date | null;
  @Column('timestamptz', { name: 'revised_at', nullable: true }) revisedAt: Date | null;
  @Column('integer', { name: 'revision_count' }) revisionCount: number;
  @Column('timestamptz', { name: 'revision_acknowledged_at', nullable: true })
  revisionAcknowledgedAt: Date | null;
  @MoneyColumn({ name: 'acknowledged_total', nullable: true }) acknowledgedTotal: Decimal | null;
  @Column('text', { nullable: true }) notes: string | null;
  @Column('jsonb') metadata: Record<string, string>;
  /** Issued invoices: the day payment is due (entity time zone), from the account's payment terms. */
  @Column('date', { name: 'due_date', nullable: true }) dueDate: string | null;
  @Column('text', { name: 'collection_status', nullable: true }) collectionStatus: string | null;
  @Column('timestamptz', { name: 'overdue_at', nullable: true }) overdueAt: Date | null;
  /** Late fees charged on this invoice so far (null: none). */
  @Column('integer', { name: 'late_fees_charged', nullable: true }) lateFeesCharged: number | null;
}

@Entity({ name: 'order_lines' })
export class OrderLineRecord extends TenantRecord {
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('integer') position: number;
  @Column('uuid', { name: 'product_id', nullable: true }) productId: string | null;
  @Column('text') description: string;
  @MoneyColumn() quantity: Decimal;
  @MoneyColumn({ name: 'list_price', nullable: true }) listPrice: Decimal | null;
  @MoneyColumn({ name: 'unit_price' }) unitPrice: Decimal;
  @Column('uuid', { name: 'pricing_policy_id', nullable: true }) pricingPolicyId: string | null;
  @MoneyColumn({ name: 'discount_percent' }) discountPercent: Decimal;
  @MoneyColumn({ name: 'discount_amount' }) discountAmount: Decimal;
  @MoneyColumn({ name: 'tax_rate' }) taxRate: Decimal;
  @MoneyColumn() subtotal: Decimal;
  @MoneyColumn({ name: 'discount_total' }) discountTotal: Decimal;
  @MoneyColumn({ name: 'tax_total' }) taxTotal: Decimal;
  @MoneyColumn() total: Decimal;
  /** A kit's component line points to the kit line (see application/kit-lines.ts). */
  @Column('uuid', { name: 'parent_line_id', nullable: true }) parentLineId?: string | null;
}

@Entity({ name: 'payments' })
export class PaymentRecord extends TenantRecord {
  @Column('uuid', { name: 'account_id', nullable: true }) accountId: string | null;
  @Column('uuid', { name: 'order_id', nullable: true }) orderId: string | null;
  @MoneyColumn() amount: Decimal;
  @MoneyColumn({ name: 'amount_refunded' }) amountRefunded: Decimal;
  @Column('char', { length: 3 }) currency: string;
  @Column('text') status: string;
  @Column('text') method: string;
  @Column('uuid', { name: 'payment_method_id', nullable: true }) paymentMethodId: string | null;
  @Column('text', { name: 'card_brand', nullable: true }) cardBrand: string | null;
  @Column('char', { name: 'card_last4', length: 4, nullable: true }) cardLast4: string | null;
  @Column('text', { name: 'processor_reference', nullable: true }) processorReference: string | null;
  @Column('text', { name: 'failure_code', nullable: true }) failureCode: string | null;
  @Column('text', { name: 'failure_message', nullable: true }) failureMessage: string | null;
  @Column('text', { nullable: true }) reference: string | null;
  @Column('jsonb') metadata: Record<string, string>;
}

@Entity({ name: 'payment_applications' })
export class PaymentApplicationRecord extends TenantRecord {
  @Column('uuid', { name: 'payment_id' }) paymentId: string;
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @MoneyColumn() amount: Decimal;
}

@Entity({ name: 'refunds' })
export class RefundRecord extends TenantRecord {
  @Column('uuid', { name: 'payment_id' }) paymentId: string;
  @Column('uuid', { name: 'order_id', nullable: true }) orderId: string | null;
  @MoneyColumn() amount: Decimal;
  @Column('char', { length: 3 }) currency: string;
  @Column('text') status: string;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('text', { name: 'processor_reference', nullable: true }) processorReference: string | null;
  /** The return whose credit memo this payment refund belongs to (finished with that return's refund). */
  @Column('uuid', { name: 'return_id', nullable: true }) returnId: string | null;
}

/**
 * One movement of a customer account's credit balance: positive adds credit, negative spends it;
 * `endingBalance` is the account's balance after it.
 */
@Entity({ name: 'customer_credits' })
export class CustomerCreditRecord extends TenantRecord {
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @Column('text') type: string;
  @MoneyColumn() amount: Decimal;
  @Column('char', { length: 3 }) currency: string;
  @Column('uuid', { name: 'order_id', nullable: true }) orderId: string | null;
  @Column('uuid', { name: 'payment_id', nullable: true }) paymentId: string | null;
  @MoneyColumn({ name: 'ending_balance' }) endingBalance: Decimal;
  @Column('text') reference: string;
}

export const ORDER_RECORDS = [
  OrderRecord,
  OrderLineRecord,
  PaymentRecord,
  PaymentApplicationRecord,
  RefundRecord,
  CustomerCreditRecord,
];
