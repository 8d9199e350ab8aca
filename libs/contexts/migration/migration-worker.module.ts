import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { AccountingModule } from '../accounting';
import { CatalogModule } from '../catalog';
import { InventoryModule } from '../inventory';
import { SalesModule } from '../sales';
import { ImportQueue } from './application/import-queue';
import { ImportRunner } from './application/import-runner';
import { ImportProcessor, ImportSweeper } from './application/import.processor';
import { MIGRATION_ENTITIES } from './migration.module';

/**
 * The contexts whose importers the worker runs: each registers its importers with
 * ImportRegistry when its module starts (catalog: tags, products; sales: accounts, orders;
 * accounting: journal_entries). A new importable resource is one `ImportRegistry.register(...)`
 * in its own context, plus its module here when the context is not listed yet.
 */
export const IMPORTER_CONTEXTS = [CatalogModule, SalesModule, AccountingModule];

/** Migration context (worker side): the bulk import processor, run by the dispatcher app or in-process in tests. */
@Module({
  imports: [
    TypeOrmModule.forFeature(MIGRATION_ENTITIES),
    BullModule.registerQueue({ name: QUEUE_NAMES['migration-imports'] }),
    ...IMPORTER_CONTEXTS,
    // Imported orders confirmed here commit stock (allocated, on_order) through inventory's listener.
    InventoryModule,
  ],
  providers: [ImportQueue, ImportRunner, ImportProcessor, ImportSweeper],
  exports: [ImportRunner],
})
export class MigrationWorkerModule {}
