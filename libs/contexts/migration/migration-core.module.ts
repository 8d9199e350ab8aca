import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { FreezeService } from './application/freeze.service';
import { ImportQueue } from './application/import-queue';
import { ImportRunner } from './application/import-runner';
import { ImportsService } from './application/imports.service';
import { FreezeStateCache } from './infrastructure/freeze-state.cache';
import { EntityFreezeRecord, FreezeHistoryRecord } from './infrastructure/freeze.entity';
import { ImportBatchRepository } from './infrastructure/import-batch.repository';
import { ImportRowsRepository } from './infrastructure/import-rows.repository';
import { ImportErrorRecord, ImportRecord } from './infrastructure/import.entity';
import { FreezeHistoryRepository } from './infrastructure/freeze-history.repository';
import { FreezeRepository } from './infrastructure/freeze.repository';
import { ImportErrorRepository } from './infrastructure/import-error.repository';
import { ImportRepository } from './infrastructure/import.repository';

const SERVICES = [FreezeService, ImportsService, ImportRunner];

/**
 * Migration core: the cutover freeze (a mutation gate of the platform pipeline) and bulk imports
 * (accepted by the API, run by the worker through each context's registered importer). Exports
 * application services only.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([EntityFreezeRecord, FreezeHistoryRecord, ImportRecord, ImportErrorRecord]),
    BullModule.registerQueue({ name: QUEUE_NAMES['migration-imports'] }),
  ],
  providers: [
    ...SERVICES,
    FreezeRepository,
    FreezeHistoryRepository,
    ImportRepository,
    ImportErrorRepository,
    ImportBatchRepository,
    ImportRowsRepository,
    FreezeStateCache,
    ImportQueue,
  ],
  exports: SERVICES,
})
export class MigrationCoreModule {}
