import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { RequestContext } from '#platform/tenancy/request-context';
import { unitsIn } from '../domain/packing';
import { PackageItemRecord } from './fulfillment.entities';

@Injectable()
export class PackageItemRepository extends TenantRepository.of(PackageItemRecord, 'package item') {
  ofPackages(packageIds: readonly string[]): Promise<Map<string, PackageItemRecord[]>> {
    return this.groupedBy('packageId', 'package_id', packageIds, ['position']);
  }

  /**
   * Units of each order line in the order's packages, by package status then order line: the
   * units kept per order line and package status by the triggers of migration 1765490000000
   * (the order's lines times the statuses in use, however many packages the order has).
   */
  async unitsByStatus(orderId: string): Promise<Map<string, Map<string, number>>> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: { status: string; order_item_id: string; units: string }[] = await this.tx.manager.query(
      `SELECT status, order_item_id, units FROM package_line_units
       WHERE entity_id = $1 AND livemode = $2 AND order_id = $3 AND units <> 0`,
      [entityId, livemode, orderId],
    );
    return unitsByStatusOf(rows);
  }

  /** Units of each order line in the order's packages whose status is one of `statuses`. */
  async unitsByLine(orderId: string, statuses: readonly string[]): Promise<Map<string, number>> {
    return unitsIn(await this.unitsByStatus(orderId), statuses);
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

/** Rows of package_line_units as units by package status then order line. */
export function unitsByStatusOf(
  rows: readonly { status: string; order_item_id: string; units: string | number }[],
): Map<string, Map<string, number>> {
  const result = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const lines = result.get(r.status) ?? new Map<string, number>();
    lines.set(r.order_item_id, Number(r.units));
    result.set(r.status, lines);
  }
  return result;
}
