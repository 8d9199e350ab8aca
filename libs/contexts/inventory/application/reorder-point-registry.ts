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
export type ReorderPointComputer = (balances: readonly ReorderPointSubject[]) => Promise<(number | null)[]>;

/**
 * A source of computed reorder points in two steps: given the products, it starts the reads that
 * need nothing more (so they can leave with the statement locking the balances) and answers the
 * computer of the balances' points once those reads are in.
 */
export type ReorderPointSource = (productIds: readonly string[]) => Promise<ReorderPointComputer>;

/** The reorder points of balances of products named in advance (ReorderPointRegistry.prepare). */
export interface PreparedReorderPoints {
  effectiveMany(
    balances: readonly (ReorderPointSubject & { reorderPoint: number | null })[],
  ): Promise<(number | null)[]>;
}

/**
 * The reorder point in force for the stock-event gate (`on_hand <= reorder_point`): the
 * balance's own when set, otherwise the first one a registered source computes (replenishment:
 * lead time × daily demand + safety stock for products with a preferred vendor).
 */
@Injectable()
export class ReorderPointRegistry {
  private readonly sources: ReorderPointSource[] = [];

  register(source: ReorderPointSource): void {
    this.sources.push(source);
  }

  /**
   * Starts every source's reads for balances of `productIds` at once (call it in the same turn
   * as the statement locking the balances: they share its round trip). A failed read is thrown
   * by effectiveMany, and only if it is called.
   */
  prepare(productIds: readonly string[]): PreparedReorderPoints {
    const ids = [...new Set(productIds)];
    const started = this.sources.map((source) => source(ids));
    for (const computer of started) computer.catch(() => undefined);
    return {
      effectiveMany: async (balances) => {
        const points = balances.map((b) => b.reorderPoint);
        for (const computer of started) {
          const open = balances.flatMap((b, i) => (points[i] === null ? [i] : []));
          if (open.length === 0) break;
          const computed = await (await computer)(open.map((i) => balances[i]));
          open.forEach((i, k) => (points[i] = computed[k] ?? null));
        }
        return points;
      },
    };
  }

  async effective(balance: ReorderPointSubject & { reorderPoint: number | null }): Promise<number | null> {
    return (await this.effectiveMany([balance]))[0];
  }

  /** The reorder points of `balances`, in order; each source is asked once for those still without one. */
  async effectiveMany(
    balances: readonly (ReorderPointSubject & { reorderPoint: number | null })[],
  ): Promise<(number | null)[]> {
    if (balances.every((b) => b.reorderPoint !== null)) return balances.map((b) => b.reorderPoint);
    return this.prepare(balances.map((b) => b.productId)).effectiveMany(balances);
  }
}
