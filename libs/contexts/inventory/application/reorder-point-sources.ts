import { Injectable } from '@nestjs/common';

/** A balance as a reorder-point source sees it. */
export interface ReorderPointSubject {
  productId: string;
  variantId: string | null;
  locationId: string;
  safetyStock: number | null;
}

/**
 * Computed reorder points for balances without their own, in order (null where the source has
 * none): one call for all the balances a movement or a batch of movements touches.
 */
export type ReorderPointSource = (balances: readonly ReorderPointSubject[]) => Promise<(number | null)[]>;

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
    return (await this.effectiveMany([balance]))[0];
  }

  /** The reorder points of `balances`, in order; each source is asked once for those still without one. */
  async effectiveMany(
    balances: readonly (ReorderPointSubject & { reorderPoint: number | null })[],
  ): Promise<(number | null)[]> {
    const points = balances.map((b) => b.reorderPoint);
    for (const source of this.sources) {
      const open = balances.flatMap((b, i) => (points[i] === null ? [i] : []));
      if (open.length === 0) break;
      const computed = await source(open.map((i) => balances[i]));
      open.forEach((i, k) => (points[i] = computed[k] ?? null));
    }
    return points;
  }
}
