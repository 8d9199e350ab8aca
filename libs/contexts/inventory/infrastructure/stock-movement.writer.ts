import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { OutboxRow } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { InventoryBalanceRecord, InventoryTransactionRecord } from './inventory.entities';

/**
 * Writes a stock movement's ledger rows, its moved balances and its outbox events in one
 * statement, in the open transaction (the balances are already locked by
 * BalanceRepository.lockForMovement). A balance left holding nothing (no units on hand,
 * allocated or on order, no value, no reorder settings) that has no ledger row is deleted
 * instead: it only ever held a commitment, and an empty row would stay behind for good.
 */
@Injectable()
export class StockMovementWriter {
  constructor(private readonly tx: TransactionHost) {}

  async write(
    rows: readonly InventoryTransactionRecord[],
    balances: readonly InventoryBalanceRecord[],
    events: readonly OutboxRow[],
  ): Promise<void> {
    const scope = rows[0] ?? balances[0];
    if (!scope) return;
    await this.tx.transactional.query(
      `WITH t AS (
         INSERT INTO inventory_transactions (id, entity_id, livemode, created_at, updated_at, version, balance_id,
           product_id, variant_id, location_id, type, quantity, unit_cost, value, source_type, source_id, order_id,
           order_item_id, reason, serial_numbers, journal_entry_id, occurred_at)
         SELECT id, $4, $5, created_at, created_at, 1, balance_id, product_id, variant_id, location_id, type, quantity,
           unit_cost, value, source_type, source_id, order_id, order_item_id, reason, serial_numbers, journal_entry_id,
           occurred_at
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, created_at timestamptz, balance_id uuid, product_id uuid,
           variant_id uuid, location_id uuid, type text, quantity int, unit_cost numeric, value numeric, source_type text,
           source_id uuid, order_id uuid, order_item_id uuid, reason text, serial_numbers jsonb, journal_entry_id uuid,
           occurred_at timestamptz)),
       b AS (
         UPDATE inventory_balances AS b SET on_hand = v.on_hand, allocated = v.allocated, on_order = v.on_order,
           unit_cost = v.unit_cost, value = v.value, stock_level = v.stock_level, reorder_point = v.reorder_point,
           reorder_quantity = v.reorder_quantity, safety_stock = v.safety_stock, updated_at = v.updated_at,
           version = b.version + 1
         FROM jsonb_to_recordset($2::jsonb) AS v(id uuid, on_hand int, allocated int, on_order int, unit_cost numeric,
           value numeric, stock_level text, reorder_point int, reorder_quantity int, safety_stock int,
           updated_at timestamptz)
         WHERE b.id = v.id AND b.entity_id = $4 AND b.livemode = $5
           AND NOT (v.id = ANY($6::uuid[]) AND NOT EXISTS (SELECT 1 FROM inventory_transactions x WHERE x.balance_id = v.id))),
       d AS (
         DELETE FROM inventory_balances AS b
         WHERE b.id = ANY($6::uuid[]) AND b.entity_id = $4 AND b.livemode = $5
           AND NOT EXISTS (SELECT 1 FROM inventory_transactions x WHERE x.balance_id = b.id)),
       o AS (
         INSERT INTO outbox_events (id, entity_id, livemode, type, api_version, data, request_id, created_at, dispatched_at)
         SELECT id, $4, $5, type, api_version, data, request_id, created_at, NULL
         FROM jsonb_to_recordset($3::jsonb) AS e(id uuid, type text, api_version text, data jsonb, request_id text,
           created_at timestamptz))
       SELECT 1`,
      [
        JSON.stringify(
          rows.map((r) => ({
            id: r.id,
            created_at: r.createdAt,
            balance_id: r.balanceId,
            product_id: r.productId,
            variant_id: r.variantId,
            location_id: r.locationId,
            type: r.type,
            quantity: r.quantity,
            unit_cost: amount(r.unitCost),
            value: amount(r.value),
            source_type: r.sourceType,
            source_id: r.sourceId,
            order_id: r.orderId,
            order_item_id: r.orderItemId,
            reason: r.reason,
            serial_numbers: r.serialNumbers,
            journal_entry_id: r.journalEntryId,
            occurred_at: r.occurredAt,
          })),
        ),
        JSON.stringify(
          balances.map((b) => ({
            id: b.id,
            on_hand: b.onHand,
            allocated: b.allocated,
            on_order: b.onOrder,
            unit_cost: amount(b.unitCost),
            value: amount(b.value),
            stock_level: b.stockLevel,
            reorder_point: b.reorderPoint,
            reorder_quantity: b.reorderQuantity,
            safety_stock: b.safetyStock,
            updated_at: b.updatedAt,
          })),
        ),
        JSON.stringify(
          events.map((e) => ({
            id: e.id,
            type: e.type,
            api_version: e.apiVersion,
            data: e.data,
            request_id: e.requestId,
            created_at: e.createdAt,
          })),
        ),
        scope.entityId,
        scope.livemode,
        balances.filter((b) => isEmpty(b) && !rows.some((r) => r.balanceId === b.id)).map((b) => b.id),
      ],
    );
  }
}

const amount = (value: Decimal) => value.toFixed(4);

/** A balance that holds no units, commitments, value or reorder settings. */
const isEmpty = (b: InventoryBalanceRecord) =>
  b.onHand === 0 &&
  b.allocated === 0 &&
  b.onOrder === 0 &&
  b.value.isZero() &&
  b.reorderPoint === null &&
  b.reorderQuantity === null &&
  b.safetyStock === null;
