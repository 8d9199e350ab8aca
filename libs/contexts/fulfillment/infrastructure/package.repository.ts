import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { RequestContext } from '#platform/tenancy/request-context';
import { PackageRecord } from './fulfillment.entities';

export interface PackageFilters {
  order_id?: string;
  status?: string;
  carrier?: string;
  created_after?: string;
  created_before?: string;
}

@Injectable()
export class PackageRepository extends TenantRepository.of(PackageRecord, 'package') {
  /**
   * Serializes package changes of one order until commit (a transaction-scoped advisory lock
   * on the order id), so concurrent requests never pack or ship a line twice.
   */
  async lockOrder(orderId: string): Promise<void> {
    const { entityId, livemode } = RequestContext.caller();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `fulfillment.order:${entityId}:${livemode}:${orderId}`,
    ]);
  }

  async list(query: ListQueryDto & PackageFilters, url: string) {
    return this.page(query, { url }, (qb) => {
      if (query.order_id) qb.andWhere('r.order_id = :orderId', { orderId: query.order_id });
      if (query.status) qb.andWhere('r.status = :status', { status: query.status });
      if (query.carrier) qb.andWhere('r.carrier = :carrier', { carrier: query.carrier.toLowerCase() });
      if (query.created_after)
        qb.andWhere('r.created_at >= :after', {
          after: new Date(new Date(query.created_after).getTime() + 1),
        });
      if (query.created_before)
        qb.andWhere('r.created_at < :before', { before: new Date(query.created_before) });
    });
  }

  async ofOrder(orderId: string): Promise<PackageRecord[]> {
    return this.scopedQuery('p').andWhere('p.order_id = :orderId', { orderId }).orderBy('p.id').getMany();
  }
}
