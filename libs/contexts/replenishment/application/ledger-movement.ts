/**
 * The fields of a stock-ledger row (inventory's StockMovement) that demand needs. Declared here
 * so the demand recorder depends on the shape, not on inventory's internals; inventory's
 * StockMovement satisfies it.
 */
export interface LedgerMovement {
  productId: string;
  locationId: string;
  type: string;
  quantity: number;
  sourceType: string | null;
  sourceId: string | null;
  orderId: string | null;
  orderItemId: string | null;
  occurredAt: Date;
}
