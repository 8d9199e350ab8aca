import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { combinedWrite } from '#platform/persistence/transaction-host';
import { TenantRecord } from '#platform/persistence/columns';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { OrderLineRevenueRecord, RevenueRecognitionRecord } from './revenue-recognition.entity';

/** The counters of one order line, locked, with the line's quantity and amounts. */
export interface LockedLine {
  id: string;
  shipped: Decimal;
  billed: Decimal;
  /** The line's quantity, net (subtotal less discounts) and tax. */
  terms: { quantity: Decimal; net: Decimal; tax: Decimal };
}

/** The recognition counters of sales-order lines, read under a row lock. */
@Injectable()
export class OrderLineRevenueRepository extends TenantRepository.of(OrderLineRevenueRecord, 'order line') {
  /**
   * The counters of the order's lines with the lines' terms, created at zero when missing and
   * locked in id order until the caller's transaction ends, by one statement: the upsert's
   * conflict branch locks a row that exists (waiting for a transaction that holds it, then
   * answering its committed counters), an inserted row is the caller's own. Two recognisers of
   * the same order run one after the other, the second seeing what the first wrote. Ids that are
   * not lines of the caller's entity and mode are left out of the answer.
   */
  async lockLines(orderId: string, lineIds: readonly string[]): Promise<Map<string, LockedLine>> {
    if (lineIds.length === 0) return new Map();
    const { entityId, livemode } = this.scope();
    const ids = [...new Set(lineIds)].sort();
    const rows: {
      id: string;
      shipped: string;
      billed: string;
      quantity: string;
      subtotal: string;
      discount_total: string;
      tax_total: string;
    }[] = await this.tx.transactional.query(
      `WITH counters AS (
         INSERT INTO order_line_revenue AS r (id, entity_id, livemode, order_id, shipped, billed)
         SELECT unnest($1::uuid[]), $2, $3, $4, 0, 0
         ON CONFLICT (id) DO UPDATE SET shipped = r.shipped
           WHERE r.entity_id = EXCLUDED.entity_id AND r.livemode = EXCLUDED.livemode
         RETURNING r.id, r.shipped, r.billed
       )
       SELECT c.id, c.shipped::text AS shipped, c.billed::text AS billed, l.quantity::text AS quantity,
              l.subtotal::text AS subtotal, l.discount_total::text AS discount_total, l.tax_total::text AS tax_total
       FROM counters c
       JOIN order_lines l ON l.id = c.id AND l.entity_id = $2 AND l.livemode = $3 AND l.order_id = $4
       ORDER BY c.id`,
      [ids, entityId, livemode, orderId],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          shipped: money(r.shipped),
          billed: money(r.billed),
          terms: {
            quantity: money(r.quantity),
            net: money(r.subtotal).minus(r.discount_total),
            tax: money(r.tax_total),
          },
        },
      ]),
    );
  }

  /** The counters of the order's lines that have any (no lock). */
  async ofOrder(orderId: string): Promise<OrderLineRevenueRecord[]> {
    return this.tx.transactional
      .getRepository(OrderLineRevenueRecord)
      .find({ where: { orderId, ...this.scope() }, order: { id: 'ASC' } });
  }
}

/** What each document moved on the order lines it touched. */
@Injectable()
export class RevenueRecognitionRepository extends TenantRepository.of(
  RevenueRecognitionRecord,
  'revenue recognition',
) {
  async ofDocument(documentId: string): Promise<RevenueRecognitionRecord[]> {
    return this.tx.transactional.getRepository(RevenueRecognitionRecord).find({
      where: { documentId, ...this.scope() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Sets the counters of lines locked by OrderLineRevenueRepository.lockLines() and records what
   * the document moved on each, by one statement.
   */
  async record(
    counters: readonly { id: string; shipped: Decimal; billed: Decimal }[],
    moves: readonly Omit<Partial<RevenueRecognitionRecord>, keyof TenantRecord>[],
  ): Promise<void> {
    const { entityId, livemode } = this.scope();
    const write = combinedWrite([
      counters.length
        ? {
            sql: `UPDATE order_line_revenue AS r
                  SET shipped = c.shipped, billed = c.billed, version = r.version + 1, updated_at = CURRENT_TIMESTAMP
                  FROM unnest($1::uuid[], $2::numeric[], $3::numeric[]) AS c(id, shipped, billed)
                  WHERE r.id = c.id AND r.entity_id = $4 AND r.livemode = $5`,
            params: [
              counters.map((c) => c.id),
              counters.map((c) => c.shipped.toFixed()),
              counters.map((c) => c.billed.toFixed()),
              entityId,
              livemode,
            ],
          }
        : null,
      this.insertStatement(this.buildMany(moves)),
    ]);
    if (write) await this.tx.transactional.query(write.sql, write.params);
  }
}
