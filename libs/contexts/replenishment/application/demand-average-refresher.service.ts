import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ProductsService } from '#contexts/catalog';
import { AppConfig } from '#platform/config/app-config';
import { TransactionHost, WriteStatement } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { DemandRefreshMarkRepository } from '../infrastructure/demand-refresh-mark.repository';
import { RerunningTask } from '#platform/queue/rerunning-task';
import { DemandService } from './demand.service';

/** Marks taken per statement: a refresh of more products loops within its transaction. */
const MARKS_PER_TAKE = 1000;

/**
 * Keeps each product's stored `demand_avg_per_day` (the blend over every location) behind its
 * demand by at most about DEMAND_REFRESH_DELAY_MS. A stock movement that adds demand marks its
 * products in its own transaction and wakes this refresher once it committed; the refresher
 * waits the delay (so the movements of that time share one refresh), then, per entity and mode,
 * takes the marks and writes the products' new averages in one transaction, with one
 * `product.updated` per product whose value changed. Marks survive a lost wake-up or a restart:
 * every process with this module refreshes what is marked at start-up and every
 * DEMAND_REFRESH_SWEEP_MS, and refreshers of several processes never take the same mark.
 */
@Injectable()
export class DemandAverageRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DemandAverageRefresher.name);
  private timer: NodeJS.Timeout | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private readonly rounds = new RerunningTask(
    () => this.refreshAll(false),
    (error) => this.logger.error(`demand average refresh failed: ${String(error)}`),
  );
  private stopped = false;

  constructor(
    private readonly marks: DemandRefreshMarkRepository,
    private readonly demand: DemandService,
    private readonly products: ProductsService,
    private readonly tx: TransactionHost,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeper = RequestContext.outsideRequest(() =>
      setInterval(() => this.rounds.start(), this.config.DEMAND_REFRESH_SWEEP_MS),
    );
    this.sweeper.unref();
    this.rounds.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweeper) clearInterval(this.sweeper);
    this.timer = this.sweeper = null;
    await this.rounds.stop();
  }

  /**
   * Marks `productIds` of the caller's entity and mode in the open transaction (the statement,
   * for the caller to send) and wakes the refresher once that transaction committed.
   */
  markStatement(productIds: readonly string[]): WriteStatement | null {
    const statement = this.marks.markStatement(productIds);
    if (statement) this.tx.afterCommit(() => this.wake());
    return statement;
  }

  /** Refreshes in DEMAND_REFRESH_DELAY_MS, unless a refresh is already due. */
  wake(): void {
    if (this.stopped || this.timer) return;
    this.timer = RequestContext.outsideRequest(() =>
      setTimeout(() => {
        this.timer = null;
        this.rounds.start();
      }, this.config.DEMAND_REFRESH_DELAY_MS),
    );
    this.timer.unref();
  }

  /**
   * Refreshes every marked product now, waiting for refreshes of other processes that hold marks
   * (so what committed before this call shows once it resolves); answers how many products were
   * refreshed here.
   */
  async settle(): Promise<number> {
    await this.rounds.idle();
    return this.refreshAll(true);
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

  /** Every entity and mode with marks, each in its own transaction; one failing stops none. */
  private async refreshAll(wait: boolean): Promise<number> {
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
