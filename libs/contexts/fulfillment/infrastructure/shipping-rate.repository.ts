import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ShippingRateRecord } from './fulfillment.entities';

@Injectable()
export class ShippingRateRepository extends TenantRepository<ShippingRateRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ShippingRateRecord, 'shipping rate');
  }

  async findByRateObjectId(rateObjectId: string): Promise<ShippingRateRecord | null> {
    const plain = await this.plainWhere('rate_object_id = $3', [rateObjectId]);
    return plain ? (plain[0] ?? null) : this.repo.findOneBy({ rateObjectId, ...this.scope() });
  }
}
