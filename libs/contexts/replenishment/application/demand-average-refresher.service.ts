import { Injectable } from '@nestjs/common';
import { ProductsService } from '#contexts/catalog';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { DemandRefreshMarkRepository } from '../infrastructure/demand-refresh-mark.repository';
import { DemandService } from './demand.service';

/** Marks taken per statement: a refresh of more products loops within its transaction. */
const MARKS_PER_TAKE = 1000;

/**
 * Keeps each product's stored `demand_avg_per_day` (the blend over every location) behind its
 * demand by at most about DEMAND_REFRESH_DELAY_MS. A stock movement that adds demand marks its
 * products in its own transaction and, once it committed, asks for a refresh (DemandRefreshRequests).
 * The refresh, run by the dispatcher (ReplenishmentWorkerModule), takes the marks and writes the
 * products' new averages, per entity and mode in one transaction, with one `product.updated` per
 * product whose value changed. Marks survive a lost job or a stopped process: the dispatcher
 * also refreshes what is marked every DEMAND_REFRESH_SWEEP_MS, and refreshes running at once
 * never take the same mark.
 */
@Injectable()
export class DemandAverageRefresher {
  constructor(
    private readonly marks: DemandRefreshMarkRepository,
    private readonly demand: DemandService,
    private readonly products: ProductsService,
    private readonly tx: TransactionHost,
  ) {}

  /**
   * Refreshes every marked product now, waiting for refreshes elsewhere that hold marks (so what
   * committed before this call shows once it resolves); answers how many products were
   * refreshed here.
   */
  settle(): Promise<number> {
    return this.refreshAllMarked(true);
  }

  /**
   * In the open transaction (or one of its own), for the caller's entity and mode: takes the
   * marks and records the marked products' averages; answers how many products it refreshed.
   * `wait`: wait for marks another refresh holds instead of leaving them to it.
   */
  refreshMarked(wait = false): Promise<number> {
    return this.tx.run(async () => {
      let refreshed = 0;
      for (;;) {
        const { productIds, taken } = await this.marks.take(MARKS_PER_TAKE, wait);
        if (productIds.length > 0) {
          // The rates are read behind the products' lock, so they include every movement that
          // committed before a concurrent refresh of the same products wrote its values.
          await this.products.recordDemandAverages(productIds, () =>
            this.demand
              .productRatesMany(productIds)
              .then((rates) => new Map(productIds.map((id) => [id, rates.get(id)!.blended_daily]))),
          );
          refreshed += productIds.length;
        }
        if (taken < MARKS_PER_TAKE) return refreshed;
      }
    });
  }

  /**
   * Every entity and mode with marks, each in its own transaction (request id `demand_refresh`);
   * one failing stops none, and the first failure is thrown once all ran. Answers how many
   * products were refreshed. `wait` as for refreshMarked().
   */
  async refreshAllMarked(wait = false): Promise<number> {
    let refreshed = 0;
    const failures: unknown[] = [];
    for (const scope of await this.marks.markedScopes()) {
      try {
        refreshed += await RequestContext.runAsSystem(
          { entityId: scope.entityId, livemode: scope.livemode },
          () => this.refreshMarked(wait),
          'demand_refresh',
        );
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
    return refreshed;
  }
}
