/** The inventory context's public surface: the only file other contexts and apps import. */
export { InventoryModule } from './inventory.module';
export { InventoryHttpModule } from './inventory-http.module';
export { StockService } from './application/stock.service';
export { StockMovementObservers } from './application/stock-movement-observers';
export { BalancesService } from './application/balances.service';
export { SerialsService } from './application/serials.service';
export { InventorySettingsService } from './application/inventory-settings.service';
export { AdjustmentsService } from './application/adjustments.service';
export type {
  BuildLine,
  ReturnLine,
  ShipmentCost,
  ShipmentLine,
  StockMovement,
  StockMovementObserver,
} from './application/stock-movements.types';
