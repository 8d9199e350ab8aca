import { Injectable } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { newId } from '#platform/persistence/ids';
import { money, toJsonNumber } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { PurchaseOrderReceivingService } from '#contexts/sales';
import { InventoryError } from '../domain/inventory-error';
import { assertSerialsForQuantity } from '../domain/serial';
import { InventoryPostings } from './inventory-postings.service';
import { OrderCommitmentsService } from './order-commitments.service';
import { SerialsService } from './serials.service';
import { StockLedger } from './stock-ledger.service';
import { StockReferences } from './stock-references';

export interface ReceiveLineInput {
  order_item_id: string;
  quantity: number;
  location_id: string;
  unit_cost?: number;
  serial_numbers?: string[];
  lot_number?: string;
}

export interface ReceiptResource {
  id: string;
  object: 'purchase_order_receipt';
  purchase_order_id: string;
  status: 'partially_received' | 'received';
  lines: {
    order_item_id: string;
    product_id: string;
    location_id: string;
    quantity: number;
    unit_cost: number | null;
    value: number | null;
    serial_numbers: string[];
    lot_number: string | null;
    transaction_id: string;
  }[];
  total_value: number | null;
  journal_entry_id: string | null;
  livemode: boolean;
  created_at: string;
}

/**
 * Receiving purchase orders: stock in at cost (the line's unit_cost, else the PO line's price),
 * serial records in `available`, PO_RECEIPT (debit inventory, credit goods received not billed),
 * on_order lowered, the PO fulfilled once every line is received; inventory.received and
 * purchasing.purchase_order.received; all in one transaction.
 */
@Injectable()
export class PurchaseOrderReceiptsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly purchaseOrders: PurchaseOrderReceivingService,
    private readonly commitments: OrderCommitmentsService,
    private readonly ledger: StockLedger,
    private readonly postings: InventoryPostings,
    private readonly references: StockReferences,
    private readonly serials: SerialsService,
    private readonly events: EventPublisher,
  ) {}

  async receive(purchaseOrderId: string, input: { lines: ReceiveLineInput[] }): Promise<ReceiptResource> {
    return this.tx.run(async () => {
      const po = await this.purchaseOrders.lockForReceiving(purchaseOrderId);
      await this.commitments.orderChanged({
        orderId: po.id,
        documentType: 'purchase_order',
        orderStatus: po.orderStatus,
        lines: po.lines,
      });
      const done = await this.commitments.doneByLine(po.id, 'on_order');
      const byId = new Map(po.lines.map((l) => [l.orderItemId, l]));
      const receiving = new Map<string, number>();
      const id = newId();
      const planned: Parameters<StockLedger['plan']>[0] = [];
      for (const [i, line] of input.lines.entries()) {
        const poLine = byId.get(line.order_item_id);
        if (!poLine)
          throw new InventoryError('parameter_invalid', {
            param: `lines[${i}].order_item_id`,
            hint: `Purchase order '${po.id}' has no line '${line.order_item_id}'.`,
          });
        if (!poLine.productId)
          throw new InventoryError('parameter_invalid', {
            param: `lines[${i}].order_item_id`,
            hint: `Line '${line.order_item_id}' has no product: nothing to receive into stock.`,
          });
        const product = await this.references.product(poLine.productId, `lines[${i}].order_item_id`);
        await this.references.location(line.location_id, `lines[${i}].location_id`);
        const already = (done.get(poLine.orderItemId) ?? 0) + (receiving.get(poLine.orderItemId) ?? 0);
        const remaining = Math.max(0, poLine.quantity - already);
        if (line.quantity > remaining)
          throw new InventoryError('quantity_exceeds_remaining', {
            param: `lines[${i}].quantity`,
            hint: `Line '${poLine.orderItemId}' ordered ${poLine.quantity} and ${already} are received; at most ${remaining} more can be received.`,
            details: { remaining_quantity: remaining },
          });
        receiving.set(poLine.orderItemId, (receiving.get(poLine.orderItemId) ?? 0) + line.quantity);
        const serialNumbers = product.serialTracked
          ? assertSerialsForQuantity(
              line.serial_numbers,
              line.quantity,
              `lines[${i}].serial_numbers`,
              product.id,
            )
          : [];
        if (serialNumbers.length)
          await this.serials.receive({
            productId: product.id,
            variantId: null,
            locationId: line.location_id,
            serialNumbers,
            lotNumber: line.lot_number,
            orderId: po.id,
            param: `lines[${i}].serial_numbers`,
          });
        planned.push({
          productId: product.id,
          variantId: null,
          locationId: line.location_id,
          type: 'receipt',
          quantity: line.quantity,
          unitCost: money(line.unit_cost ?? poLine.unitPrice),
          sourceType: 'purchase_order',
          sourceId: po.id,
          orderId: po.id,
          orderItemId: poLine.orderItemId,
          reason: line.lot_number ? `lot ${line.lot_number}` : null,
          serialNumbers,
        });
      }
      const released = await this.commitments.release(
        po.id,
        'on_order',
        input.lines.map((l) => ({ orderItemId: l.order_item_id, quantity: l.quantity })),
      );
      const plan = await this.ledger.plan(planned, released);
      const total = StockLedger.totalValue(plan.movements);
      const entry = await this.postings.receipt(id, total, `Goods received on purchase order ${po.id}`);
      const rows = await this.ledger.apply(plan, { journalEntryId: entry?.id ?? null });
      const fully = po.lines
        .filter((l) => l.productId)
        .every((l) => (done.get(l.orderItemId) ?? 0) + (receiving.get(l.orderItemId) ?? 0) >= l.quantity);
      const order = fully
        ? await this.purchaseOrders.markReceived(po.id)
        : await this.purchaseOrders.retrieve(po.id);
      const resource: ReceiptResource = {
        id,
        object: 'purchase_order_receipt',
        purchase_order_id: po.id,
        status: fully ? 'received' : 'partially_received',
        lines: plan.movements.map((m, i) => ({
          order_item_id: m.orderItemId!,
          product_id: m.productId,
          location_id: m.locationId,
          quantity: m.quantity,
          unit_cost: toJsonNumber(m.unitCostApplied),
          value: toJsonNumber(m.value),
          serial_numbers: m.serialNumbers ?? [],
          lot_number: input.lines[i].lot_number ?? null,
          transaction_id: rows[i].id,
        })),
        total_value: toJsonNumber(total),
        journal_entry_id: entry?.id ?? null,
        livemode: rows[0]?.livemode ?? false,
        created_at: new Date().toISOString(),
      };
      await this.events.publish('inventory.received', resource);
      await this.events.publish('purchasing.purchase_order.received', order);
      return resource;
    });
  }
}
