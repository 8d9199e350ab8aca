import type { PostingRequest } from '#contexts/accounting';
import type { InventoryTransactionRecord } from '../infrastructure/inventory.entities';
import type { MovementRequest, PlannedMovement } from './stock-ledger.service';

/** One request's stock movement, written in a transaction it may share with other requests. */
export interface BatchedMovement<T> {
  /** Its movements, valued in order on the balances as the requests before it in its batch left them. */
  movements: MovementRequest[];
  /** Its journal posting on `entryDate` from its valued movements (null: nothing to post). */
  posting(planned: readonly PlannedMovement[], entryDate: string): PostingRequest | null;
  /**
   * Its response and its own events, from its valued movements (each with a copy of its balance
   * as this request left it), its ledger rows and its journal entry.
   */
  present(
    planned: readonly PlannedMovement[],
    rows: readonly InventoryTransactionRecord[],
    journalEntryId: string | null,
  ): { result: T; events: { type: string; object: unknown }[] };
  /** The same request on its own, in its own transaction: after its batch failed in the database. */
  alone(): Promise<T>;
}

/**
 * Port owned by inventory: the stock movements of requests that may share one transaction with
 * other requests of the same entity and mode (the group commit of
 * infrastructure/stock-movement-batches.ts, which writes them together, each request keeping the
 * outcome it would have had alone).
 */
export abstract class SharedMovementWrites {
  /** Whether the current request may share its write: it is not inside a transaction of its own. */
  abstract get available(): boolean;

  /** Writes `work` with the movements of other requests; settles once they committed (or failed). */
  abstract submit<T>(work: BatchedMovement<T>): Promise<T>;
}
