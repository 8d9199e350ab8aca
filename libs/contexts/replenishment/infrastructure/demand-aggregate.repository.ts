import { Injectable } from '@nestjs/common';
import { TransactionHost, WriteStatement } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { DemandByKind, DemandKind, emptyDemand } from '../domain/demand';
import { DEMAND_WINDOWS, WindowSums, windowStart } from '../domain/run-rates';

export interface DemandDelta {
  productId: string;
  locationId: string;
  day: string;
  kind: DemandKind;
  units: number;
}

const emptySums = (): WindowSums => ({
  30: emptyDemand(),
  90: emptyDemand(),
  180: emptyDemand(),
  365: emptyDemand(),
});

/**
 * Per (product, location, business day, demand kind) sums of qualifying stock decrements, kept
 * current by the stock-movement observer in the transaction that moves stock; answers the
 * trailing-window sums run rates are made of with one indexed range read.
 */
@Injectable()
export class DemandAggregateRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * The statement adding demand units (sorted, so concurrent shipments lock aggregate rows in one
   * order), for combinedWrite; null when there is nothing to add.
   */
  addStatement(deltas: readonly DemandDelta[]): WriteStatement | null {
    const merged = new Map<string, DemandDelta>();
    for (const d of deltas) {
      const key = `${d.productId}|${d.locationId}|${d.day}|${d.kind}`;
      const prev = merged.get(key);
      merged.set(key, prev ? { ...prev, units: prev.units + d.units } : { ...d });
    }
    const rows = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
    if (rows.length === 0) return null;
    const { entityId, livemode } = RequestContext.caller();
    return {
      sql: `INSERT INTO demand_daily (entity_id, livemode, product_id, location_id, day, kind, units)
       SELECT $1, $2, p, l, d, k, u
         FROM unnest($3::uuid[], $4::uuid[], $5::date[], $6::text[], $7::bigint[]) WITH ORDINALITY AS t(p, l, d, k, u, n)
        ORDER BY n
       ON CONFLICT (entity_id, livemode, product_id, location_id, day, kind)
       DO UPDATE SET units = demand_daily.units + EXCLUDED.units`,
      params: [
        entityId,
        livemode,
        rows.map((r) => r.productId),
        rows.map((r) => r.locationId),
        rows.map((r) => r.day),
        rows.map((r) => r.kind),
        rows.map((r) => r.units),
      ],
    };
  }

  /**
   * Window sums by kind for (product, location) pairs; a pair with a null location sums every
   * location of the product. One statement for any number of pairs.
   */
  async windowSums(
    pairs: readonly { productId: string; locationId: string | null }[],
    businessDay: string,
  ): Promise<WindowSums[]> {
    if (pairs.length === 0) return [];
    const { entityId, livemode } = RequestContext.caller();
    const starts = DEMAND_WINDOWS.map((w) => windowStart(businessDay, w));
    const rows: { n: string; kind: DemandKind; w30: string; w90: string; w180: string; w365: string }[] =
      await this.tx.manager.query(
        `SELECT q.n, a.kind,
                COALESCE(SUM(a.units) FILTER (WHERE a.day >= $5), 0) AS w30,
                COALESCE(SUM(a.units) FILTER (WHERE a.day >= $6), 0) AS w90,
                COALESCE(SUM(a.units) FILTER (WHERE a.day >= $7), 0) AS w180,
                COALESCE(SUM(a.units), 0) AS w365
           FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS q(p, l, n)
           JOIN demand_daily a
             ON a.entity_id = $1 AND a.livemode = $2 AND a.product_id = q.p
            AND (q.l IS NULL OR a.location_id = q.l)
            AND a.day >= $8 AND a.day <= $9
          GROUP BY q.n, a.kind`,
        [
          entityId,
          livemode,
          pairs.map((p) => p.productId),
          pairs.map((p) => p.locationId),
          starts[0],
          starts[1],
          starts[2],
          starts[3],
          businessDay,
        ],
      );
    const result = pairs.map(() => emptySums());
    for (const r of rows) {
      const sums = result[Number(r.n) - 1];
      sums[30][r.kind] += Number(r.w30);
      sums[90][r.kind] += Number(r.w90);
      sums[180][r.kind] += Number(r.w180);
      sums[365][r.kind] += Number(r.w365);
    }
    return result;
  }
}

export type { DemandByKind };
