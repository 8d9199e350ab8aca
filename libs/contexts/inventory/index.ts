/** The inventory context's public surface: the only file other contexts and apps import. */
export { InventoryCoreModule } from './inventory-core.module';
export { InventoryHttpModule } from './inventory-http.module';
export { LOCATIONS_SERVICE } from './application/locations';
export { StockService } from './application/stock.service';
export { StockMovementObservers } from './application/stock-movement-observers';
export { BalancesService } from './application/balances.service';
export { BalanceExtensions } from './application/balance-extensions';
export type { BalanceExtension } from './application/balance-extensions';
export { BalancePagesService } from './application/balance-pages.service';
export { StockHistoryService } from './application/stock-history.service';
export { AdjustmentsService } from './application/adjustments.service';
export { ReorderPointSources } from './application/reorder-point-sources';
export type {
  ReorderPointComputer,
  ReorderPointSource,
  ReorderPointSubject,
} from './application/reorder-point-sources';
export type { BalanceFacts } from './application/balance-pages.service';
export { SerialsService } from './application/serials.service';
export { InventorySettingsService } from './application/inventory-settings.service';
export type {
  BuildLine,
  ReturnLine,
  ShipmentCost,
  ShipmentLine,
  AskedMovement,
  StockMovement,
  StockMovementObserver,
  StockMovementRecorder,
} from './application/stock-movements.types';
export { MOVEMENT_TYPES } from './domain/stock';
export * from './inventory.events';
export * from './inventory.scopes';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export { StockMovementBatches } from './application/stock-movement-batches';
