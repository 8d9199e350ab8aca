import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { RequestContext } from '#platform/tenancy/request-context';
import { ChannelListingsService, SYNC_JOB } from '../application/channel-listings.service';

/** Runs in the dispatcher: records each queued storefront push on its listing. Errors rethrow so BullMQ retries. */
@Processor(QUEUE_NAMES.catalog)
export class ChannelListingSyncProcessor extends WorkerHost {
  constructor(private readonly listings: ChannelListingsService) {
    super();
  }

  async process(
    job: Job<JobData<'catalog', typeof SYNC_JOB>, unknown, JobName<'catalog'>>,
  ): Promise<{ sync_attempts?: number }> {
    if (job.name !== SYNC_JOB) throw new Error(`Unknown catalog job ${String(job.name)}`);
    const data = job.data;
    const caller = {
      entityId: data.entity_id,
      entityCode: data.entity_code,
      livemode: data.livemode,
      apiKeyId: data.api_key_id,
      scopes: ['products:write'],
    };
    const listing = await RequestContext.runAsSystem(
      caller,
      () => this.listings.recordSyncAttempt(data.listing_id),
      `job_${job.id ?? ''}`,
    );
    return { sync_attempts: listing?.sync_attempts };
  }
}
