import Decimal from 'decimal.js';
import { DemandBasis } from './demand';
import { coverThrough, netSuggestedQty, reorderPoint } from './reorder';

/** The purchase terms a row is planned with (the chosen product vendor), or none. */
export interface VendorTerms {
  productVendorId: string;
  vendorAccountId: string;
  leadTimeDays: number;
  minOrderQuantity: number;
  orderMultiple: number;
}

export interface ReorderRowInput {
  balance: {
    onHand: number;
    allocated: number;
    onOrder: number;
    reorderPoint: number | null;
    safetyStock: number | null;
  };
  dailyDemand: Decimal;
  demandBasis: DemandBasis;
  vendor: VendorTerms | null;
  businessDay: string;
}

export interface ReorderPlan {
  dailyDemand: Decimal;
  demandBasis: DemandBasis;
  available: number;
  reorderPoint: number;
  reorderPointSource: 'manual' | 'computed';
  leadTimeDays: number;
  safetyStock: number;
  coverThrough: string | null;
  netSuggestedQty: number;
  belowReorderPoint: boolean;
}

/**
 * One row of the reorder report: the reorder point (manual, or lead time × daily demand +
 * safety stock), how long the available stock lasts, and what to order. Without a vendor the
 * lead time is 0 and orders are in single units.
 */
export function planReorder(input: ReorderRowInput): ReorderPlan {
  const { balance, vendor } = input;
  const available = balance.onHand - balance.allocated;
  const leadTimeDays = vendor?.leadTimeDays ?? 0;
  const safetyStock = balance.safetyStock ?? 0;
  const rp = reorderPoint({
    manual: balance.reorderPoint,
    leadTimeDays,
    dailyDemand: input.dailyDemand,
    safetyStock,
  });
  return {
    dailyDemand: input.dailyDemand,
    demandBasis: input.demandBasis,
    available,
    reorderPoint: rp.value,
    reorderPointSource: rp.source,
    leadTimeDays,
    safetyStock,
    coverThrough: coverThrough(available, input.dailyDemand, input.businessDay),
    netSuggestedQty: netSuggestedQty({
      available,
      onOrder: balance.onOrder,
      reorderPoint: rp.value,
      dailyDemand: input.dailyDemand,
      leadTimeDays,
      minOrderQuantity: vendor?.minOrderQuantity ?? 0,
      orderMultiple: vendor?.orderMultiple ?? 1,
    }),
    // The gate for stock events, applied to the reorder point in force.
    belowReorderPoint: balance.onHand <= rp.value,
  };
}
