import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { FreezeService } from './application/freeze.service';
import { FreezeStateCache } from './infrastructure/freeze-state.cache';
import { ImportQueue } from './application/import-queue';
import { ImportsService } from './application/imports.service';
import { CutoverController } from './http/cutover.controller';
import { ImportsController } from './http/imports.controller';
import { EntityFreezeRecord, FreezeHistoryRecord } from './infrastructure/freeze.entity';
import { ImportErrorRecord, ImportRecord } from './infrastructure/import.entity';
import {
  FreezeHistoryRepository,
  FreezeRepository,
  ImportErrorRepository,
  ImportRepository,
} from './infrastructure/import.repository';
import { ImportUploadRepository } from './infrastructure/import-upload.repository';

export const MIGRATION_ENTITIES = [EntityFreezeRecord, FreezeHistoryRecord, ImportRecord, ImportErrorRecord];
export const MIGRATION_REPOSITORIES = [
  FreezeRepository,
  FreezeHistoryRepository,
  ImportRepository,
  ImportErrorRepository,
];

/** Migration context (API side): cutover freeze (a mutation gate of the platform pipeline) and bulk imports. */
@Module({
  imports: [
    TypeOrmModule.forFeature(MIGRATION_ENTITIES),
    BullModule.registerQueue({ name: QUEUE_NAMES['migration-imports'] }),
  ],
  controllers: [CutoverController, ImportsController],
  providers: [
    ...MIGRATION_REPOSITORIES,
    ImportUploadRepository,
    FreezeStateCache,
    FreezeService,
    ImportsService,
    ImportQueue,
  ],
  exports: [FreezeService, ImportsService],
})
export class MigrationModule {}
