import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { AccountingCoreModule } from './accounting-core.module';
import { AccountingProcessor, AccountingScheduler } from './worker/recurring-entries.processor';

/** The worker side (dispatcher app): the `accounting` queue's processor and its repeatable job. */
@Module({
  imports: [AccountingCoreModule, BullModule.registerQueue({ name: QUEUE_NAMES.accounting })],
  providers: [AccountingProcessor, AccountingScheduler],
})
export class AccountingWorkerModule {}
