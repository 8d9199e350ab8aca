import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ChannelListingRecord } from './channel-listing.entity';

@Injectable()
export class ChannelListingRepository extends TenantRepository.of(ChannelListingRecord, 'channel listing') {
  /** A page of listings, filtered by product and channel. */
  list(query: ListQueryDto & { product_id?: string; channel?: string }, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['product_id', 'channel'] }));
  }

  async findForProductChannel(productId: string, channel: string): Promise<ChannelListingRecord | null> {
    return this.scopedQuery('l')
      .andWhere('l.product_id = :productId AND l.channel = :channel', { productId, channel })
      .getOne();
  }

  /**
   * Sets `integration_id` on the caller's listings matching `where` (`integrationId: null`: those
   * with none); a version bump each, as any change. Answers how many changed.
   */
  async setIntegration(
    where: { channel?: string; integrationId: string | null },
    integrationId: string | null,
  ): Promise<number> {
    const { entityId, livemode } = this.scope();
    const qb = this.tx.transactional
      .getRepository(ChannelListingRecord)
      .createQueryBuilder()
      .update()
      .set({ integrationId, version: () => 'version + 1', updatedAt: () => 'now()' })
      .where('entity_id = :entityId AND livemode = :livemode', { entityId, livemode });
    if (where.channel !== undefined) qb.andWhere('channel = :channel', { channel: where.channel });
    if (where.integrationId === null) qb.andWhere('integration_id IS NULL');
    else qb.andWhere('integration_id = :current', { current: where.integrationId });
    const result = await qb.execute();
    return result.affected ?? 0;
  }
}
