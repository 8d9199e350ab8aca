import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ShippingRateRecord } from './fulfillment.entities';

@Injectable()
export class ShippingRateRepository extends TenantRepository.of(ShippingRateRecord, 'shipping rate') {
  async findByRateObjectId(rateObjectId: string): Promise<ShippingRateRecord | null> {
    return (await this.plainRows('rate_object_id = $3', [rateObjectId]))[0] ?? null;
  }
}
