import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher, OutboxRow } from '#platform/events/event-publisher';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import {
  assertStockSuffices,
  crossingEvents,
  MovementType,
  stockLevelOf,
  StockLevel,
  valueMovement,
} from '../domain/stock';
import { BalanceKey, balanceKeyOf, BalanceRepository } from '../infrastructure/balance.repository';
import { InventoryBalanceRecord, InventoryTransactionRecord } from '../infrastructure/inventory.entities';
import { StockMovementWriter } from '../infrastructure/stock-movement.writer';
import { toBalanceResource } from './balance.presenter';
import { PreparedReorderPoints, ReorderPointRegistry } from './reorder-point-registry';
import { PreparedObservers, StockMovementObserverRegistry } from './stock-movement-observer-registry';
import { ShipmentLine, StockMovement } from './stock-movements.types';

/** One stock movement asked for: a future ledger row. */
export interface MovementRequest extends BalanceKey {
  type: MovementType;
  /** Signed, non-zero. */
  quantity: number;
  /** Cost of incoming units; without it they come in at the balance's average. */
  unitCost?: Decimal;
  sourceType: string | null;
  sourceId: string | null;
  orderId?: string | null;
  orderItemId?: string | null;
  reason?: string | null;
  serialNumbers?: string[];
  /** The request field named by insufficient_stock. */
  param?: string;
  /** Index of an earlier movement of the same plan whose value this one takes, negated (a transfer's two halves). */
  takesValueOf?: number;
  /** The exact value of an incoming movement, from the movements planned before it (a build's output). */
  valueFrom?: (earlier: readonly PlannedMovement[]) => Decimal;
}

/** A change of a balance's commitments (no ledger row: allocated and on_order are not stock). */
export interface CommitmentDelta extends BalanceKey {
  allocated?: number;
  onOrder?: number;
}

/** A valued movement, before it is written. */
export interface PlannedMovement extends MovementRequest {
  balance: InventoryBalanceRecord;
  unitCostApplied: Decimal;
  value: Decimal;
}

export interface MovementPlan {
  movements: PlannedMovement[];
  balances: Map<string, InventoryBalanceRecord>;
  /** Each touched balance's level before the plan, to emit crossings once. */
  levelsBefore: Map<string, StockLevel>;
  /** The reorder points of the plan's balances, their reads started with the balances' lock. */
  reorderPoints: PreparedReorderPoints;
  /** The stock-movement observers, their first reads started with the balances' lock. */
  observed: PreparedObservers;
}

/** Shipped lines as the order's `fulfillment` ledger rows (stock leaving; serials are the caller's to add). */
export function shipmentMovements(
  lines: readonly ShipmentLine[],
  source: { sourceType: string; sourceId: string; orderId: string },
): MovementRequest[] {
  return lines.map((line, i) => ({
    productId: line.productId,
    variantId: line.variantId ?? null,
    locationId: line.locationId,
    type: 'fulfillment' as const,
    quantity: -line.quantity,
    sourceType: source.sourceType,
    sourceId: source.sourceId,
    orderId: source.orderId,
    orderItemId: line.orderItemId,
    param: `lines[${i}].quantity`,
  }));
}

/**
 * The one writer of the stock ledger. `plan()` locks every balance involved (created at zero
 * when new) and values the movements at the moving average, in order; the caller may then post
 * to the ledger with the values; `apply()` inserts the ledger rows, writes the balances in the
 * same transaction, emits the threshold events once per crossing and calls the observers.
 * Reads and writes go through raw statements (no entity hydration): one to lock the balances
 * (with the negative-stock setting), one to write the rows, balances and events.
 */
@Injectable()
export class StockLedger {
  constructor(
    private readonly tx: TransactionHost,
    private readonly balances: BalanceRepository,
    private readonly writer: StockMovementWriter,
    private readonly events: EventPublisher,
    private readonly observers: StockMovementObserverRegistry,
    private readonly reorderPoints: ReorderPointRegistry,
  ) {}

  async plan(movements: MovementRequest[], commitments: CommitmentDelta[] = []): Promise<MovementPlan> {
    if (!this.tx.inTransaction) throw new Error('Stock moves only inside TransactionHost.run()');
    const keys = [...movements, ...commitments];
    // The reorder points' reads that need only the products leave with the balances' lock.
    const locking = this.balances.lockForMovement(keys);
    const reorderPoints = this.reorderPoints.prepare(keys.map((k) => k.productId));
    const observed = this.observers.prepare(movements);
    const { balances, allowNegativeStock: allowNegative } = await locking;
    const levelsBefore = new Map<string, StockLevel>();
    for (const [key, b] of balances) levelsBefore.set(key, b.stockLevel as StockLevel);
    const planned = valueMovements(balances, allowNegative, movements);
    for (const c of commitments) {
      const balance = balances.get(balanceKeyOf(c))!;
      balance.allocated = Math.max(0, balance.allocated + (c.allocated ?? 0));
      balance.onOrder = Math.max(0, balance.onOrder + (c.onOrder ?? 0));
    }
    return { movements: planned, balances, levelsBefore, reorderPoints, observed };
  }

