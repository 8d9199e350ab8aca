import { Injectable } from '@nestjs/common';
import { EventPublisher, OutboxRow } from '#platform/events/event-publisher';
import { KeyedBatches } from '#platform/persistence/keyed-batches';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext, RequestState } from '#platform/tenancy/request-context';
import { LedgerPostingService, PostingRequest, PreparedPosting } from '#contexts/accounting';
import { toBalanceResource } from '../application/balance.presenter';
import { InventoryPostings } from '../application/inventory-postings.service';
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
import { balanceKeyOf, BalanceRepository } from './balance.repository';
import { InventoryBalanceRecord, InventoryTransactionRecord } from './inventory.entities';
import { StockMovementWriter } from './stock-movement.writer';

interface Waiting {
  work: BatchedMovement<unknown>;
  state: RequestState;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: unknown };

/** At most this many requests share one transaction. */
const MAX_BATCH = 64;

/**
 * Group commit of stock movements: the adjustments and transfers of one entity and mode that
 * arrive while that entity's previous batch is being written wait for it and are then written
 * together, in one transaction:
 *
 * 1. one statement locks every balance of the batch (in the fixed order, creating missing ones);
 * 2. the movements are valued request by request, in arrival order, on the balances as the
 *    requests before left them; a request refused for stock (422 insufficient_stock) gives its
 *    balances back as they were and is left out before anything is written;
 * 3. one query reads the postings' accounts and period; each posting is built for its own request
 *    (its key, its request id);
 * 4. one statement writes every ledger row, moved balance and event (threshold crossings per
 *    request, then the request's own event); the observers run; one statement writes every journal
 *    entry, its lines and event, numbered in order (the counter row is locked from there to commit);
 * 5. one COMMIT. Only then is any request of the batch answered.
 *
 * When the batch fails for any other reason (an accounting check, a closed period, a database
 * error), nothing of it was committed and each request runs again alone, in its own transaction,
 * so it gets exactly the outcome it would have had alone.
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
    private readonly postings: InventoryPostings,
    private readonly ledgerPostings: LedgerPostingService,
  ) {
    super();
  }

  /** Whether a request may join a batch: it must not be inside a transaction of its own. */
  get available(): boolean {
    return !this.tx.inTransaction && RequestContext.state()?.caller !== undefined;
  }

  /** Queues `work` for its entity's next batch; settles after that batch committed (or failed). */
  submit<T>(work: BatchedMovement<T>): Promise<T> {
    const state = RequestContext.state()!;
    const { entityId, livemode } = RequestContext.caller();
    const key = `${entityId}:${livemode}`;
    return new Promise<T>((resolve, reject) => {
      // Requests submitted in the same turn of the event loop join the first batch.
      this.queues.add(key, {
        work: work as BatchedMovement<unknown>,
        state,
        resolve: resolve as (result: unknown) => void,
        reject,
      });
    });
  }

  private async flush(batch: Waiting[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await RequestContext.run(batch[0].state, () => this.write(batch));
    } catch {
      // Nothing of the batch was committed: each request runs again on its own.
      for (const w of batch) {
        try {
          w.resolve(await RequestContext.run(w.state, () => w.work.alone()));
        } catch (error) {
          w.reject(error);
        }
      }
      return;
    }
    batch.forEach((w, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) w.resolve(outcome.result);
      else w.reject(outcome.error);
    });
  }

  /** Writes the batch in one transaction; the outcome of each request, in order. */
  private write(batch: Waiting[]): Promise<Outcome[]> {
    return this.tx.run(async () => {
      const locked = await this.balances.lockForMovement(batch.flatMap((w) => w.work.movements));
      const { balances, allowNegativeStock } = locked;
      const reorderPoints = new Map<string, number | null>();
      const levels = new Map<string, StockLevel>();
      const points = await this.reorderPoints.effectiveMany([...balances.values()]);
      [...balances.keys()].forEach((key, i) => {
        reorderPoints.set(key, points[i]);
        levels.set(key, balances.get(key)!.stockLevel as StockLevel);
      });
      const entryDate = await this.postings.businessDay();
      const now = new Date();
      const outcomes: Outcome[] = [];
      const accepted: {
        index: number;
        w: Waiting;
        planned: PlannedMovement[];
        crossings: OutboxRow[];
        posting: PostingRequest | null;
        entry?: PreparedPosting;
      }[] = [];
      const moved = new Map<string, InventoryBalanceRecord>();

      batch.forEach((w, index) =>
        RequestContext.run(w.state, () => {
          const keys = [...new Set(w.work.movements.map(balanceKeyOf))];
          const saved = keys.map((key) => {
            const b = balances.get(key)!;
            return { b, onHand: b.onHand, value: b.value, unitCost: b.unitCost };
          });
          let planned: PlannedMovement[];
          try {
            planned = valueMovements(balances, allowNegativeStock, w.work.movements);
          } catch (error) {
            if (!(error instanceof InventoryError && error.code === 'insufficient_stock')) throw error;
            for (const s of saved)
              Object.assign(s.b, { onHand: s.onHand, value: s.value, unitCost: s.unitCost });
            outcomes[index] = { ok: false, error };
            return;
          }
          const crossings: OutboxRow[] = [];
          const copies = new Map<string, InventoryBalanceRecord>();
          for (const key of keys) {
            const balance = balances.get(key)!;
            const level = stockLevelOf(balance.onHand, reorderPoints.get(key) ?? null);
            balance.updatedAt = now;
            balance.stockLevel = level;
            for (const type of crossingEvents(levels.get(key) ?? level, level))
              crossings.push(this.events.outboxRow(type, toBalanceResource(balance)));
            levels.set(key, level);
            moved.set(key, balance);
            copies.set(key, Object.assign(new InventoryBalanceRecord(), balance));
          }
          // Each movement keeps its balance as this request left it (later requests move it on).
          planned = planned.map((m) => ({ ...m, balance: copies.get(balanceKeyOf(m))! }));
          accepted.push({ index, w, planned, crossings, posting: w.work.posting(planned, entryDate) });
        }),
      );

      const withPosting = accepted.filter((a) => a.posting !== null);
      if (withPosting.length > 0) {
        const facts = await this.ledgerPostings.postingFacts(withPosting.map((a) => a.posting!));
        for (const a of withPosting)
          a.entry = RequestContext.run(a.w.state, () =>
            this.ledgerPostings.preparePosting(a.posting!, facts),
          );
      }

      const rows: InventoryTransactionRecord[] = [];
      const events: OutboxRow[] = [];
      for (const a of accepted)
        RequestContext.run(a.w.state, () => {
          const entryId = a.entry?.entry.id ?? null;
          const own = ledgerRows(a.planned, entryId, now, now);
          const { result, events: ownEvents } = a.w.work.present(a.planned, own, entryId);
          rows.push(...own);
          events.push(...a.crossings, ...ownEvents.map((e) => this.events.outboxRow(e.type, e.object)));
          outcomes[a.index] = { ok: true, result };
        });

      for (const balance of moved.values()) balance.version += 1;
      await this.balances.deleteUnmoved(
        [...locked.created].filter((id) => ![...moved.values()].some((b) => b.id === id)),
      );
      await this.writer.write(rows, [...moved.values()], events);
      await this.observers.notify(rows.map(toStockMovement));
      await this.ledgerPostings.writePostings(withPosting.map((a) => a.entry!));
      return outcomes;
    });
  }
}
