import { previousAttributes } from '#platform/events/previous-attributes';
import { Injectable } from '@nestjs/common';
import { TagsService } from '#contexts/catalog';
import { DomainError } from '#platform/errors/domain-error';
import { EventPublisher } from '#platform/events/event-publisher';
import { money } from '#platform/domain/money';
import {
  amountDueOf,
  assertLineCapacity,
  DocumentType,
  editRevises,
  isInvoiceType,
  linesHoldCommitments,
  OrderLineInput,
  OrderState,
  OrderStatus,
  paymentStatusOf,
  purchasingCompanion,
} from '../domain/order';
import { orderTotals, OrderTotals, totalsOfSums } from '../domain/order-totals';
import { invalidParam } from '#platform/errors/domain-error';
import { OrderLineRecord, OrderRecord } from '../infrastructure/order.entity';
import { OrderLineRepository } from '../infrastructure/order-line.repository';
import { OrderRepository } from '../infrastructure/order.repository';
import { KitLines, LineDraft } from './kit-lines';
import { OrderCommitmentsRegistry } from './order-commitments.port';
import { OrderLinePricing } from './order-line-pricing.service';
import { OrderResource, toOrderResource } from './order.presenter';

/** The cap's refusal for an order sent with `count` lines, or null within the cap. */
function capacityError(count: number): DomainError | null {
  try {
    assertLineCapacity(0, count);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/** numeric(19,4) holds amounts below 10^15. */
const MAX_AMOUNT = money('1e15');

/** The facts of an order its state machine decides on. */
export const stateOf = (o: OrderRecord): OrderState => ({
  documentType: o.documentType as DocumentType,
  orderStatus: o.orderStatus as OrderStatus,
  amountPaid: o.amountPaid,
  amountCredited: o.amountCredited,
  convertedToId: o.convertedToId,
});

/** The facts of an order its revision rules decide on. */
export const revisionOf = (o: OrderRecord) => ({
  orderStatus: o.orderStatus as OrderStatus,
  sentToCustomerAt: o.sentToCustomerAt,
  revisedAt: o.revisedAt,
  revisionAcknowledgedAt: o.revisionAcknowledgedAt,
});

/** Sets payment_status and amount_due of an order from the money it holds. */
export function settleAmounts(o: OrderRecord): void {
  o.paymentStatus = paymentStatusOf(o.total, o.amountPaid, o.amountRefunded, o.amountCredited);
  o.amountDue = amountDueOf(o.orderStatus as OrderStatus, o.total, o.amountPaid, o.amountCredited);
}

/**
 * What every change to an order document shares, whichever service makes it (the documents and
 * their lifecycle, the lines, the tags): its presentation, its totals from its lines, and the
 * save that marks a revision and publishes the change.
 */
@Injectable()
export class OrderChanges {
  constructor(
    private readonly orders: OrderRepository,
    private readonly lines: OrderLineRepository,
    private readonly tags: TagsService,
    private readonly events: EventPublisher,
    private readonly kitLines: KitLines,
    private readonly commitments: OrderCommitmentsRegistry,
    private readonly linePricing: OrderLinePricing,
  ) {}

  /** Serializes orders with their lines and tag ids: two queries for any number of orders. */
  async present(rows: OrderRecord[]): Promise<OrderResource[]> {
    const ids = rows.map((r) => r.id);
    const [lines, tagIds] = await Promise.all([this.lines.ofOrders(ids), this.tags.tagIdsOf('order', ids)]);
    return rows.map((r) => toOrderResource(r, lines.get(r.id) ?? [], tagIds.get(r.id) ?? []));
  }

  async presentOne(row: OrderRecord): Promise<OrderResource> {
    return (await this.present([row]))[0];
  }

  /** The lines of an order, in position order. */
  async linesOf(orderId: string): Promise<OrderLineRecord[]> {
    return (await this.lines.ofOrders([orderId])).get(orderId) ?? [];
  }

  /**
   * An order with the lines the caller read (linesOf) but not its tag ids (one query fewer), for
   * readers that act on its lines.
   */
  presentWithLines(row: OrderRecord, lines: OrderLineRecord[]): Omit<OrderResource, 'tag_ids'> {
    const { tag_ids: _tags, ...order } = toOrderResource(row, lines, []);
    return order;
  }

  /**
   * The order's fields before a change of some of its lines, for previous_attributes: without
   * its lines and tag ids, so nothing is read and the cost does not grow with the order.
   */
  fieldsOf(record: OrderRecord): Omit<OrderResource, 'lines' | 'tag_ids'> {
    const { lines: _lines, tag_ids: _tags, ...fields } = toOrderResource(record, [], []);
    return fields;
  }

  /**
   * Saves the order after a change; marks it revised when it was confirmed and already sent.
   * `changedLines`, when given, are the only lines added or changed: the stock commitments of
   * those alone move. previous_attributes compare the fields `before` holds.
   */
  async saveChange(
    record: OrderRecord,
    before: Omit<OrderResource, 'lines' | 'tag_ids'> & Partial<Pick<OrderResource, 'lines' | 'tag_ids'>>,
    linesChanged: boolean,
    lineEvent?: 'order.line.added' | 'order.line.updated' | 'order.line.removed',
    changedLines?: readonly OrderLineRecord[],
  ): Promise<OrderResource> {
    const revises = linesChanged && editRevises(revisionOf(record));
    if (revises) {
      record.revisedAt = new Date();
      record.revisionCount += 1;
    }
    record.updatedAt = new Date();
    const resource = await this.presentOne(await this.orders.save(record));
    if (linesChanged && linesHoldCommitments(record.orderStatus as OrderStatus)) {
      if (changedLines) await this.commitments.linesChanged(record, changedLines);
      else await this.commitments.orderChanged(record);
    }
    const previous = previousAttributes(before, resource);
    const changed = Object.keys(previous);
    if (lineEvent) await this.publish(lineEvent, resource, previous);
    else if (changed.length > 0) {
      await this.publish('order.updated', resource, previous);
      if (isInvoiceType(record.documentType))
        await this.events.publish('invoice.updated', resource, previous);
    }
    if (revises)
      await this.events.publish('order.revised', resource, {
        total: before.total,
        revision: before.revision,
      });
    return resource;
  }

  /**
   * Publishes an order event; a purchase order's also goes out in the purchasing family
   * (purchasing.purchase_order.created|updated|confirmed|cancelled) with the same object.
   */
  async publish(
    type: string,
    resource: Pick<OrderResource, 'document_type'>,
    previous?: Record<string, unknown>,
  ): Promise<void> {
    await this.events.publish(type, resource, previous);
    const companion = purchasingCompanion(resource.document_type, type);
    if (companion) await this.events.publish(companion, resource, previous);
  }

  /**
   * publish() of several order events with one outbox write, each followed by its purchasing
   * companion (bulk creation).
   */
  async publishMany(events: readonly { type: string; resource: OrderResource }[]): Promise<void> {
    await this.events.publishMany(
      events.flatMap(({ type, resource }) => {
        const companion = purchasingCompanion(resource.document_type, type);
        return [{ type, object: resource }, ...(companion ? [{ type: companion, object: resource }] : [])];
      }),
    );
  }

  /**
   * replaceLines() of many new orders, without the insert: prices their lines (one read of the
   * products, one of the pricing policies, one of the kit components for all of them), expands
   * the kits and sets each order's totals. Per order, its line drafts or the DomainError that
   * refused them; the caller inserts the drafts after the orders.
   */
  async linesOfNew(
    orders: readonly { record: OrderRecord; inputs: OrderLineInput[] }[],
  ): Promise<(LineDraft[] | DomainError)[]> {
    // An order over the line cap is refused as it is (its lines are not priced).
    const capped = orders.map(({ inputs }) => capacityError(inputs.length));
    const priced = await this.linePricing.priceOrders(
      orders.map((o, i) => (capped[i] ? { ...o, inputs: [] } : o)),
    );
    capped.forEach((error, i) => {
      if (error) priced[i] = error;
    });
    const accepted = priced.flatMap((p, i) => (p instanceof DomainError ? [] : [i]));
    const expanded = await this.kitLines.expandEach(accepted.map((i) => priced[i] as LineDraft[]));
    const results: (LineDraft[] | DomainError)[] = [...priced];
    accepted.forEach((index, i) => {
      try {
        this.applyTotals(orders[index].record, expanded[i]);
        results[index] = expanded[i];
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results[index] = error;
      }
    });
    return results;
  }

  /** Prices and inserts the lines of an order that has none, and sets its totals. */
  async replaceLines(record: OrderRecord, inputs: OrderLineInput[]): Promise<void> {
    assertLineCapacity(0, inputs.length);
    const lines = await this.kitLines.expand(
      await this.linePricing.priceLines(record, inputs, 'lines', 0),
      0,
    );
    await this.lines.insertMany(lines);
    this.applyTotals(record, lines);
  }

  /**
   * Sets the order's totals from the lines it holds: the database sums the line amounts in one
   * statement, no line is loaded.
   */
  async recompute(record: OrderRecord): Promise<void> {
    this.setTotals(record, totalsOfSums(await this.lines.amountSumsOf(record.id)));
  }

  private applyTotals(
    record: OrderRecord,
    lines: Pick<OrderLineRecord, 'subtotal' | 'discountTotal' | 'taxTotal' | 'total'>[],
  ): void {
    this.setTotals(record, orderTotals(lines));
  }

  private setTotals(record: OrderRecord, totals: OrderTotals): void {
    if (totals.subtotal.gte(MAX_AMOUNT))
      throw invalidParam('lines', `The order subtotal must stay below ${MAX_AMOUNT.toFixed(0)}.`);
    record.subtotal = totals.subtotal;
    record.discountTotal = totals.discountTotal;
    record.taxTotal = totals.taxTotal;
    record.total = totals.total;
    settleAmounts(record);
  }
}
