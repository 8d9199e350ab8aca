import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '../../../platform/events/event-publisher';
import { money } from '../../../platform/persistence/money';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
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
import { InventorySettingsRepository } from '../infrastructure/inventory-settings.repository';
import { InventoryTransactionRepository } from '../infrastructure/inventory-transaction.repository';
import { toBalanceResource } from './balance.presenter';
import { ReorderPointSources } from './reorder-point-sources';
import { StockMovementObservers } from './stock-movement-observers';

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
}

/**
 * The one writer of the stock ledger. `plan()` locks every balance involved (created at zero
 * when new) and values the movements at the moving average, in order; the caller may then post
 * to the ledger with the values; `apply()` inserts the ledger rows, writes the balances in the
 * same transaction, emits the threshold events once per crossing and calls the observers.
 */
@Injectable()
export class StockLedger {
  constructor(
    private readonly tx: TransactionHost,
    private readonly balances: BalanceRepository,
    private readonly transactions: InventoryTransactionRepository,
    private readonly settings: InventorySettingsRepository,
    private readonly events: EventPublisher,
    private readonly observers: StockMovementObservers,
    private readonly reorderPoints: ReorderPointSources,
  ) {}

  async plan(movements: MovementRequest[], commitments: CommitmentDelta[] = []): Promise<MovementPlan> {
    if (!this.tx.inTransaction) throw new Error('Stock moves only inside TransactionHost.run()');
    const balances = await this.balances.lockForMovement([...movements, ...commitments]);
    const levelsBefore = new Map<string, StockLevel>();
    for (const [key, b] of balances) levelsBefore.set(key, b.stockLevel as StockLevel);
    const allowNegative = movements.some((m) => m.quantity < 0)
      ? (await this.settings.current()).allowNegativeStock
      : false;
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
    for (const c of commitments) {
      const balance = balances.get(balanceKeyOf(c))!;
      balance.allocated = Math.max(0, balance.allocated + (c.allocated ?? 0));
      balance.onOrder = Math.max(0, balance.onOrder + (c.onOrder ?? 0));
    }
    return { movements: planned, balances, levelsBefore };
  }

  /** Total signed value of the planned movements. */
  static totalValue(movements: readonly PlannedMovement[]): Decimal {
    return movements.reduce((sum, m) => sum.plus(m.value), money(0));
  }

  async apply(
    plan: MovementPlan,
    options: { journalEntryId?: string | null; occurredAt?: Date } = {},
  ): Promise<InventoryTransactionRecord[]> {
    const occurredAt = options.occurredAt ?? new Date();
    const rows = await this.transactions.createMany(
      plan.movements.map((m) => ({
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
        journalEntryId: options.journalEntryId ?? null,
        occurredAt,
      })),
    );
    const now = new Date();
    for (const [key, balance] of plan.balances) {
      balance.updatedAt = now;
      const level = stockLevelOf(balance.onHand, await this.reorderPoints.effective(balance));
      balance.stockLevel = level;
      await this.balances.writeMoved(balance);
      for (const type of crossingEvents(plan.levelsBefore.get(key) ?? level, level)) {
        await this.events.publish(type, toBalanceResource(balance));
      }
    }
    await this.observers.notify(
      rows.map((r) => ({
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
      })),
    );
    return rows;
  }
}
