import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '../http/list/list-query.dto';
import { paginate } from '../http/list/paginate';
import { TransactionHost } from '../persistence/transaction-host';
import { RequestContext } from '../tenancy/request-context';
import { OutboxEventRecord } from './outbox-event.entity';

/** Which of the caller's events a page holds: one type, and a window on `created_at` (both bounds exclusive). */
export interface OutboxEventFilter {
  type?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** Reads of the outbox for the caller's entity and mode: the events API reads the events through it. */
@Injectable()
export class OutboxReader {
  constructor(private readonly tx: TransactionHost) {}

  private scoped() {
    const { entityId, livemode } = RequestContext.caller();
    return this.tx.dataSource
      .getRepository(OutboxEventRecord)
      .createQueryBuilder('e')
      .where('e.entity_id = :entityId AND e.livemode = :livemode', { entityId, livemode });
  }

  /** A page of the caller's events, newest first. */
  async page(filter: OutboxEventFilter, query: ListQueryDto, url: string) {
    const qb = this.scoped();
    if (filter.type) qb.andWhere('e.type = :type', { type: filter.type });
    if (filter.createdAfter) qb.andWhere('e.created_at > :after', { after: filter.createdAfter });
    if (filter.createdBefore) qb.andWhere('e.created_at < :before', { before: filter.createdBefore });
    return paginate(qb, query, { url });
  }

  /** One of the caller's events, or null. */
  async findById(id: string): Promise<OutboxEventRecord | null> {
    return this.scoped().andWhere('e.id = :id', { id }).getOne();
  }
}
