/** The inventory context's public surface: the only file other contexts and apps import. */
export { InventoryCoreModule } from './inventory-core.module';
export { InventoryHttpModule } from './inventory-http.module';
export { LOCATIONS_SERVICE } from './application/locations';
export { StockService } from './application/stock.service';
export { StockMovementObserverRegistry } from './application/stock-movement-observer-registry';
export { BalancesService } from './application/balances.service';
export { BalanceExtensionRegistry } from './application/balance-extension-registry';
export type { BalanceExtension } from './application/balance-extension-registry';
export { BalancePagesService } from './application/balance-pages.service';
export { StockHistoryService } from './application/stock-history.service';
export { AdjustmentsService } from './application/adjustments.service';
export { ReorderPointRegistry } from './application/reorder-point-registry';
export type {
  ReorderPointComputer,
  ReorderPointSource,
  ReorderPointSubject,
} from './application/reorder-point-registry';
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
export { StockMovementBatches } from './infrastructure/stock-movement-batches';
export { TransfersService } from './application/transfers.service';