  /** Total signed value of the planned movements. */
  static totalValue(movements: readonly PlannedMovement[]): Decimal {
    return movements.reduce((sum, m) => sum.plus(m.value), money(0));
  }

  /**
   * Writes the plan: its ledger rows, its balances and the events (the threshold crossings, then
   * the caller's `events`, built from the rows about to be written) in one statement, sent together
   * with the observers' first statements.
   */
  async apply(
    plan: MovementPlan,
    options: {
      journalEntryId?: string | null;
      occurredAt?: Date;
      events?: (rows: readonly InventoryTransactionRecord[]) => { type: string; object: unknown }[];
    } = {},
  ): Promise<InventoryTransactionRecord[]> {
    const now = new Date();
    const occurredAt = options.occurredAt ?? now;
    const rows = ledgerRows(plan.movements, options.journalEntryId ?? null, occurredAt, now);
    const events: OutboxRow[] = [];
    const points = await plan.reorderPoints.effectiveMany([...plan.balances.values()]);
    for (const [i, [key, balance]] of [...plan.balances].entries()) {
      balance.updatedAt = now;
      const level = stockLevelOf(balance.onHand, points[i]);
      balance.stockLevel = level;
      balance.version += 1;
      for (const type of crossingEvents(plan.levelsBefore.get(key) ?? level, level)) {
        events.push(this.events.outboxRow(type, toBalanceResource(balance)));
      }
    }
    for (const e of options.events?.(rows) ?? []) events.push(this.events.outboxRow(e.type, e.object));
    // The observers' writes leave with the ledger's (their reads left with the balances' lock).
    await this.writer.write(rows, [...plan.balances.values()], events);
    await plan.observed.notify(rows.map(toStockMovement));
    return rows;
  }
}

/**
 * Values `movements` in order on their locked balances at the moving average, moving the balances
 * (on hand, value, average cost); 422 insufficient_stock (before that movement moves its balance)
 * when one would leave on hand below zero and negative stock is not allowed.
 */
export function valueMovements(
  balances: ReadonlyMap<string, InventoryBalanceRecord>,
  allowNegative: boolean,
  movements: readonly MovementRequest[],
): PlannedMovement[] {
  const planned: PlannedMovement[] = [];
  for (const m of movements) {
    const balance = balances.get(balanceKeyOf(m))!;
    assertStockSuffices({
      onHand: balance.onHand,
      quantity: m.quantity,
      allowNegative,
      productId: m.productId,
      locationId: m.locationId,
      param: m.param,
    });
    const valued = valueMovement(
      { onHand: balance.onHand, value: balance.value, unitCost: balance.unitCost },
      m.quantity,
      m.unitCost,
      m.takesValueOf !== undefined
        ? planned[m.takesValueOf].value.negated()
        : m.valueFrom
          ? m.valueFrom(planned)
          : undefined,
    );
    balance.onHand = valued.after.onHand;
    balance.value = money(valued.after.value);
    balance.unitCost = money(valued.after.unitCost);
    planned.push({ ...m, balance, unitCostApplied: money(valued.unitCost), value: money(valued.value) });
  }
  return planned;
}

/** The ledger rows of valued movements, for the caller's entity and mode. */
export function ledgerRows(
  movements: readonly PlannedMovement[],
  journalEntryId: string | null,
  occurredAt: Date,
  now: Date,
): InventoryTransactionRecord[] {
  const { entityId, livemode } = RequestContext.caller();
  return movements.map((m) =>
    Object.assign(new InventoryTransactionRecord(), {
      id: newId(),
      entityId,
      livemode,
      createdAt: now,
      updatedAt: now,
      version: 1,
      balanceId: m.balance.id,
      productId: m.productId,
      variantId: m.variantId,
      locationId: m.locationId,
      type: m.type,
      quantity: m.quantity,
      unitCost: m.unitCostApplied,
      value: m.value,
      sourceType: m.sourceType,
      sourceId: m.sourceId,
      orderId: m.orderId ?? null,
      orderItemId: m.orderItemId ?? null,
      reason: m.reason ?? null,
      serialNumbers: m.serialNumbers ?? [],
      journalEntryId,
      occurredAt,
    }),
  );
}

/** A written ledger row as the observers see it. */
export function toStockMovement(r: InventoryTransactionRecord): StockMovement {
  return {
    transactionId: r.id,
    productId: r.productId,
    variantId: r.variantId,
    locationId: r.locationId,
    type: r.type as MovementType,
    quantity: r.quantity,
    unitCost: r.unitCost.toFixed(4),
    value: r.value.toFixed(4),
    sourceType: r.sourceType,
    sourceId: r.sourceId,
    orderId: r.orderId,
    orderItemId: r.orderItemId,
    occurredAt: r.occurredAt,
  };
}
