import { Injectable } from '@nestjs/common';
import { EventPublisher, OutboxRow } from '#platform/events/event-publisher';
import { KeyedBatches } from '#platform/persistence/keyed-batches';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext, RequestState } from '#platform/tenancy/request-context';
import { BuiltPostings, PostingBatches, PostingRequest } from '#contexts/accounting';
import { toBalanceResource } from '../application/balance.presenter';
import { ReorderPointRegistry } from '../application/reorder-point-registry';
import { BatchedMovement, SharedMovementWrites } from '../application/shared-movement-writes.port';
import {
  ledgerRows,
  PlannedMovement,
  toStockMovement,
  valueMovements,
} from '../application/stock-ledger.service';
import { StockMovementObserverRegistry } from '../application/stock-movement-observer-registry';
import { InventoryError } from '../domain/inventory-error';
import { crossingEvents, StockLevel, stockLevelOf } from '../domain/stock';
import { BalanceKey, balanceKeyOf, BalanceRepository } from './balance.repository';
import { InventoryBalanceRecord, InventoryTransactionRecord } from './inventory.entities';
import { StockMovementWriter } from './stock-movement.writer';

interface Waiting {
  work: BatchedMovement<unknown>;
  /** The request's context (none for work no request asked for). */
  state: RequestState | undefined;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: unknown };

/** A request of the batch whose movements were valued. */
interface Accepted {
  index: number;
  w: Waiting;
  planned: PlannedMovement[];
  /** Its balances as it left them. */
  copies: Map<string, InventoryBalanceRecord>;
  crossings: OutboxRow[];
  posting: PostingRequest | null;
}

/** At most this many requests share one transaction. */
const MAX_BATCH = 64;

/** Runs `fn` in the context of the request `state` belongs to (the current one without it). */
const within = <T>(state: RequestState | undefined, fn: () => T): T =>
  state ? RequestContext.run(state, fn) : fn();

/**
 * The one writer of adjustments and transfers, a group commit: the requests of one entity and
 * mode that arrive while that entity's previous batch is being written wait for it and are then
 * written together, in one transaction:
 *
 * 1. one statement locks every balance of the batch (in the fixed order, creating missing ones);
 * 2. each request, in arrival order, gets its movements from the balances as the requests before
 *    it left them and has them valued; a request refused (an InventoryError: 422
 *    insufficient_stock, a count's 400) gives its balances back as they were and is left out
 *    before anything is written;
 * 3. one query per entry date reads the postings' accounts and period (PostingBatches); each
 *    posting is built for its own request (its key, its request id);
 * 4. one statement writes every ledger row, moved balance and event (threshold crossings per
 *    request, then the request's own event); the observers run; one statement writes every journal
 *    entry, its lines and event, numbered in order (the counter row is locked from there to commit);
 * 5. one COMMIT. Only then is any request of the batch answered.
 *
 * A request already inside a transaction of its own is a batch of one in that transaction. When
 * a batch of several fails for any other reason (an accounting check, a closed period, a request's
 * own write, a database error), nothing of it was committed and each request is written again as
 * a batch of one in its own transaction, so it gets exactly the outcome it would have had alone;
 * a batch of one answers its failure.
 */
@Injectable()
export class StockMovementBatches extends SharedMovementWrites {
  private readonly queues = new KeyedBatches<Waiting>(MAX_BATCH, (batch) => this.flush(batch));

  constructor(
    private readonly tx: TransactionHost,
    private readonly balances: BalanceRepository,
    private readonly writer: StockMovementWriter,
    private readonly events: EventPublisher,
    private readonly observers: StockMovementObserverRegistry,
    private readonly reorderPoints: ReorderPointRegistry,
    private readonly postings: PostingBatches,
  ) {
    super();
  }

  submit<T>(work: BatchedMovement<T>): Promise<T> {
    const state = RequestContext.state();
    return new Promise<T>((resolve, reject) => {
      const w: Waiting = {
        work: work as BatchedMovement<unknown>,
        state,
        resolve: resolve as (result: unknown) => void,
        reject,
      };
      // Inside a transaction of its own (or for no request), the request is a batch of one there.
      if (this.tx.inTransaction || !state?.caller) return void this.flush([w]);
      const { entityId, livemode } = state.caller;
      // Requests submitted in the same turn of the event loop join the first batch.
      this.queues.add(`${entityId}:${livemode}`, w);
    });
  }

