import { Injectable } from '@nestjs/common';
import type { ReorderPointComputer } from '#contexts/inventory';
import { totalDemand } from '../domain/demand';
import { reorderPoint } from '../domain/reorder';
import { DEFAULT_DEMAND_WINDOW, rate } from '../domain/run-rates';
import { ProductVendorRepository } from '../infrastructure/product-vendor.repository';
import { DemandService } from './demand.service';

/** The computed reorder point inventory's stock-event gate uses for balances without their own. */
@Injectable()
export class ReorderPlanningService {
  constructor(
    private readonly vendors: ProductVendorRepository,
    private readonly demand: DemandService,
  ) {}

  /**
   * The reorder-point source for balances of `productIds` (ReorderPointSource): the vendors'
   * read, started at once; answers the computation of the balances' points, ceil(lead time ×
   * daily demand over the default window) + safety stock for a product with a preferred vendor,
   * null without one (nothing is planned for it, so no gate is invented); the demand is read only
   * for the products with a vendor.
   */
  async reorderPointsOf(productIds: readonly string[]): Promise<ReorderPointComputer> {
    const vendors = await this.vendors.forProducts(productIds);
    return async (balances) => {
      const planned = balances.filter((b) => vendors.has(b.productId));
      if (planned.length === 0) return balances.map(() => null);
      const sums = await this.demand.windowSums(
        planned.map((b) => ({ productId: b.productId, locationId: b.locationId })),
      );
      const points = new Map(
        planned.map((b, i) => [
          b,
          reorderPoint({
            manual: null,
            leadTimeDays: vendors.get(b.productId)!.leadTimeDays,
            dailyDemand: rate(totalDemand(sums[i][DEFAULT_DEMAND_WINDOW]), DEFAULT_DEMAND_WINDOW),
            safetyStock: b.safetyStock ?? 0,
          }).value,
        ]),
      );
      return balances.map((b) => points.get(b) ?? null);
    };
  }
}
