import { Injectable } from '@nestjs/common';
import { AccountingSettingsService } from '#contexts/accounting';
import { OrderLineFactsService } from '#contexts/sales';
import { DemandBasis, demandBasis } from '../domain/demand';
import { DemandWindow, RunRates, runRates, WindowSums } from '../domain/run-rates';
import { DemandAggregateRepository } from '../infrastructure/demand-aggregate.repository';
import { LineShipmentRepository } from '../infrastructure/line-shipment.repository';

/** What a balance shows about demand. */
export interface BalanceDemand extends RunRates {
  current_demand_units: number;
  demand_avg_per_day: RunRates['blended_daily'];
  demand_basis: DemandBasis;
}

/** Demand read from the per-day aggregates: run rates, blend, basis, committed unshipped units. */
@Injectable()
export class DemandService {
  constructor(
    private readonly aggregates: DemandAggregateRepository,
    private readonly shipments: LineShipmentRepository,
    private readonly orderLines: OrderLineFactsService,
    private readonly settings: AccountingSettingsService,
  ) {}

  /** The entity's current business day (the day every trailing window ends on). */
  businessDay(): Promise<string> {
    return this.settings.currentBusinessDay();
  }

  /** Window sums for (product, location) pairs (null location: all locations). */
  async windowSums(
    pairs: readonly { productId: string; locationId: string | null }[],
    businessDay?: string,
  ): Promise<WindowSums[]> {
    return this.aggregates.windowSums(pairs, businessDay ?? (await this.businessDay()));
  }

  /**
   * Run rates of products over all their locations, by product id: one read for any number of
   * products (and one of the business day, unless the caller knows it).
   */
  async productRatesMany(
    productIds: readonly string[],
    businessDay?: string,
  ): Promise<Map<string, RunRates>> {
    const ids = [...new Set(productIds)];
    if (ids.length === 0) return new Map();
    const sums = await this.windowSums(
      ids.map((productId) => ({ productId, locationId: null })),
      businessDay,
    );
    return new Map(ids.map((id, i) => [id, runRates(sums[i])]));
  }

  /**
   * Committed, unshipped customer demand per product: open lines of confirmed sales orders
   * (kit components' own lines instead of the kit line carrying them) minus what shipped.
   */
  async currentDemandUnits(productIds: readonly string[]): Promise<Map<string, number>> {
    const lines = await this.orderLines.committedLines(productIds);
    const shipped = await this.shipments.shippedOf(lines.map((l) => l.lineId));
    const result = new Map<string, number>(productIds.map((id) => [id, 0]));
    for (const line of lines) {
      if (!line.productId) continue;
      const open = Math.max(0, line.quantity - (shipped.get(line.lineId) ?? 0));
      result.set(line.productId, (result.get(line.productId) ?? 0) + open);
    }
    return result;
  }

  /** Everything GET /inventory/balances/{id} shows about demand for one product at one location. */
  async balanceDemand(productId: string, locationId: string): Promise<BalanceDemand> {
    const [sums] = await this.windowSums([{ productId, locationId }]);
    const current = await this.currentDemandUnits([productId]);
    const rates = runRates(sums);
    return {
      ...rates,
      demand_avg_per_day: rates.blended_daily,
      demand_basis: demandBasis(sums[90]),
      current_demand_units: current.get(productId) ?? 0,
    };
  }

  /** demand_avg_per_day of (product, location) pairs, in order: one read for any number of pairs. */
  async demandAveragesOf(
    pairs: readonly { productId: string; locationId: string }[],
  ): Promise<RunRates['blended_daily'][]> {
    if (pairs.length === 0) return [];
    const sums = await this.windowSums(pairs);
    return sums.map((s) => runRates(s).blended_daily);
  }

  basisOf(sums: WindowSums, window: DemandWindow): DemandBasis {
    return demandBasis(sums[window]);
  }
}
