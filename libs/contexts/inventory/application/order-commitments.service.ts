import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import type { CommittedOrder, OrderCommitmentsListener } from '#contexts/sales';
import { StockCommitmentRecord } from '../infrastructure/inventory.entities';
import { releaseDeltas } from '../domain/commitment';
import { StockCommitmentRepository } from '../infrastructure/stock-commitment.repository';
import { SerialsService } from './serials.service';
import { CommitmentDelta, StockLedger } from './stock-ledger.service';
import { StockReferences } from './stock-references';

type Kind = StockCommitmentRecord['kind'];

/**
 * Keeps `allocated` (confirmed, unshipped sales lines) and `on_order` (confirmed, unreceived
 * purchase-order lines) current: sales calls `orderChanged` in the transaction of every
 * confirm, cancel, void, close, fulfill and line change; shipping and receiving release what
 * they move. One commitment row per order line holds what is still open, so a balance's
 * allocated and on_order move by deltas under the balance lock, never summed per request.
 * A line commits at the entity's default location (inventory settings), else its oldest location,
 * until it ships: a line shipped from another location moves what stays open of it there.
 */
@Injectable()
export class OrderCommitmentsService implements OrderCommitmentsListener {
  constructor(
    private readonly tx: TransactionHost,
    private readonly commitments: StockCommitmentRepository,
    private readonly references: StockReferences,
    private readonly ledger: StockLedger,
    private readonly serials: SerialsService,
  ) {}

  async orderChanged(order: CommittedOrder): Promise<void> {
    await this.sync(order, true);
  }

  /** Only `order.lines` changed: their commitments alone are read, locked and moved. */
  async linesChanged(order: CommittedOrder): Promise<void> {
    await this.sync(order, false);
  }

  /**
   * Brings the commitments of `order.lines` to what the order's status asks for; with `whole`,
   * the lines are all of the order's, so a commitment of a line no longer there is released.
   */
  private async sync(order: CommittedOrder, whole: boolean): Promise<void> {
    const kind: Kind | null =
      order.documentType === 'sales_order'
        ? 'allocated'
        : order.documentType === 'purchase_order'
          ? 'on_order'
          : null;
    if (!kind) return;
    await this.tx.run(async () => {
      const open = order.orderStatus === 'confirmed';
      const existing = whole
        ? await this.commitments.ofOrderForUpdate(order.orderId, kind)
        : await this.commitments.ofLinesForUpdate(
            order.orderId,
            kind,
            order.lines.map((l) => l.orderItemId),
          );
      if (!open && existing.length === 0) return;
      const byLine = new Map(existing.map((c) => [c.orderItemId, c]));
      const deltas: CommitmentDelta[] = [];
      const release = (c: StockCommitmentRecord) => {
        if (c.openQuantity > 0 && c.locationId)
          deltas.push(this.delta(kind, c.productId, c.locationId, -c.openQuantity));
        c.openQuantity = 0;
      };
      let location: string | null | undefined;
      const seen = new Set<string>();
      // A commitment is written only when it changes: an order's unchanged lines cost no statement.
      const stateOf = (c: StockCommitmentRecord) =>
        `${c.productId}:${c.quantity}:${c.openQuantity}:${c.doneQuantity}`;
      for (const line of order.lines) {
        seen.add(line.orderItemId);
        const current = byLine.get(line.orderItemId);
        const was = current ? stateOf(current) : null;
        const stocked = line.productId ? await this.isStocked(line.productId) : false;
        if (!stocked || !line.productId) {
          if (current) {
            release(current);
            if (stateOf(current) !== was) await this.commitments.save(current);
          }
          continue;
        }
        if (current && current.productId !== line.productId) {
          release(current);
          current.productId = line.productId;
          current.doneQuantity = 0;
        }
        const record =
          current ??
          (await this.commitments.create({
            kind,
            orderId: order.orderId,
            orderItemId: line.orderItemId,
            productId: line.productId,
            locationId: (location ??= await this.references.commitLocation()),
            quantity: line.quantity,
            openQuantity: 0,
            doneQuantity: 0,
          }));
        record.quantity = line.quantity;
        const wanted = open ? Math.max(0, line.quantity - record.doneQuantity) : 0;
        if (wanted !== record.openQuantity && record.locationId)
          deltas.push(this.delta(kind, record.productId, record.locationId, wanted - record.openQuantity));
        record.openQuantity = wanted;
        if (stateOf(record) !== was) await this.commitments.save(record);
      }
      for (const c of whole ? existing : []) {
        if (seen.has(c.orderItemId)) continue;
        const was = stateOf(c);
        release(c);
        if (stateOf(c) !== was) await this.commitments.save(c);
      }
      if (deltas.length) await this.ledger.apply(await this.ledger.plan([], deltas));
      if (
        whole &&
        kind === 'allocated' &&
        (order.orderStatus === 'cancelled' || order.orderStatus === 'voided')
      ) {
        for (const serial of await this.serials.ofOrder(order.orderId)) {
          if (serial.status === 'allocated') await this.serials.apply(serial, 'deallocate', {});
        }
      }
    });
  }

  /**
   * Records that `lines` of the order were shipped (allocated) or received (on_order): each
   * line's open quantity drops by what moved (never below zero) and its done quantity rises.
   * A line that moved from a `locationId` other than where it was committed takes what stays
   * open of it there (see `moveDeltas`). Returns the balance deltas for the caller's movement
   * plan (locked with its balances).
   */
  async release(
    orderId: string,
    kind: Kind,
    lines: { orderItemId: string; quantity: number; locationId?: string | null }[],
  ): Promise<CommitmentDelta[]> {
    const released = await this.commitments.release(orderId, kind, lines);
    return released.flatMap((c) =>
      releaseDeltas(c).map((d) => this.delta(kind, c.productId, d.locationId, d.quantity)),
    );
  }

  /** The done (received or shipped) quantity of each line of an order. */
  async doneByLine(orderId: string, kind: Kind): Promise<Map<string, number>> {
    const rows = await this.commitments.ofOrderForUpdate(orderId, kind);
    return new Map(rows.map((c) => [c.orderItemId, c.doneQuantity]));
  }

  private delta(kind: Kind, productId: string, locationId: string, quantity: number): CommitmentDelta {
    return kind === 'allocated'
      ? { productId, variantId: null, locationId, allocated: quantity }
      : { productId, variantId: null, locationId, onOrder: quantity };
  }

  private async isStocked(productId: string): Promise<boolean> {
    try {
      const product = await this.references.product(productId, 'product_id');
      return product.type !== 'service';
    } catch {
      return false;
    }
  }
}
