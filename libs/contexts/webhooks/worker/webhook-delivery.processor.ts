import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../platform/config/app-config';
import { JobData, QUEUE_NAMES } from '../../../platform/queue/queues';
import { DeliveryAttemptService } from './delivery-attempt.service';

/** Runs delivery attempts; an infrastructure error is rethrown so BullMQ retries the job. */
@Processor(QUEUE_NAMES['webhook-deliveries'])
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly attempts: DeliveryAttemptService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_DELIVERY_CONCURRENCY;
  }

  async process(job: Job<JobData<'webhook-deliveries', 'deliver'>>): Promise<{ attempted: boolean }> {
    return { attempted: await this.attempts.attempt(job.data.deliveryId) };
  }
}
