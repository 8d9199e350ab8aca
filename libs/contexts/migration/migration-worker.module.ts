import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { CatalogModule } from '../catalog/catalog.module';
import { ImportQueue } from './application/import-queue';
import { ImportRunner } from './application/import-runner';
import { ImportProcessor, ImportSweeper } from './application/import.processor';
import { MIGRATION_ENTITIES } from './migration.module';

/**
 * The contexts whose importers the worker runs: each registers its importer with
 * ImportRegistry when its module starts (tags today; accounts, products, orders and journal
 * entries register theirs when those contexts land and are listed here).
 */
export const IMPORTER_CONTEXTS = [CatalogModule];

/** Migration context (worker side): the bulk import processor, run by the dispatcher app or in-process in tests. */
@Module({
  imports: [
    TypeOrmModule.forFeature(MIGRATION_ENTITIES),
    BullModule.registerQueue({ name: QUEUE_NAMES['migration-imports'] }),
    ...IMPORTER_CONTEXTS,
  ],
  providers: [ImportQueue, ImportRunner, ImportProcessor, ImportSweeper],
  exports: [ImportRunner],
})
export class MigrationWorkerModule {}
