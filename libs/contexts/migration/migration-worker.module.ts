import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { AccountingCoreModule } from '#contexts/accounting';
import { CatalogCoreModule } from '#contexts/catalog';
import { InventoryCoreModule } from '#contexts/inventory';
import { SalesCoreModule } from '#contexts/sales';
import { MigrationCoreModule } from './migration-core.module';
import { ImportProcessor, ImportSweeper } from './worker/import.processor';

/**
 * The modules whose importers the worker runs: each registers its importers with ImportRegistry
 * when it starts (catalog: tags, products; sales: accounts, orders; accounting: journal_entries).
 * A new importable resource is one `ImportRegistry.register(...)` in its own context's core
 * module, plus that module here when the context is not listed yet.
 */
export const IMPORTER_CONTEXTS = [CatalogCoreModule, SalesCoreModule, AccountingCoreModule];

/** Migration's worker side: the bulk import processor and the start-up sweep, run by the dispatcher app. */
@Module({
  imports: [
    MigrationCoreModule,
    BullModule.registerQueue({ name: QUEUE_NAMES['migration-imports'] }),
    ...IMPORTER_CONTEXTS,
    // Imported orders confirmed here commit stock (allocated, on_order) through inventory's listener.
    InventoryCoreModule,
  ],
  providers: [ImportProcessor, ImportSweeper],
})
export class MigrationWorkerModule {}
