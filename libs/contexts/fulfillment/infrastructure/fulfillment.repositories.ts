import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { newId } from '../../../platform/persistence/ids';
import { TenantRepository } from '../../../platform/persistence/tenant-repository';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { RequestContext } from '../../../platform/tenancy/request-context';
import {
  FulfillmentSettingsRecord,
  PackageItemRecord,
  PackageLabelRecord,
  PackageRecord,
  ReturnReceiptRecord,
  ShipmentNotificationRecord,
  ShippingRateRecord,
} from './fulfillment.entities';

export interface PackageFilters {
  order_id?: string;
  status?: string;
  carrier?: string;
  created_after?: string;
  created_before?: string;
}

/** The per-entity fulfillment settings row: package numbering and the insurance threshold. */
@Injectable()
export class FulfillmentSettingsRepository extends TenantRepository<FulfillmentSettingsRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FulfillmentSettingsRecord, 'fulfillment settings');
  }

  /** The settings row, created on first use with the entity code as prefix. */
  async current(): Promise<FulfillmentSettingsRecord> {
    const { entityId, livemode, entityCode } = RequestContext.caller();
    const found = await this.repo.findOneBy({ entityId, livemode });
    if (found) return found;
    await this.tx.manager.query(
      `INSERT INTO fulfillment_settings (id, entity_id, livemode, package_number_prefix) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity_id, livemode) DO NOTHING`,
      [newId(), entityId, livemode, entityCode.toUpperCase()],
    );
    return (await this.repo.findOneBy({ entityId, livemode }))!;
  }

  /**
   * Takes the next package number in the caller's transaction: the counter row stays locked
   * until commit, so numbers are gapless (a rolled-back package gives its number back).
   */
  async nextPackageNumber(): Promise<{ n: number; prefix: string }> {
    await this.current();
    const { entityId, livemode } = RequestContext.caller();
    type Row = { last_package_number: string; package_number_prefix: string };
    // An UPDATE ... RETURNING answers [rows, affected count] through TypeORM's PostgreSQL driver.
    const [rows] = (await this.tx.transactional.query(
      `UPDATE fulfillment_settings SET last_package_number = last_package_number + 1, updated_at = now()
       WHERE entity_id = $1 AND livemode = $2 RETURNING last_package_number, package_number_prefix`,
      [entityId, livemode],
    )) as [Row[], number];
    const row = rows[0];
    return { n: Number(row.last_package_number), prefix: row.package_number_prefix };
  }
}

@Injectable()
export class PackageRepository extends TenantRepository<PackageRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PackageRecord, 'package');
  }

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

@Injectable()
export class PackageItemRepository extends TenantRepository<PackageItemRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PackageItemRecord, 'package item');
  }

  async ofPackages(packageIds: readonly string[]): Promise<Map<string, PackageItemRecord[]>> {
    const result = new Map<string, PackageItemRecord[]>(packageIds.map((id) => [id, []]));
    if (packageIds.length === 0) return result;
    const rows = await this.scopedQuery('i')
      .andWhere('i.package_id IN (:...ids)', { ids: [...new Set(packageIds)] })
      .orderBy('i.package_id')
      .addOrderBy('i.position', 'ASC')
      .getMany();
    for (const row of rows) result.get(row.packageId)?.push(row);
    return result;
  }

  /** Units of each order line in the order's packages whose status is one of `statuses`. */
  async unitsByLine(orderId: string, statuses: readonly string[]): Promise<Map<string, number>> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: { order_item_id: string; units: string }[] = await this.tx.manager.query(
      `SELECT i.order_item_id, sum(i.quantity) AS units
       FROM package_items i JOIN packages p ON p.id = i.package_id
       WHERE i.entity_id = $1 AND i.livemode = $2 AND i.order_id = $3 AND p.status = ANY($4)
       GROUP BY i.order_item_id`,
      [entityId, livemode, orderId, statuses],
    );
    return new Map(rows.map((r) => [r.order_item_id, Number(r.units)]));
  }

  /** Units of each order line received back by returns, over all the order's packages. */
  async returnedByLine(orderId: string): Promise<Map<string, number>> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: { order_item_id: string; units: string }[] = await this.tx.manager.query(
      `SELECT order_item_id, sum(returned_quantity) AS units FROM package_items
       WHERE entity_id = $1 AND livemode = $2 AND order_id = $3 GROUP BY order_item_id`,
      [entityId, livemode, orderId],
    );
    return new Map(rows.map((r) => [r.order_item_id, Number(r.units)]));
  }

  async deleteOfPackage(packageId: string): Promise<void> {
    const { entityId, livemode } = RequestContext.caller();
    await this.tx.transactional.query(
      `DELETE FROM package_items WHERE package_id = $1 AND entity_id = $2 AND livemode = $3`,
      [packageId, entityId, livemode],
    );
  }
}

@Injectable()
export class ShippingRateRepository extends TenantRepository<ShippingRateRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ShippingRateRecord, 'shipping rate');
  }

  async findByRateObjectId(rateObjectId: string): Promise<ShippingRateRecord | null> {
    return this.repo.findOneBy({ rateObjectId, ...this.scope() });
  }
}

@Injectable()
export class PackageLabelRepository extends TenantRepository<PackageLabelRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PackageLabelRecord, 'label');
  }

  /** Label data without the file. */
  async ofPackages(packageIds: readonly string[]): Promise<Map<string, PackageLabelRecord>> {
    if (packageIds.length === 0) return new Map();
    const rows = await this.scopedQuery('l')
      .andWhere('l.package_id IN (:...ids)', { ids: [...new Set(packageIds)] })
      .getMany();
    return new Map(rows.map((r) => [r.packageId, r]));
  }

  /** The label with its file. */
  async fileOf(packageId: string): Promise<PackageLabelRecord | null> {
    return this.scopedQuery('l')
      .addSelect('l.content')
      .andWhere('l.package_id = :packageId', { packageId })
      .getOne();
  }
}

@Injectable()
export class ShipmentNotificationRepository extends TenantRepository<ShipmentNotificationRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ShipmentNotificationRecord, 'shipment notification');
  }

  async ofPackage(packageId: string): Promise<ShipmentNotificationRecord[]> {
    return this.scopedQuery('n')
      .andWhere('n.package_id = :packageId', { packageId })
      .orderBy('n.id')
      .getMany();
  }

  /**
   * Notifications of every entity still `queued` though created before `before`, oldest first
   * (the sweeper's read: it runs for no entity, so it is not scoped to one).
   */
  async overdueQueued(
    before: Date,
    limit: number,
  ): Promise<{ id: string; entity_id: string; livemode: boolean }[]> {
    return this.tx.manager.query(
      `SELECT id, entity_id, livemode FROM shipment_notifications
        WHERE status = 'queued' AND created_at < $1 ORDER BY created_at LIMIT $2`,
      [before, limit],
    );
  }
}

@Injectable()
export class ReturnReceiptRepository extends TenantRepository<ReturnReceiptRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ReturnReceiptRecord, 'return receipt');
  }

  async ofReturn(returnOrderId: string): Promise<ReturnReceiptRecord[]> {
    return this.scopedQuery('r')
      .andWhere('r.return_order_id = :returnOrderId', { returnOrderId })
      .orderBy('r.id')
      .getMany();
  }
}
