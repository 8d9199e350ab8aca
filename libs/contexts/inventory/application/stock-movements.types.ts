/** The inventory context's public types for fulfillment and replenishment (the agreed interface). */
export interface ShipmentLine {
  orderItemId: string;
  productId: string;
  variantId?: string | null;
  locationId: string;
  /** > 0 units leaving stock. */
  quantity: number;
  /** One per unit for serial-tracked products. */
  serialNumbers?: string[];
}

export interface ShipmentCost {
  lines: { orderItemId: string; productId: string; quantity: number; unitCost: string; value: string }[];
  /** Sum of line values: what inventory's value went down by. */
  totalCost: string;
}

export interface ReturnLine {
  orderItemId?: string | null;
  productId: string;
  variantId?: string | null;
  locationId: string;
  /** > 0 units coming back. */
  quantity: number;
  /** The cost at which the units left (the caller knows it). */
  unitCost: string;
  serialNumbers?: string[];
  /** Serial status after the return; default 'available'. */
  disposition?: 'available' | 'damaged' | 'quarantined';
}

/** One product of a build: a component consumed or a product made. */
export interface BuildLine {
  productId: string;
  variantId?: string | null;
  /** > 0 units. */
  quantity: number;
  serialNumbers?: string[];
}

/** One row of the stock ledger as observers see it, in the transaction that wrote it. */
export interface StockMovement {
  transactionId: string;
  productId: string;
  variantId: string | null;
  locationId: string;
  type:
    | 'receipt'
    | 'adjustment'
    | 'transfer_out'
    | 'transfer_in'
    | 'fulfillment'
    | 'return'
    | 'build_consumption'
    | 'build_output'
    | 'cycle_count';
  /** Signed. */
  quantity: number;
  unitCost: string;
  /** Signed. */
  value: string;
  /** e.g. 'package', 'purchase_order', 'adjustment', 'build', 'return'. */
  sourceType: string | null;
  sourceId: string | null;
  /** The sales order / PO / return this movement belongs to, if any. */
  orderId: string | null;
  orderItemId: string | null;
  occurredAt: Date;
}

/** A movement as asked for, before it is valued and written: what an observer's first step sees. */
export type AskedMovement = Pick<StockMovement, 'productId' | 'locationId' | 'type' | 'quantity'> & {
  sourceType: string | null;
  sourceId: string | null;
  orderItemId?: string | null;
};

/**
 * What records a batch of ledger rows as they are written, in the writing transaction: an
 * observer's second step.
 */
export type StockMovementRecorder = (movements: StockMovement[]) => Promise<void>;

/**
 * A stock-movement observer in two steps: given the movements asked for, it starts the reads that
 * need nothing more (they leave with the statement locking the balances) and answers the recorder
 * of the rows once they are written, whose writes then leave with the ledger's.
 */
export type StockMovementObserver = (asked: readonly AskedMovement[]) => Promise<StockMovementRecorder>;