  private async flush(batch: Waiting[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await within(batch[0].state, () => this.write(batch));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // Nothing of the batch was committed: each request is written again on its own.
      for (const w of batch) await this.flush([w]);
      return;
    }
    batch.forEach((w, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) w.resolve(outcome.result);
      else w.reject(outcome.error);
    });
  }

  /** Writes the batch in one transaction (the caller's when one is open); the outcome of each request, in order. */
  private write(batch: Waiting[]): Promise<Outcome[]> {
    return this.tx.run(async () => {
      const locked = await this.balances.lockForMovement(batch.flatMap((w) => w.work.balances));
      const { balances, allowNegativeStock } = locked;
      const reorderPoints = new Map<string, number | null>();
      const levels = new Map<string, StockLevel>();
      const points = await this.reorderPoints.effectiveMany([...balances.values()]);
      [...balances.keys()].forEach((key, i) => {
        reorderPoints.set(key, points[i]);
        levels.set(key, balances.get(key)!.stockLevel as StockLevel);
      });
      const now = new Date();
      const outcomes: Outcome[] = [];
      const accepted: Accepted[] = [];
      const moved = new Map<string, InventoryBalanceRecord>();
      const kept = new Set<string>();

      for (const [index, w] of batch.entries()) {
        const planned = await within(w.state, () => this.value(w.work, balances, allowNegativeStock));
        if (!Array.isArray(planned)) {
          outcomes[index] = { ok: false, error: planned.refused };
          continue;
        }
        const crossings: OutboxRow[] = [];
        const copies = new Map<string, InventoryBalanceRecord>();
        const movedKeys = new Set(planned.map(balanceKeyOf));
        for (const key of new Set(w.work.balances.map(balanceKeyOf))) {
          const balance = balances.get(key)!;
          kept.add(balance.id);
          if (movedKeys.has(key)) {
            const level = stockLevelOf(balance.onHand, reorderPoints.get(key) ?? null);
            balance.updatedAt = now;
            balance.stockLevel = level;
            for (const type of crossingEvents(levels.get(key) ?? level, level))
              crossings.push(this.events.outboxRow(type, toBalanceResource(balance)));
            levels.set(key, level);
            moved.set(key, balance);
          }
          copies.set(key, Object.assign(new InventoryBalanceRecord(), balance));
        }
        // Each movement keeps its balance as this request left it (later requests move it on).
        const own = planned.map((m) => ({ ...m, balance: copies.get(balanceKeyOf(m))! }));
        const posting = own.length > 0 ? within(w.state, () => w.work.posting(own)) : null;
        accepted.push({ index, w, planned: own, copies, crossings, posting });
      }

      const withPosting = accepted.filter((a) => a.posting !== null);
      let built: BuiltPostings | undefined;
      if (withPosting.length > 0)
        built = await this.postings.buildPostings(
          withPosting.map((a) => ({ request: a.posting!, state: a.w.state })),
        );
      const entryIds = new Map(withPosting.map((a, i) => [a, built!.entryIds[i]]));

      const rows: InventoryTransactionRecord[] = [];
      const events: OutboxRow[] = [];
      for (const a of accepted)
        within(a.w.state, () => {
          const entryId = entryIds.get(a) ?? null;
          const own = ledgerRows(a.planned, entryId, now, now);
          const copyOf = (key: BalanceKey) => a.copies.get(balanceKeyOf(key))!;
          const { result, events: ownEvents } = a.w.work.present(a.planned, own, entryId, copyOf);
          rows.push(...own);
          events.push(...a.crossings, ...ownEvents.map((e) => this.events.outboxRow(e.type, e.object)));
          outcomes[a.index] = { ok: true, result };
        });

      for (const balance of moved.values()) balance.version += 1;
      await this.balances.deleteUnmoved([...locked.created].filter((id) => !kept.has(id)));
      await this.writer.write(rows, [...moved.values()], events);
      await this.observers.notify(rows.map(toStockMovement));
      if (built) await this.postings.writeBuiltPostings(built);
      return outcomes;
    });
  }

  /**
   * One request's movements, valued on the batch's balances (which they move); its refusal when an
   * InventoryError refuses it before it wrote anything, its balances then given back as they were.
   * Once the request wrote (its serials), any error fails the batch.
   */
  private async value(
    work: BatchedMovement<unknown>,
    balances: Map<string, InventoryBalanceRecord>,
    allowNegativeStock: boolean,
  ): Promise<PlannedMovement[] | { refused: InventoryError }> {
    const balanceOf = (key: BalanceKey) => balances.get(balanceKeyOf(key))!;
    const saved = work.balances.map((key) => {
      const b = balanceOf(key);
      return { b, onHand: b.onHand, value: b.value, unitCost: b.unitCost };
    });
    let wrote = false;
    try {
      const movements = work.movements(balanceOf);
      if (movements.length > 0 && work.beforeValuing) {
        wrote = true;
        await work.beforeValuing(movements);
      }
      const planned = valueMovements(balances, allowNegativeStock, movements);
      if (work.afterValuing) {
        wrote = true;
        await work.afterValuing(planned);
      }
      return planned;
    } catch (error) {
      if (wrote || !(error instanceof InventoryError)) throw error;
      for (const s of saved) Object.assign(s.b, { onHand: s.onHand, value: s.value, unitCost: s.unitCost });
      return { refused: error };
    }
  }
}
