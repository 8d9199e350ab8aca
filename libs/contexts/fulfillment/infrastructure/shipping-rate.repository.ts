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
    return (await this.plainRows('rate_object_id = $3', [rateObjectId]))[0] ?? null;
  }
}
