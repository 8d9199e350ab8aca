import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { isUuid } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { WebhookEndpointRecord } from './webhook-endpoint.entity';

/** Endpoints of the caller's entity and mode; deleted endpoints are absent. */
@Injectable()
export class WebhookEndpointRepository extends TenantRepository.of(
  WebhookEndpointRecord,
  'webhook endpoint',
) {
  override scopedQuery(alias: string) {
    return super.scopedQuery(alias).andWhere(`${alias}.deleted_at IS NULL`);
  }

  override async findById(id: string): Promise<WebhookEndpointRecord | null> {
    if (!isUuid(id)) return null;
    return this.repo.findOne({ where: { id, ...this.scope(), deletedAt: IsNull() } });
  }

  /** The active endpoint with this URL in the caller's entity and mode, other than `exceptId`. */
  async findActiveByUrl(url: string, exceptId?: string): Promise<WebhookEndpointRecord | null> {
    const qb = this.scopedQuery('r').andWhere('r.url = :url', { url }).andWhere(`r.status = 'active'`);
    if (exceptId) qb.andWhere('r.id <> :exceptId', { exceptId });
    return qb.getOne();
  }
}
