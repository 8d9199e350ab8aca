import { Injectable } from '@nestjs/common';
import { TenantRepository } from '../persistence/tenant-repository';
import { TransactionHost } from '../persistence/transaction-host';
import { RequestContext } from '../tenancy/request-context';
import { ActivityRecord } from './activity.entity';

/** What work without a request (a job, an import) did, as an activity row. */
export interface WorkActivity {
  method: string;
  path: string;
  resourceType: string;
  resourceId: string;
  status: number;
}

@Injectable()
class WorkActivityRepository extends TenantRepository.of(ActivityRecord, 'activity entry') {}

/**
 * Activity rows of work done without an HTTP request (a scheduled or requested import writing
 * many records): written in the caller's transaction, so a row exists exactly when its work
 * committed. Requests' own rows are the ActivityRecorder's.
 */
@Injectable()
export class ActivityLog {
  private readonly entries: WorkActivityRepository;

  constructor(tx: TransactionHost) {
    this.entries = new WorkActivityRepository(tx);
  }

  async record(entry: WorkActivity): Promise<void> {
    const caller = RequestContext.caller();
    await this.entries.create({
      apiKeyId: caller.apiKeyId,
      method: entry.method,
      path: entry.path,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      status: entry.status,
      requestId: RequestContext.requestId() ?? null,
    });
  }
}
