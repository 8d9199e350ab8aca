import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { StockCommitmentRecord } from './inventory.entities';

/** Open commitments of order lines (sales lines: allocated; purchase-order lines: on order). */
@Injectable()
export class StockCommitmentRepository extends TenantRepository.of(
  StockCommitmentRecord,
  'stock commitment',
) {
  /** The commitments of an order, locked for the rest of the transaction. */
  async ofOrderForUpdate(
    orderId: string,
    kind: StockCommitmentRecord['kind'],
  ): Promise<StockCommitmentRecord[]> {
    return this.plainRows('order_id = $3 AND kind = $4', [orderId, kind], 'id', true);
  }

  /** The oldest open commitment of a product (the QA seed finds its serial order's line this way). */
  async firstOpenOfProduct(
    productId: string,
    kind: StockCommitmentRecord['kind'],
  ): Promise<StockCommitmentRecord | null> {
    return this.scopedQuery('c')
      .andWhere('c.product_id = :productId AND c.kind = :kind AND c.open_quantity > 0', { productId, kind })
      .orderBy('c.id', 'ASC')
      .getOne();
  }

  /**
   * Records that `lines` of an order moved (one statement): each named line's commitment of
   * `kind` has its open quantity lowered by what it still held of the line's quantity (never
   * below zero) and its done quantity raised by the whole quantity; the order's commitments of
   * that kind are locked first, in id order. Quantities of a line named twice are added up.
   * Answers, per commitment changed, its product, location and the quantity released.
   */
  async release(
    orderId: string,
    kind: StockCommitmentRecord['kind'],
    lines: readonly { orderItemId: string; quantity: number }[],
  ): Promise<{ productId: string; locationId: string | null; released: number }[]> {
    if (lines.length === 0) return [];
    const { entityId, livemode } = this.scope();
    const [rows] = (await this.tx.transactional.query(
      `WITH req AS (
         SELECT r.order_item_id, sum(r.q)::int AS q FROM unnest($5::uuid[], $6::int[]) AS r(order_item_id, q) GROUP BY 1),
       locked AS (
         SELECT c.id, c.order_item_id, c.open_quantity FROM stock_commitments c
          WHERE c.entity_id = $1 AND c.livemode = $2 AND c.order_id = $3 AND c.kind = $4
          ORDER BY c.id FOR UPDATE),
       chosen AS (
         SELECT DISTINCT ON (l.order_item_id) l.id, least(l.open_quantity, r.q) AS released, r.q
           FROM locked l JOIN req r ON r.order_item_id = l.order_item_id
          ORDER BY l.order_item_id, l.id DESC)
       UPDATE stock_commitments s
          SET open_quantity = s.open_quantity - ch.released, done_quantity = s.done_quantity + ch.q,
              version = s.version + 1, updated_at = CURRENT_TIMESTAMP
         FROM chosen ch WHERE s.id = ch.id
       RETURNING s.product_id AS "productId", s.location_id AS "locationId", ch.released`,
      [entityId, livemode, orderId, kind, lines.map((l) => l.orderItemId), lines.map((l) => l.quantity)],
    )) as [{ productId: string; locationId: string | null; released: number }[], number];
    return rows;
  }
}
