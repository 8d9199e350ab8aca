import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { CommitmentRelease } from '../domain/commitment';
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

  /** The commitments of some lines of an order, locked for the rest of the transaction. */
  async ofLinesForUpdate(
    orderId: string,
    kind: StockCommitmentRecord['kind'],
    orderItemIds: readonly string[],
  ): Promise<StockCommitmentRecord[]> {
    if (orderItemIds.length === 0) return [];
    return this.plainRows(
      'order_id = $3 AND kind = $4 AND order_item_id = ANY($5::uuid[])',
      [orderId, kind, [...orderItemIds]],
      'id',
      true,
    );
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
   * A line named with a `locationId` moves its commitment there (what stays open is then
   * committed where the line last moved from). Answers, per commitment changed, its product,
   * the location it was committed at before (`fromLocationId`) and now (`locationId`), its open
   * quantity before and the quantity released.
   */
  async release(
    orderId: string,
    kind: StockCommitmentRecord['kind'],
    lines: readonly { orderItemId: string; quantity: number; locationId?: string | null }[],
  ): Promise<ReleasedCommitment[]> {
    if (lines.length === 0) return [];
    const { entityId, livemode } = this.scope();
    const [rows] = (await this.tx.transactional.query(
      `WITH req AS (
         SELECT r.order_item_id, sum(r.q)::int AS q, (array_agg(r.loc) FILTER (WHERE r.loc IS NOT NULL))[1] AS loc
           FROM unnest($5::uuid[], $6::int[], $7::uuid[]) AS r(order_item_id, q, loc) GROUP BY 1),
       locked AS (
         SELECT c.id, c.order_item_id, c.open_quantity, c.location_id FROM stock_commitments c
          WHERE c.entity_id = $1 AND c.livemode = $2 AND c.order_id = $3 AND c.kind = $4
          ORDER BY c.id FOR UPDATE),
       chosen AS (
         SELECT DISTINCT ON (l.order_item_id) l.id, l.open_quantity, l.location_id,
                least(l.open_quantity, r.q) AS released, r.q, r.loc
           FROM locked l JOIN req r ON r.order_item_id = l.order_item_id
          ORDER BY l.order_item_id, l.id DESC)
       UPDATE stock_commitments s
          SET open_quantity = s.open_quantity - ch.released, done_quantity = s.done_quantity + ch.q,
              location_id = coalesce(ch.loc, s.location_id),
              version = s.version + 1, updated_at = CURRENT_TIMESTAMP
         FROM chosen ch WHERE s.id = ch.id
       RETURNING s.product_id AS "productId", ch.location_id AS "fromLocationId", s.location_id AS "locationId",
                 ch.open_quantity AS "openBefore", ch.released`,
      [
        entityId,
        livemode,
        orderId,
        kind,
        lines.map((l) => l.orderItemId),
        lines.map((l) => l.quantity),
        lines.map((l) => l.locationId ?? null),
      ],
    )) as [ReleasedCommitment[], number];
    return rows;
  }
}

/** A commitment after a release: its product, and where it was and is committed, what it held open and released. */
export interface ReleasedCommitment extends CommitmentRelease {
  productId: string;
}
