import { Injectable } from '@nestjs/common';
import { TransactionHost, WriteStatement } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';

/**
 * Marks of products whose stored demand average is behind their demand: written by the
 * stock-movement observer in the movement's transaction, taken (deleted) by the refresh that
 * brings the averages up to date, in the refresh's transaction.
 */
@Injectable()
export class DemandRefreshMarkRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The statement marking `productIds` of the caller's entity and mode, for combinedWrite. */
  markStatement(productIds: readonly string[]): WriteStatement | null {
    if (productIds.length === 0) return null;
    const { entityId, livemode } = RequestContext.caller();
    return {
      sql: `INSERT INTO demand_refresh_marks (entity_id, livemode, product_id)
       SELECT $1, $2, p FROM unnest($3::uuid[]) AS t(p)`,
      params: [entityId, livemode, [...productIds]],
    };
  }

  /** Every entity and mode with marks (across entities: for the refresher's own rounds). */
  async markedScopes(): Promise<{ entityId: string; livemode: boolean }[]> {
    const rows: { entity_id: string; livemode: boolean }[] = await this.tx.manager.query(
      `SELECT DISTINCT entity_id, livemode FROM demand_refresh_marks`,
    );
    return rows.map((r) => ({ entityId: r.entity_id, livemode: r.livemode }));
  }

  /**
   * Deletes up to `limit` marks of the caller's entity and mode in the open transaction; answers
   * their products, sorted, once each, and how many marks it took. Marks another refresh holds
   * are left to it, or with `wait`, waited for (and skipped when that refresh took them).
   */
  async take(limit: number, wait = false): Promise<{ productIds: string[]; taken: number }> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: { product_id: string }[] = await this.tx.transactional.query(
      `WITH taken AS (
         DELETE FROM demand_refresh_marks
          WHERE ctid IN (SELECT ctid FROM demand_refresh_marks
                          WHERE entity_id = $1 AND livemode = $2
                          LIMIT $3 FOR UPDATE${wait ? '' : ' SKIP LOCKED'})
          RETURNING product_id)
       SELECT product_id FROM taken`,
      [entityId, livemode, limit],
    );
    const productIds = [...new Set(rows.map((r) => r.product_id))].sort();
    return { productIds, taken: rows.length };
  }
}
