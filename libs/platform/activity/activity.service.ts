import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '../http/list/list-query.dto';
import { listEnvelope, ListPage } from '../http/list/paginate';
import { TenantRepository } from '../persistence/tenant-repository';
import { TransactionHost } from '../persistence/transaction-host';
import { ActivityQueryDto } from './activity.dto';
import { ActivityRecord } from './activity.entity';

export interface ActivityResource {
  id: string;
  object: 'activity';
  api_key_id: string;
  mode: 'live' | 'test';
  livemode: boolean;
  method: string;
  path: string;
  resource_type: string | null;
  resource_id: string | null;
  status: number;
  request_id: string | null;
  created_at: string;
}

const toActivityResource = (r: ActivityRecord): ActivityResource => ({
  id: r.id,
  object: 'activity',
  api_key_id: r.apiKeyId,
  mode: r.livemode ? 'live' : 'test',
  livemode: r.livemode,
  method: r.method,
  path: r.path,
  resource_type: r.resourceType,
  resource_id: r.resourceId,
  status: r.status,
  request_id: r.requestId,
  created_at: r.createdAt.toISOString(),
});

@Injectable()
class ActivityRepository extends TenantRepository.of(ActivityRecord, 'activity entry') {}

/** Reads the activity log of the caller's entity and mode. */
@Injectable()
export class ActivityService {
  private readonly entries: ActivityRepository;

  constructor(tx: TransactionHost) {
    this.entries = new ActivityRepository(tx);
  }

  async list(query: ActivityQueryDto, url: string): Promise<ListPage<ActivityResource>> {
    const page = await this.entries.page(query as ListQueryDto, { url }, (qb) => {
      if (query.resource_type !== undefined)
        qb.andWhere('r.resource_type = :resourceType', { resourceType: query.resource_type });
      if (query.resource_id !== undefined)
        qb.andWhere('r.resource_id = :resourceId', { resourceId: query.resource_id });
      if (query.api_key_id !== undefined)
        qb.andWhere('r.api_key_id = :apiKeyId', { apiKeyId: query.api_key_id });
      if (query.created_after !== undefined)
        qb.andWhere('r.created_at > :after', { after: new Date(query.created_after) });
      if (query.created_before !== undefined)
        qb.andWhere('r.created_at < :before', { before: new Date(query.created_before) });
    });
    return listEnvelope(page.rows.map(toActivityResource), page, url);
  }
}
