import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  BalanceExtensionRegistry,
  ReorderPointRegistry,
  StockMovementObserverRegistry,
} from '#contexts/inventory';
import { toJsonNumber } from '#platform/domain/money';
import { DemandRecorderService } from './demand-recorder.service';
import { DemandService } from './demand.service';
import { ReorderPlanningService } from './reorder-planning.service';

/**
 * Hooks replenishment registers with inventory at start-up: the stock-movement observer that
 * keeps the per-day demand aggregates current, and the balance extensions that add demand
 * figures to GET /inventory/balances/{id} (all of them) and to GET /inventory/balances
 * (demand_avg_per_day, read for the whole page at once).
 */
@Injectable()
export class ReplenishmentRegistrar implements OnModuleInit {
  constructor(
    private readonly observers: StockMovementObserverRegistry,
    private readonly extensions: BalanceExtensionRegistry,
    private readonly recorder: DemandRecorderService,
    private readonly demand: DemandService,
    private readonly reorderPoints: ReorderPointRegistry,
    private readonly planning: ReorderPlanningService,
  ) {}

  onModuleInit(): void {
    this.observers.register((asked) => this.recorder.prepare(asked));
    this.reorderPoints.register((productIds) => this.planning.reorderPointsOf(productIds));
    this.extensions.register(async (balance) => {
      const d = await this.demand.balanceDemand(balance.product_id, balance.location_id);
      return {
        current_demand_units: d.current_demand_units,
        run_rate_30: toJsonNumber(d.run_rate_30),
        run_rate_90: toJsonNumber(d.run_rate_90),
        run_rate_180: toJsonNumber(d.run_rate_180),
        run_rate_365: toJsonNumber(d.run_rate_365),
        blended_daily: toJsonNumber(d.blended_daily),
        demand_avg_per_day: toJsonNumber(d.demand_avg_per_day),
        demand_basis: d.demand_basis,
      };
    });
    this.extensions.registerList(async (balances) => {
      const averages = await this.demand.demandAveragesOf(
        balances.map((b) => ({ productId: b.product_id, locationId: b.location_id })),
      );
      return averages.map((average) => ({ demand_avg_per_day: toJsonNumber(average) }));
    });
  }
}
