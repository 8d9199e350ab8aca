import { Injectable } from '@nestjs/common';

/** A balance as a reorder-point source sees it. */
export interface ReorderPointSubject {
  productId: string;
  variantId: string | null;
  locationId: string;
  safetyStock: number | null;
}

/** A computed reorder point for a balance without its own, or null when the source has none. */
export type ReorderPointSource = (balance: ReorderPointSubject) => Promise<number | null>;

/**
 * The reorder point in force for SPEC.md's stock-event gate (`on_hand <= reorder_point`): the
 * balance's own when set, otherwise the first one a registered source computes (replenishment:
 * lead time × daily demand + safety stock for products with a preferred vendor).
 */
@Injectable()
export class ReorderPointSources {
  private readonly sources: ReorderPointSource[] = [];

  register(source: ReorderPointSource): void {
    this.sources.push(source);
  }

  async effective(balance: ReorderPointSubject & { reorderPoint: number | null }): Promise<number | null> {
    if (balance.reorderPoint !== null) return balance.reorderPoint;
    for (const source of this.sources) {
      const computed = await source(balance);
      if (computed !== null) return computed;
    }
    return null;
  }
}
