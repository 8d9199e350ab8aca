import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ChannelListingRecord } from './channel-listing.entity';

@Injectable()
export class ChannelListingRepository extends TenantRepository<ChannelListingRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ChannelListingRecord, 'channel listing');
  }

  async findForProductChannel(productId: string, channel: string): Promise<ChannelListingRecord | null> {
    return this.scopedQuery('l')
      .andWhere('l.product_id = :productId AND l.channel = :channel', { productId, channel })
      .getOne();
  }
}
