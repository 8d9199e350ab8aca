/**
 * Demand as the changelog entry of 2026-09-22 defines it: fulfilled sales lines plus posted
 * build-consumption draws, each physical decrement counted once. Pure rules over ledger rows;
 * the facts a row does not carry itself (the document type of its order, the role of its order
 * line, the status of its build) are resolved by the caller and passed in.
 */

/** Document types of the sales context whose fulfilled lines are customer demand. */
export const SALES_DOCUMENT_TYPES: readonly string[] = ['sales_order', 'invoice'];

/**
 * The role of the order line a `fulfillment` row belongs to:
 * - `line`: an ordinary line;
 * - `kit_parent`: a kit line that carries component child lines;
 * - `kit_component`: a child line of a kit line.
 */
export type LineRole = 'line' | 'kit_parent' | 'kit_component';

/** One ledger row with the facts the demand rules need. Quantities are signed units. */
export interface DemandMovement {
  productId: string;
  locationId: string;
  type: string;
  quantity: number;
  /** Business day (YYYY-MM-DD, the entity's calendar) the row occurred on. */
  day: string;
  /** For `fulfillment` rows: the document type of the order (null when none). */
  documentType?: string | null;
  /** For `fulfillment` rows of order lines. */
  lineRole?: LineRole | null;
  /**
   * For rows of a `kit_parent` line: the kit was assembled to order (a posted build was made
   * for the line, or its component lines shipped), so the components' decrements are the
   * physical ones and the kit's own shipment is a pass-through. False: shipped from kit stock.
   */
  assembledToOrder?: boolean;
  /** For `build_consumption` rows: the build's status when the row was written. */
  buildStatus?: string | null;
}

/**
 * What a qualifying decrement is: `sale` (a fulfilled line of a sales document, sold as itself
 * or as a kit from stock), `component` (a component child line of a kit assembled to order) or
 * `build` (a posted build's draw on a component).
 */
export type DemandKind = 'sale' | 'component' | 'build';

/** The demand kind of one row, or null when the row is not demand. */
export function demandKind(m: DemandMovement): DemandKind | null {
  if (m.quantity >= 0) return null;
  if (m.type === 'fulfillment') {
    if (!m.documentType || !SALES_DOCUMENT_TYPES.includes(m.documentType)) return null;
    if (m.lineRole === 'kit_parent' && m.assembledToOrder) return null;
    return m.lineRole === 'kit_component' ? 'component' : 'sale';
  }
  if (m.type === 'build_consumption') return m.buildStatus === 'posted' ? 'build' : null;
  return null;
}

/** Demand units per kind. */
export type DemandByKind = Record<DemandKind, number>;
export const emptyDemand = (): DemandByKind => ({ sale: 0, component: 0, build: 0 });

export function totalDemand(d: DemandByKind): number {
  return d.sale + d.component + d.build;
}

/** Sums the demand of rows by kind (the per-day aggregate keeps exactly these sums). */
export function sumDemand(rows: readonly DemandMovement[]): DemandByKind {
  const sums = emptyDemand();
  for (const row of rows) {
    const kind = demandKind(row);
    if (kind) sums[kind] += -row.quantity;
  }
  return sums;
}

export const DEMAND_BASES = ['sales', 'sales_and_builds', 'builds', 'consumption'] as const;
export type DemandBasis = (typeof DEMAND_BASES)[number];

/**
 * Which sources the demand of a window came from:
 * - `sales_and_builds`: posted build draws and fulfilled sales lines (own or as a kit component);
 * - `builds`: posted build draws only (a component that is only built into kits);
 * - `sales`: fulfilled sales lines of the product itself (component lines may be present too),
 *   and also the basis of a window without any demand (a product is sold until shown otherwise);
 * - `consumption`: only component lines of kits assembled to order (the product is consumed by
 *   kits, never sold or built on its own).
 */
export function demandBasis(d: DemandByKind): DemandBasis {
  const sales = d.sale > 0 || d.component > 0;
  if (d.build > 0) return sales ? 'sales_and_builds' : 'builds';
  if (d.sale > 0) return 'sales';
  if (d.component > 0) return 'consumption';
  return 'sales';
}
