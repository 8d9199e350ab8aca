import { Injectable } from '@nestjs/common';
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
   * ceil(lead time × daily demand over the default window) + safety stock, for a product with a
   * preferred vendor; null without one (nothing is planned for it, so no gate is invented).
   */
  async computedReorderPoint(balance: {
    productId: string;
    locationId: string;
    safetyStock: number | null;
  }): Promise<number | null> {
    const vendor = (await this.vendors.forProducts([balance.productId])).get(balance.productId);
    if (!vendor) return null;
    const [sums] = await this.demand.windowSums([
      { productId: balance.productId, locationId: balance.locationId },
    ]);
    const daily = rate(totalDemand(sums[DEFAULT_DEMAND_WINDOW]), DEFAULT_DEMAND_WINDOW);
    return reorderPoint({
      manual: null,
      leadTimeDays: vendor.leadTimeDays,
      dailyDemand: daily,
      safetyStock: balance.safetyStock ?? 0,
    }).value;
  }
}
