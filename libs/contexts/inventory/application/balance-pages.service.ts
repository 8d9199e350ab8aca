import { Injectable } from '@nestjs/common';
import { BalanceRepository } from '../infrastructure/balance.repository';
import { InventoryBalanceRecord } from '../infrastructure/inventory.entities';

/** A balance's stock and planning fields, in whole units. */
export interface BalanceFacts {
  id: string;
  productId: string;
  variantId: string | null;
  locationId: string;
  onHand: number;
  allocated: number;
  onOrder: number;
  reorderPoint: number | null;
  safetyStock: number | null;
}

const toFacts = (b: InventoryBalanceRecord): BalanceFacts => ({
  id: b.id,
  productId: b.productId,
  variantId: b.variantId,
  locationId: b.locationId,
  onHand: b.onHand,
  allocated: b.allocated,
  onOrder: b.onOrder,
  reorderPoint: b.reorderPoint,
  safetyStock: b.safetyStock,
});

/** Keyset pages of balances for planning (replenishment's reorder report), newest first. */
@Injectable()
export class BalancePagesService {
  constructor(private readonly balances: BalanceRepository) {}

  async page(request: {
    locationId?: string;
    productIds?: readonly string[];
    startingAfter?: string;
    endingBefore?: string;
    limit: number;
  }): Promise<{ rows: BalanceFacts[]; has_more: boolean }> {
    if (request.productIds && request.productIds.length === 0) return { rows: [], has_more: false };
    const page = await this.balances.planningPage(request);
    return { rows: page.rows.map(toFacts), has_more: page.has_more };
  }

  /** One balance's facts, or null when it does not exist for this entity and mode. */
  async find(id: string): Promise<BalanceFacts | null> {
    const found = await this.balances.findById(id);
    return found ? toFacts(found) : null;
  }
}
