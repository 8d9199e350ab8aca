import { Module } from '@nestjs/common';
import { AdjustmentsController } from './http/adjustments.controller';
import { BalancesController } from './http/balances.controller';
import { InventorySettingsController } from './http/inventory-settings.controller';
import { LocationsController } from './http/locations.controller';
import { OrderSerialsController } from './http/order-serials.controller';
import { PurchaseOrderReceiptsController } from './http/purchase-order-receipts.controller';
import { SerialsController } from './http/serials.controller';
import { TransactionsController } from './http/transactions.controller';
import { TransfersController } from './http/transfers.controller';
import { InventoryCoreModule } from './inventory-core.module';

/** Inventory's routes. */
@Module({
  imports: [InventoryCoreModule],
  controllers: [
    LocationsController,
    BalancesController,
    TransactionsController,
    AdjustmentsController,
    TransfersController,
    SerialsController,
    OrderSerialsController,
    PurchaseOrderReceiptsController,
    InventorySettingsController,
  ],
})
export class InventoryHttpModule {}
