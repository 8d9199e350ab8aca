import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';
import type { LabelDrawing } from '../domain/label';
import type { PackageStatus } from '../domain/package';
import type { AuthorizedLine, ReturnStatus } from '../domain/return-authorization';

@Entity({ name: 'fulfillment_settings' })
export class FulfillmentSettingsRecord extends TenantRecord {
  @Column('bigint', { name: 'last_package_number', transformer: { to: (v: number) => v, from: Number } })
  lastPackageNumber: number;
  @Column('text', { name: 'package_number_prefix' }) packageNumberPrefix: string;
  @MoneyColumn({ name: 'insurance_threshold', nullable: true }) insuranceThreshold: Decimal | null;
}

/** Who overrode the revision gate for a package, and how. */
export interface RevisionOverride {
  via: 'skip_revision_ack' | 'override_query';
  api_key_id: string;
  overridden_at: string;
  order_revised_at: string | null;
}

@Entity({ name: 'packages' })
export class PackageRecord extends TenantRecord {
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('text', { name: 'package_number' }) packageNumber: string;
  @Column('text') status: PackageStatus;
  @Column('uuid', { name: 'box_product_id', nullable: true }) boxProductId: string | null;
  @MoneyColumn({ name: 'weight_lb', nullable: true }) weightLb: Decimal | null;
  @MoneyColumn({ name: 'length_in', nullable: true }) lengthIn: Decimal | null;
  @MoneyColumn({ name: 'width_in', nullable: true }) widthIn: Decimal | null;
  @MoneyColumn({ name: 'height_in', nullable: true }) heightIn: Decimal | null;
  @Column('text', { nullable: true }) carrier: string | null;
  @Column('text', { name: 'service_level', nullable: true }) serviceLevel: string | null;
  @Column('text', { name: 'tracking_number', nullable: true }) trackingNumber: string | null;
  @Column('text', { name: 'tracking_url', nullable: true }) trackingUrl: string | null;
  @MoneyColumn({ name: 'ship_cost', nullable: true }) shipCost: Decimal | null;
  @MoneyColumn({ name: 'billed_ship_cost', nullable: true }) billedShipCost: Decimal | null;
  @Column('uuid', { name: 'location_id', nullable: true }) locationId: string | null;
  @MoneyColumn({ name: 'insurance_amount_override', nullable: true }) insuranceAmountOverride: Decimal | null;
  @MoneyColumn({ name: 'insured_amount', nullable: true }) insuredAmount: Decimal | null;
  @MoneyColumn({ name: 'insurance_fee', nullable: true }) insuranceFee: Decimal | null;
  @Column('text', { nullable: true }) notes: string | null;
  @Column('jsonb') metadata: Record<string, string>;
  @Column('jsonb', { name: 'revision_override', nullable: true }) revisionOverride: RevisionOverride | null;
  @MoneyColumn({ name: 'cost_of_goods', nullable: true }) costOfGoods: Decimal | null;
  @Column('timestamptz', { name: 'shipped_at', nullable: true }) shippedAt: Date | null;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt: Date | null;
  @Column('timestamptz', { name: 'voided_at', nullable: true }) voidedAt: Date | null;
  @Column('timestamptz', { name: 'returned_at', nullable: true }) returnedAt: Date | null;
}

@Entity({ name: 'package_items' })
export class PackageItemRecord extends TenantRecord {
  @Column('uuid', { name: 'package_id' }) packageId: string;
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('uuid', { name: 'order_item_id' }) orderItemId: string;
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('integer') quantity: number;
  @Column('jsonb', { name: 'serial_numbers' }) serialNumbers: string[];
  @MoneyColumn({ name: 'unit_price' }) unitPrice: Decimal;
  @MoneyColumn({ name: 'unit_cost', nullable: true }) unitCost: Decimal | null;
  @Column('integer', { name: 'returned_quantity' }) returnedQuantity: number;
  @Column('jsonb', { name: 'returned_serials' }) returnedSerials: string[];
  @Column('integer') position: number;
}

@Entity({ name: 'shipping_rates' })
export class ShippingRateRecord extends TenantRecord {
  @Column('text', { name: 'rate_object_id' }) rateObjectId: string;
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('uuid', { name: 'package_id' }) packageId: string;
  @Column('text') provider: string;
  @Column('text', { name: 'provider_shipment_id', nullable: true }) providerShipmentId: string | null;
  @Column('text', { name: 'provider_rate_id', nullable: true }) providerRateId: string | null;
  @Column('text') carrier: string;
  @Column('text', { name: 'service_level' }) serviceLevel: string;
  @MoneyColumn() amount: Decimal;
  @Column('char', { length: 3 }) currency: string;
  @Column('integer', { name: 'estimated_days', nullable: true }) estimatedDays: number | null;
  @MoneyColumn({ name: 'insurance_fee' }) insuranceFee: Decimal;
  @MoneyColumn({ name: 'insured_amount', nullable: true }) insuredAmount: Decimal | null;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
}

