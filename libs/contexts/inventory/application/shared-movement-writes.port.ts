import type { PostingRequest } from '#contexts/accounting';
import type { BalanceKey } from '../infrastructure/balance.repository';
import type {
  InventoryBalanceRecord,
  InventoryTransactionRecord,
} from '../infrastructure/inventory.entities';
import type { MovementRequest, PlannedMovement } from './stock-ledger.service';

/**
 * One request's stock movement as the stock-movement writer runs it, in a transaction it may share
 * with the movements of other requests of its entity and mode. Its steps run in order, each in the
 * request's own context, on the balances as the requests before it in its transaction left them.
 */
export interface BatchedMovement<T> {
  /** The balances it reads or moves: locked with the others of its transaction, created at zero where missing. */
  balances: BalanceKey[];
  /**
   * Its movements, from its balances (a count becomes the change that brings on hand to it; none
   * when nothing changes). An InventoryError thrown here refuses this request alone.
   */
  movements(balanceOf: (key: BalanceKey) => InventoryBalanceRecord): MovementRequest[];
  /** Its own writes before its movements are valued (an adjustment's serials received or retired). */
  beforeValuing?(movements: readonly MovementRequest[]): Promise<void>;
  /** Its own writes once its movements are valued (a transfer's serials relocated). */
  afterValuing?(planned: readonly PlannedMovement[]): Promise<void>;
  /** Its journal posting from its valued movements, when it has any (null: nothing to post). */
  posting(planned: readonly PlannedMovement[]): PostingRequest | null;
  /**
   * Its response and its own events, from its valued movements, its ledger rows, its journal entry
   * and its balances, each movement's and `balanceOf`'s a copy of the balance as this request left it.
   */
  present(
    planned: readonly PlannedMovement[],
    rows: readonly InventoryTransactionRecord[],
    journalEntryId: string | null,
    balanceOf: (key: BalanceKey) => InventoryBalanceRecord,
  ): { result: T; events: { type: string; object: unknown }[] };
}

/**
 * Port owned by inventory: the one way an adjustment or a transfer is written (the group commit of
 * infrastructure/stock-movement-batches.ts). A request gets the outcome it would have had alone,
 * whether it shares its transaction with other requests, runs in its caller's transaction or runs
 * again alone after the transaction it shared failed.
 */
export abstract class SharedMovementWrites {
  /** Writes `work`; settles once its transaction committed (or with its refusal). */
  abstract submit<T>(work: BatchedMovement<T>): Promise<T>;
}
