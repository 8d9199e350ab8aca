import { Injectable } from '@nestjs/common';
import { money } from '#platform/domain/money';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { OrderLineRevenueRecord, RevenueRecognitionRecord } from './revenue-recognition.entity';

/** The recognition counters of sales-order lines, read under a row lock. */
@Injectable()
export class OrderLineRevenueRepository extends TenantRepository.of(OrderLineRevenueRecord, 'order line') {
  /**
   * The counters of the order's lines, created at zero when missing, locked FOR UPDATE in id
   * order until the caller's transaction ends: two recognisers of the same order run one after
   * the other, the second seeing what the first wrote.
   */
  async lockLines(orderId: string, lineIds: readonly string[]): Promise<Map<string, OrderLineRevenueRecord>> {
    if (lineIds.length === 0) return new Map();
    const { entityId, livemode } = this.scope();
    const ids = [...new Set(lineIds)].sort();
    await this.tx.transactional.query(
      `INSERT INTO order_line_revenue (id, entity_id, livemode, order_id, shipped, billed)
       SELECT unnest($1::uuid[]), $2, $3, $4, 0, 0
       ON CONFLICT (id) DO NOTHING`,
      [ids, entityId, livemode, orderId],
    );
    const rows = await this.tx.transactional
      .getRepository(OrderLineRevenueRecord)
      .createQueryBuilder('r')
      .where('r.entity_id = :entityId AND r.livemode = :livemode AND r.id IN (:...ids)', {
        entityId,
        livemode,
        ids,
      })
      .orderBy('r.id', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The counters of the order's lines that have any (no lock). */
  async ofOrder(orderId: string): Promise<OrderLineRevenueRecord[]> {
    return this.tx.transactional
      .getRepository(OrderLineRevenueRecord)
      .find({ where: { orderId, ...this.scope() }, order: { id: 'ASC' } });
  }

  async saveAll(rows: readonly OrderLineRevenueRecord[]): Promise<void> {
    for (const row of rows) {
      row.shipped = money(row.shipped);
      row.billed = money(row.billed);
      await this.save(row);
    }
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
}