@Entity({ name: 'package_labels' })
export class PackageLabelRecord extends TenantRecord {
  @Column('uuid', { name: 'package_id' }) packageId: string;
  @Column('text') provider: string;
  @Column('text', { name: 'provider_shipment_id', nullable: true }) providerShipmentId: string | null;
  @Column('text', { name: 'rate_object_id' }) rateObjectId: string;
  @Column('text') carrier: string;
  @Column('text', { name: 'service_level' }) serviceLevel: string;
  @Column('text', { name: 'tracking_number' }) trackingNumber: string;
  @Column('text', { name: 'file_type' }) fileType: 'PDF' | 'PNG' | 'ZPLII';
  @Column('text', { name: 'content_type' }) contentType: string;
  /** The provider's file; null for a label drawn from `drawing` when served. */
  @Column('bytea', { select: false, nullable: true }) content: Buffer | null;
  @Column('jsonb', { nullable: true }) drawing: LabelDrawing | null;
  @MoneyColumn() amount: Decimal;
  @MoneyColumn({ name: 'insured_amount', nullable: true }) insuredAmount: Decimal | null;
  @MoneyColumn({ name: 'insurance_fee', nullable: true }) insuranceFee: Decimal | null;
  @Column('text', { name: 'refund_status', nullable: true }) refundStatus: 'refunded' | 'rejected' | null;
}

@Entity({ name: 'shipment_notifications' })
export class ShipmentNotificationRecord extends TenantRecord {
  @Column('uuid', { name: 'package_id' }) packageId: string;
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('text') channel: string;
  @Column('text', { nullable: true }) recipient: string | null;
  @Column('text') subject: string;
  @Column('text') body: string;
  @Column('text') status: 'queued' | 'sent';
  @Column('timestamptz', { name: 'sent_at', nullable: true }) sentAt: Date | null;
}

export interface ReturnReceiptLine {
  package_item_id: string;
  order_item_id: string;
  product_id: string;
  quantity: number;
  unit_cost: string;
  serial_numbers: string[];
  disposition: 'available' | 'damaged' | 'quarantined';
}

@Entity({ name: 'return_receipts' })
export class ReturnReceiptRecord extends TenantRecord {
  @Column('uuid', { name: 'return_order_id' }) returnOrderId: string;
  @Column('uuid', { name: 'package_id' }) packageId: string;
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('uuid', { name: 'location_id' }) locationId: string;
  @Column('jsonb') lines: ReturnReceiptLine[];
  @MoneyColumn({ name: 'total_value' }) totalValue: Decimal;
  @MoneyColumn({ name: 'revenue_reversed' }) revenueReversed: Decimal;
}

/**
 * A refund of a return: a credit memo on the invoice that first reduces its amount due
 * (`amount_due_reduced`), the rest back through the payments or as a credit on the customer's
 * account. Entries written before `amount_due_reduced` existed lack it (nothing was reduced).
 */
export interface ReturnRefundEntry {
  id: string;
  amount: string;
  method: 'original_payment' | 'customer_credit';
  invoice_id: string;
  refund_ids: string[];
  amount_due_reduced?: string;
  credit_transaction_id?: string | null;
  created_at: string;
}

/**
 * A refund of a return reserved and waiting for the payment processor's answers: the credit
 * memo to post once its payment refunds (`refund_ids`, pending) are made. Money as strings.
 */
export interface PendingReturnRefund {
  id: string;
  invoice_id: string;
  amount: string;
  net: string;
  tax: string;
  method: 'original_payment' | 'customer_credit';
  creditable: { order_line_id: string; units: string }[];
  earlier_allowance: string;
  amount_due_reduced: string;
  paid_back: string;
  refund_ids: string[];
  created_at: string;
}

/**
 * A return authorisation: the shipped units of one sales order that may come back, why, and
 * what came back and was refunded. Its id is the id of its return document (an order of
 * document_type `return`), which carries its lines' prices.
 */
@Entity({ name: 'return_authorizations' })
export class ReturnAuthorizationRecord extends TenantRecord {
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('char', { length: 3 }) currency: string;
  @Column('text') status: ReturnStatus;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('jsonb') lines: AuthorizedLine[];
  @MoneyColumn({ name: 'received_net' }) receivedNet: Decimal;
  @MoneyColumn({ name: 'received_tax' }) receivedTax: Decimal;
  @MoneyColumn({ name: 'amount_refunded' }) amountRefunded: Decimal;
  @Column('jsonb') refunds: ReturnRefundEntry[];
  @Column('jsonb', { name: 'pending_refund', nullable: true }) pendingRefund: PendingReturnRefund | null;
  @Column('timestamptz', { name: 'received_at', nullable: true }) receivedAt: Date | null;
  @Column('timestamptz', { name: 'refunded_at', nullable: true }) refundedAt: Date | null;
  @Column('timestamptz', { name: 'cancelled_at', nullable: true }) cancelledAt: Date | null;
}

export const FULFILLMENT_RECORDS = [
  ReturnAuthorizationRecord,
  FulfillmentSettingsRecord,
  PackageRecord,
  PackageItemRecord,
  ShippingRateRecord,
  PackageLabelRecord,
  ShipmentNotificationRecord,
  ReturnReceiptRecord,
];
