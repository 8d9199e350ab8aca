import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { runJobAs } from '#platform/queue/run-job';
import { ChannelListingsService, SYNC_JOB } from '../application/channel-listings.service';

/**
 * Runs in the dispatcher: pushes each queued listing through its integration and records the
 * attempt. A failed push rethrows so BullMQ retries it (LISTING_SYNC_ATTEMPTS, exponential
 * backoff from LISTING_SYNC_BACKOFF_MS); the last attempt's failure is recorded and ends the job.
 */
@Processor(QUEUE_NAMES.catalog)
export class ChannelListingSyncProcessor extends WorkerHost {
  constructor(private readonly listings: ChannelListingsService) {
    super();
  }

  async process(
    job: Job<JobData<'catalog', typeof SYNC_JOB>, unknown, JobName<'catalog'>>,
  ): Promise<{ sync_attempts?: number; sync_status?: string }> {
    if (job.name !== SYNC_JOB) throw new Error(`Unknown catalog job ${String(job.name)}`);
    const data = job.data;
    const caller = {
      entityId: data.entity_id,
      entityCode: data.entity_code,
      livemode: data.livemode,
      apiKeyId: data.api_key_id,
      scopes: ['products:write'],
    };
    const final = job.attemptsMade + 1 >= (job.opts?.attempts ?? 1);
    const { listing, retry } = await runJobAs(job, caller, () =>
      this.listings.runSync(data.listing_id, final),
    );
    if (retry) throw retry;
    return { sync_attempts: listing?.sync_attempts, sync_status: listing?.sync_status };
  }
}
