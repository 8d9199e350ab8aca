/** The replenishment context's public surface: the only file other contexts and apps import. */
export { ReplenishmentCoreModule } from './replenishment-core.module';
export { ReplenishmentHttpModule } from './replenishment-http.module';
export { ReplenishmentWorkerModule } from './replenishment-worker.module';
export { ProductVendorsService } from './application/product-vendors.service';
export { KitComponentsService } from './application/kit-components.service';
export { DemandService } from './application/demand.service';
export type { BalanceDemand } from './application/demand.service';
export { DemandRecorderService } from './application/demand-recorder.service';
export { DemandAverageRefresher } from './application/demand-average-refresher.service';
export { BuildsService } from './application/builds.service';
export { ReorderReportService } from './application/reorder-report.service';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export type { LedgerMovement } from './application/ledger-movement';
export { DemandAggregateRepository } from './infrastructure/demand-aggregate.repository';
