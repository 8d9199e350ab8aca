import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { SerialNumberRecord } from './inventory.entities';

export interface SerialFilters {
  productId?: string;
  status?: string;
  locationId?: string;
  q?: string;
}

/** Serial number records. */
@Injectable()
export class SerialNumberRepository extends TenantRepository.of(SerialNumberRecord, 'serial number') {
  /** The records of these serial numbers of a product, locked, keyed by serial number. */
  async forProductForUpdate(
    productId: string,
    serials: readonly string[],
  ): Promise<Map<string, SerialNumberRecord>> {
    if (serials.length === 0) return new Map();
    const rows = await this.scopedQuery('s')
      .andWhere('s.product_id = :productId AND s.serial_number IN (:...serials)', { productId, serials })
      .orderBy('s.id')
      .setLock('pessimistic_write')
      .getMany();
    return new Map(rows.map((r) => [r.serialNumber, r]));
  }

  async ofOrder(orderId: string, orderItemId?: string): Promise<SerialNumberRecord[]> {
    const qb = this.scopedQuery('s').andWhere('s.order_id = :orderId', { orderId });
    if (orderItemId) qb.andWhere('s.order_item_id = :orderItemId', { orderItemId });
    return qb.orderBy('s.id').setLock('pessimistic_write').getMany();
  }

  /** One numbered page (the serial list pages by number), newest first. */
  async numberedPage(
    filters: SerialFilters,
    page: number,
    perPage: number,
  ): Promise<{ rows: SerialNumberRecord[]; total: number }> {
    const qb = this.scopedQuery('s');
    if (filters.productId) qb.andWhere('s.product_id = :productId', { productId: filters.productId });
    if (filters.status) qb.andWhere('s.status = :status', { status: filters.status });
    if (filters.locationId) qb.andWhere('s.location_id = :locationId', { locationId: filters.locationId });
    if (filters.q) {
      const escaped = filters.q.replace(/[\\%_]/g, (c) => `\\${c}`);
      qb.andWhere(`s.serial_number ILIKE :q`, { q: `%${escaped}%` });
    }
    const [rows, total] = await qb
      .orderBy('s.id', 'DESC')
      .skip((page - 1) * perPage)
      .take(perPage)
      .getManyAndCount();
    return { rows, total };
  }
}
