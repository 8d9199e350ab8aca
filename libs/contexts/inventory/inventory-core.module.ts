import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountingCoreModule } from '#contexts/accounting';
import { CatalogCoreModule } from '#contexts/catalog';
import { SalesCoreModule } from '#contexts/sales';
import { referenceListProvider } from '#platform/reference-lists/reference-list.service';
import { AdjustmentsService } from './application/adjustments.service';
import { BalanceExtensionRegistry } from './application/balance-extension-registry';
import { BalancePagesService } from './application/balance-pages.service';
import { BalancesService } from './application/balances.service';
import { StockHistoryService } from './application/stock-history.service';
import { ReorderPointRegistry } from './application/reorder-point-registry';
import { InventoryRegistrar } from './application/inventory.registrar';
import { InventoryPostings } from './application/inventory-postings.service';
import { InventorySeedContributor } from './application/inventory-seed.contributor';
import { InventorySettingsService } from './application/inventory-settings.service';
import { LocationSeedContributor } from './application/location-seed.contributor';
import { LOCATIONS, LOCATIONS_SERVICE } from './application/locations';
import { OrderCommitmentsService } from './application/order-commitments.service';
import { PurchaseOrderReceiptsService } from './application/purchase-order-receipts.service';
import { SerialAllocationsService } from './application/serial-allocations.service';
import { SerialsService } from './application/serials.service';
import { StockLedger } from './application/stock-ledger.service';
import { SharedMovementWrites } from './application/shared-movement-writes.port';
import { StockMovementBatches } from './infrastructure/stock-movement-batches';
import { StockMovementObserverRegistry } from './application/stock-movement-observer-registry';
import { StockReferences } from './application/stock-references';
import { StockService } from './application/stock.service';
import { TransactionsService } from './application/transactions.service';
import { TransfersService } from './application/transfers.service';
import { BalanceRepository } from './infrastructure/balance.repository';
import { INVENTORY_RECORDS } from './infrastructure/inventory.entities';
import { InventorySettingsRepository } from './infrastructure/inventory-settings.repository';
import { LocationRecord } from './infrastructure/location.entity';
import { InventoryTransactionRepository } from './infrastructure/inventory-transaction.repository';
import { SerialNumberRepository } from './infrastructure/serial-number.repository';
import { StockCommitmentRepository } from './infrastructure/stock-commitment.repository';
import { StockFactsCache } from './infrastructure/stock-facts.cache';
import { StockMovementWriter } from './infrastructure/stock-movement.writer';

/** The application services other contexts and the HTTP module use. */
const SERVICES = [
  StockService,
  StockMovementObserverRegistry,
  BalancesService,
  TransactionsService,
  AdjustmentsService,
  TransfersService,
  PurchaseOrderReceiptsService,
  SerialsService,
  SerialAllocationsService,
  InventorySettingsService,
  BalanceExtensionRegistry,
  BalancePagesService,
  StockHistoryService,
  ReorderPointRegistry,
];

/**
 * Inventory core: the locations, the stock ledger and balances, adjustments, transfers,
 * purchase-order receiving, serial numbers, order commitments (allocated, on_order) and
 * valuation. Exports application services only (the locations service under LOCATIONS_SERVICE);
 * registers the ports sales (order commitments) and accounting (inventory subledger) own, and its
 * QA seed fixtures (the location, before the sales seed; stock, serials and a receipt after it).
 */
@Module({
  imports: [
    CatalogCoreModule,
    SalesCoreModule,
    AccountingCoreModule,
    TypeOrmModule.forFeature([...INVENTORY_RECORDS, LocationRecord]),
  ],
  providers: [
    referenceListProvider(LOCATIONS),
    LocationSeedContributor,
    ...SERVICES,
    StockLedger,
    StockMovementBatches,
    { provide: SharedMovementWrites, useExisting: StockMovementBatches },
    StockReferences,
    InventoryPostings,
    OrderCommitmentsService,
    InventoryRegistrar,
    InventorySeedContributor,
    BalanceRepository,
    InventoryTransactionRepository,
    StockCommitmentRepository,
    SerialNumberRepository,
    InventorySettingsRepository,
    StockFactsCache,
    StockMovementWriter,
  ],
  exports: [...SERVICES, LOCATIONS_SERVICE],
})
export class InventoryCoreModule {}
