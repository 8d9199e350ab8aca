import { Injectable } from '@nestjs/common';
import { TransactionHost, WriteStatement } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';

/** Units shipped per sales order line, from fulfillment ledger rows (what committed demand nets against). */
@Injectable()
export class LineShipmentRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The statement adding shipped units per line, for combinedWrite; null when none. */
  addStatement(rows: readonly { lineId: string; productId: string; units: number }[]): WriteStatement | null {
    if (rows.length === 0) return null;
    const merged = new Map<string, { lineId: string; productId: string; units: number }>();
    for (const r of rows) {
      const prev = merged.get(r.lineId);
      merged.set(r.lineId, prev ? { ...prev, units: prev.units + r.units } : { ...r });
    }
    const sorted = [...merged.values()].sort((a, b) => (a.lineId < b.lineId ? -1 : 1));
    const { entityId, livemode } = RequestContext.caller();
    return {
      sql: `INSERT INTO demand_line_shipments (entity_id, livemode, order_line_id, product_id, units)
       SELECT $1, $2, l, p, u FROM unnest($3::uuid[], $4::uuid[], $5::bigint[]) WITH ORDINALITY AS t(l, p, u, n) ORDER BY n
       ON CONFLICT (entity_id, livemode, order_line_id) DO UPDATE SET units = demand_line_shipments.units + EXCLUDED.units`,
      params: [
        entityId,
        livemode,
        sorted.map((r) => r.lineId),
        sorted.map((r) => r.productId),
        sorted.map((r) => r.units),
      ],
    };
  }

  async shippedOf(lineIds: readonly string[]): Promise<Map<string, number>> {
    if (lineIds.length === 0) return new Map();
    const { entityId, livemode } = RequestContext.caller();
    const rows: { order_line_id: string; units: string }[] = await this.tx.manager.query(
      `SELECT order_line_id, units FROM demand_line_shipments
        WHERE entity_id = $1 AND livemode = $2 AND order_line_id = ANY($3::uuid[])`,
      [entityId, livemode, [...new Set(lineIds)]],
    );
    return new Map(rows.map((r) => [r.order_line_id, Number(r.units)]));
  }
}
