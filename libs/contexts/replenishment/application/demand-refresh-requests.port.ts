/**
 * Port owned by replenishment: asks for the refresh of products' stored demand averages after
 * the movement that marked them (DemandWriter.record) in the open transaction. The refresh must
 * see those marks, so the request leaves only once that transaction committed, and never for one
 * that rolled back (infrastructure/demand-refresh-after-commit.ts).
 */
export abstract class DemandRefreshRequests {
  /** Asks for the refresh of `productIds`, marked in the open transaction; none asked for none. */
  abstract request(productIds: readonly string[]): void;
}
