import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TenantRecord } from '#platform/persistence/columns';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { OrderLineRecord } from './order.entity';

@Injectable()
export class OrderLineRepository extends TenantRepository.of(OrderLineRecord, 'order line') {
  /** The lines of one order, in order. */
  async ofOrder(orderId: string): Promise<OrderLineRecord[]> {
    return (await this.ofOrders([orderId])).get(orderId) ?? [];
  }

  /** The lines of several orders, in position order (one query). */
  async ofOrders(orderIds: readonly string[]): Promise<Map<string, OrderLineRecord[]>> {
    const result = new Map<string, OrderLineRecord[]>(orderIds.map((id) => [id, []]));
    if (orderIds.length === 0) return result;
    const rows =
      (await this.plainWhere('order_id = ANY($3::uuid[])', [[...new Set(orderIds)]], 'order_id, position')) ??
      (await this.scopedQuery('l')
        .andWhere('l.order_id IN (:...orderIds)', { orderIds: [...new Set(orderIds)] })
        .orderBy('l.order_id')
        .addOrderBy('l.position', 'ASC')
        .getMany());
    for (const row of rows) result.get(row.orderId)?.push(row);
    return result;
  }

  /**
   * How many lines an order holds that its callers sent (kit component lines left out), and the
   * position after its last line: one statement, whatever their number.
   */
  async countsOf(orderId: string): Promise<{ callerLines: number; nextPosition: number }> {
    const { entityId, livemode } = this.scope();
    const [row] = (await this.tx.transactional.query(
      `SELECT (count(*) FILTER (WHERE parent_line_id IS NULL))::int AS "callerLines",
              coalesce(max(position) + 1, 0)::int AS "nextPosition"
         FROM order_lines WHERE entity_id = $1 AND livemode = $2 AND order_id = $3`,
      [entityId, livemode, orderId],
    )) as { callerLines: number; nextPosition: number }[];
    return row;
  }

  /**
   * The exact sums of the amounts of an order's lines, summed by the database in one statement
   * (no line is loaded), as decimal strings.
   */
  async amountSumsOf(
    orderId: string,
  ): Promise<{ subtotal: string; discountTotal: string; taxTotal: string; total: string }> {
    const { entityId, livemode } = this.scope();
    const [row] = (await this.tx.transactional.query(
      `SELECT coalesce(sum(subtotal), 0)::text AS subtotal, coalesce(sum(discount_total), 0)::text AS "discountTotal",
              coalesce(sum(tax_total), 0)::text AS "taxTotal", coalesce(sum(total), 0)::text AS total
         FROM order_lines WHERE entity_id = $1 AND livemode = $2 AND order_id = $3`,
      [entityId, livemode, orderId],
    )) as { subtotal: string; discountTotal: string; taxTotal: string; total: string }[];
    return row;
  }

  async deleteOfOrder(orderId: string): Promise<void> {
    await this.deleteWhere('order_id', orderId);
  }

  /** Removes the component lines of a kit line. */
  async deleteChildrenOf(lineId: string): Promise<void> {
    await this.deleteWhere('parent_line_id', lineId);
  }

  /** Deletes the caller's lines whose `column` holds `id`. */
  private async deleteWhere(column: 'order_id' | 'parent_line_id', id: string): Promise<void> {
    await this.tx.transactional
      .createQueryBuilder()
      .delete()
      .from(OrderLineRecord)
      .where(`${column} = :id AND entity_id = :entityId AND livemode = :livemode`, { id, ...this.scope() })
      .execute();
  }

  /** Inserts lines (500 a statement); answers them as inserted, ids included. */
  async insertMany(
    rows: Omit<Partial<OrderLineRecord>, 'id' | 'entityId' | 'livemode'>[],
  ): Promise<OrderLineRecord[]> {
    const inserted: OrderLineRecord[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows
        .slice(i, i + 500)
        .map((r) => this.tx.transactional.getRepository(OrderLineRecord).create(this.stamp(r)));
      await this.tx.transactional.getRepository(OrderLineRecord).insert(chunk as never);
      inserted.push(...chunk);
    }
    return inserted;
  }

  /**
   * Inserts new lines (of orders inserted before, in this transaction) with one statement whatever
   * their number; a line that has an id keeps it (kit components point to their kit line's).
   */
  async insertAll(
    rows: readonly (Omit<Partial<OrderLineRecord>, keyof TenantRecord> & { id?: string })[],
  ): Promise<void> {
    const built = this.buildMany(rows.map(({ id: _id, ...line }) => line));
    rows.forEach((row, i) => (built[i].id = row.id ?? built[i].id));
    await this.insertBuilt(built);
  }

  private stamp(r: object): OrderLineRecord {
    return { id: newId(), ...r, ...this.scope() } as unknown as OrderLineRecord;
  }
}
