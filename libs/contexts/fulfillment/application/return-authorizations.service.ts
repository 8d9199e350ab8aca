import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/persistence/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { SalesOrders, ReturnRefundMethod, ReturnRefunds } from '#contexts/sales';
import { FulfillmentError } from '../domain/fulfillment-error';
import {
  assertReturnable,
  assertReturnTransition,
  AuthorizedLine,
  refundAmountOf,
  returnableUnits,
  splitNetAndTax,
  statusAfterReceipt,
  statusAfterRefund,
} from '../domain/return-authorization';
import { ReturnAuthorizationRecord } from '../infrastructure/fulfillment.entities';
import { PackageItemRepository } from '../infrastructure/package-item.repository';
import { PackageRepository } from '../infrastructure/package.repository';
import { ReturnAuthorizationRepository } from '../infrastructure/return-authorization.repository';
import { SHIPPED_STATUSES } from './package-shipping.service';
import { ReturnResource, toReturnResource } from './return.presenter';
import { ResourceReads } from '#platform/http/list/resource-reads';

export interface CreateReturnInput {
  account_id: string;
  order_id: string;
  lines: { order_item_id: string; quantity: number }[];
  reason?: string | null;
}

export interface ReturnListQuery extends ListQueryDto {
  account_id?: string;
  order_id?: string;
  status?: string;
  created_after?: string;
  created_before?: string;
}

export interface RefundReturnInput {
  amount?: number;
  method?: ReturnRefundMethod;
}

const unitsOf = (quantity: Decimal.Value) => Math.floor(Number(quantity));

/**
 * Returns as their own resource: a return authorises shipped units of one sales order to come
 * back (never more than shipped less what its other returns hold), is received against its
 * order's packages (ReturnsService), cancelled while nothing came back, and refunded for the
 * value of what came back (through sales' ReturnRefunds). Each return has a return document
 * (an order of document_type `return`, same id) that carries its lines at the order's prices.
 */
@Injectable()
export class ReturnAuthorizations extends ResourceReads<
  ReturnAuthorizationRecord,
  ReturnResource,
  ReturnListQuery
> {
  constructor(
    private readonly tx: TransactionHost,
    private readonly returns: ReturnAuthorizationRepository,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly orders: SalesOrders,
    private readonly refunds: ReturnRefunds,
    private readonly events: EventPublisher,
  ) {
    super(returns, toReturnResource);
  }

  async create(input: CreateReturnInput): Promise<ReturnResource> {
    return this.tx.run(async () => {
      const order = await this.orders.findWithLines(input.order_id);
      if (!order || order.document_type !== 'sales_order')
        throw new FulfillmentError('parameter_invalid', {
          param: 'order_id',
          hint: `No sales order with id '${input.order_id}' exists for this entity and mode.`,
        });
      if (order.account_id !== input.account_id)
        throw new FulfillmentError('parameter_invalid', {
          param: 'account_id',
          hint: `Order '${order.id}' belongs to another account.`,
        });
      // Serialises with the order's package changes and its other returns.
      await this.packages.lockOrder(order.id);
      const seen = new Set<string>();
      input.lines.forEach((line, index) => {
        if (!order.lines.some((l) => l.id === line.order_item_id))
          throw new FulfillmentError('parameter_invalid', {
            param: `lines[${index}].order_item_id`,
            hint: `'${line.order_item_id}' is not a line of order '${order.id}'.`,
          });
        if (seen.has(line.order_item_id))
          throw new FulfillmentError('parameter_invalid', {
            param: `lines[${index}].order_item_id`,
            hint: `Order line '${line.order_item_id}' appears more than once.`,
          });
        seen.add(line.order_item_id);
      });
      const shipped = await this.items.unitsByLine(order.id, SHIPPED_STATUSES);
      const others = await this.returns.ofOrder(order.id);
      assertReturnable(
        input.lines,
        returnableUnits(
          shipped,
          others.map((o) => o.lines),
        ),
      );
      const document = await this.orders.create(
        {
          document_type: 'return',
          account_id: order.account_id,
          notes: input.reason ?? null,
          lines: input.lines.map((wanted) => {
            const line = order.lines.find((l) => l.id === wanted.order_item_id)!;
            const share = money(wanted.quantity).dividedBy(line.quantity);
            return {
              product_id: line.product_id,
              description: line.description,
              quantity: wanted.quantity,
              unit_price: line.unit_price,
              discount_percent: line.discount_percent,
              discount_amount: money(line.discount_amount).times(share).toDecimalPlaces(4).toNumber(),
              tax_rate: line.tax_rate,
            };
          }),
        },
        { sourceOrderId: order.id },
      );
      await this.orders.confirm(document.id);
      const lines: AuthorizedLine[] = input.lines.map((wanted) => ({
        order_item_id: wanted.order_item_id,
        product_id: order.lines.find((l) => l.id === wanted.order_item_id)!.product_id,
        quantity: wanted.quantity,
        received_quantity: 0,
      }));
      const record = await this.returns.create(
        {
          accountId: input.account_id,
          orderId: order.id,
          currency: order.currency,
          status: 'open',
          reason: input.reason ?? null,
          lines,
          receivedNet: money(0),
          receivedTax: money(0),
          amountRefunded: money(0),
          refunds: [],
          receivedAt: null,
          refundedAt: null,
          cancelledAt: null,
        },
        document.id,
      );
      const resource = toReturnResource(record);
      await this.events.publish('return.created', resource);
      return resource;
    });
  }

  /** Cancels a return while nothing of it came back; its return document is cancelled too. */
  async cancel(id: string): Promise<ReturnResource> {
    return this.tx.run(async () => {
      const record = await this.returns.getForUpdate(id);
      assertReturnTransition('cancel', record.status, record.id);
      record.status = 'cancelled';
      record.cancelledAt = new Date();
      const saved = await this.returns.save(record);
      await this.orders.cancel(record.id);
      const resource = toReturnResource(saved);
      await this.events.publish('return.cancelled', resource);
      return resource;
    });
  }

  /**
   * Refunds the value of the units received back (default: all of it not refunded yet, at most
   * what the order's invoice still has due or paid): a credit memo on the invoice that first
   * reduces its amount due, then the paid rest back through its payments or as a credit on the
   * customer's account.
   */
  async refund(id: string, input: RefundReturnInput): Promise<ReturnResource> {
    return this.tx.run(async () => {
      const record = await this.returns.getForUpdate(id);
      assertReturnTransition('refund', record.status, record.id);
      const invoice = await this.refunds.issuedInvoiceOf(record.orderId);
      if (!invoice)
        throw new FulfillmentError('invalid_state', {
          hint: `Order '${record.orderId}' of return '${record.id}' has no issued invoice, so nothing was paid to refund.`,
        });
      const received = { net: record.receivedNet, tax: record.receivedTax };
      // What a credit memo can take back: the received units the invoice still bills (sales' rule);
      // units that came back before being billed had their revenue reversed at receipt.
      const plan = await this.refunds.creditablePlan(
        record.orderId,
        record.lines.map((l) => ({ orderLineId: l.order_item_id, units: l.received_quantity })),
        record.refunds.map((r) => r.id),
      );
      const amount = refundAmountOf(
        input.amount === undefined ? undefined : money(input.amount),
        {
          value: plan.value.net.plus(plan.value.tax).plus(plan.earlierReversed),
          refunded: record.amountRefunded,
        },
        invoice.creditable,
      );
      const { net, tax } = splitNetAndTax(
        amount,
        plan.value.net.plus(plan.value.tax).gt(0) ? plan.value : received,
      );
      const method = input.method ?? 'original_payment';
      const refundId = newId();
      const { refundIds, amountDueReduced, creditTransactionId } = await this.refunds.refund({
        refundId,
        returnId: record.id,
        invoiceId: invoice.id,
        orderId: record.orderId,
        creditable: plan.units,
        earlierAllowance: Decimal.max(0, record.amountRefunded.minus(plan.earlierReversed)),
        amount,
        net,
        tax,
        method,
        reason: record.reason,
      });
      const now = new Date();
      record.amountRefunded = record.amountRefunded.plus(amount);
      record.refunds = [
        ...record.refunds,
        {
          id: refundId,
          amount: amount.toFixed(4),
          method,
          invoice_id: invoice.id,
          refund_ids: refundIds,
          amount_due_reduced: amountDueReduced.toFixed(4),
          credit_transaction_id: creditTransactionId,
          created_at: now.toISOString(),
        },
      ];
      record.status = statusAfterRefund(
        record.status,
        received.net.plus(received.tax),
        record.amountRefunded,
      );
      if (record.status === 'refunded') record.refundedAt = now;
      const resource = toReturnResource(await this.returns.save(record));
      await this.events.publish('return.refunded', resource);
      return resource;
    });
  }

  /**
   * For a receipt against return `id`: the return locked, or null for a return document made
   * without an authorisation (through the order routes or an import), received as before.
   * 409 invalid_state unless it is open or partially received.
   */
  async lockForReceipt(id: string): Promise<ReturnAuthorizationRecord | null> {
    if (!(await this.returns.findById(id))) return null;
    const record = await this.returns.getForUpdate(id);
    assertReturnTransition('receive', record.status, record.id);
    return record;
  }

  /**
   * Checks a receipt against what the return authorises: the package shipped for its order
   * (400 on package_id), each item on one of its lines (400) and within what is left of it
   * (422 quantity_exceeds_remaining).
   */
  checkReceipt(
    record: ReturnAuthorizationRecord,
    packageOrderId: string,
    items: readonly { orderItemId: string; quantity: number }[],
  ): void {
    if (packageOrderId !== record.orderId)
      throw new FulfillmentError('parameter_invalid', {
        param: 'package_id',
        hint: `The package was not shipped for order '${record.orderId}' of return '${record.id}'.`,
      });
    const taken = new Map<string, number>();
    items.forEach((item, index) => {
      const line = record.lines.find((l) => l.order_item_id === item.orderItemId);
      if (!line)
        throw new FulfillmentError('parameter_invalid', {
          param: `items[${index}].package_item_id`,
          hint: `Return '${record.id}' has no line for order line '${item.orderItemId}'.`,
        });
      const left = line.quantity - line.received_quantity - (taken.get(line.order_item_id) ?? 0);
      if (item.quantity > left)
        throw new FulfillmentError('quantity_exceeds_remaining', {
          param: `items[${index}].quantity`,
          hint: `Return '${record.id}' authorises ${left} more unit(s) of order line '${line.order_item_id}'; ${item.quantity} received.`,
          details: { remaining_quantity: left },
        });
      taken.set(line.order_item_id, (taken.get(line.order_item_id) ?? 0) + item.quantity);
    });
  }

  /** Records a receipt: units and value back, the status; the return document is fulfilled once everything is back. */
  async recordReceipt(
    record: ReturnAuthorizationRecord,
    items: readonly { orderItemId: string; quantity: number }[],
    value: { net: Decimal; tax: Decimal },
  ): Promise<void> {
    record.lines = record.lines.map((l) => ({
      ...l,
      received_quantity:
        l.received_quantity +
        items
          .filter((i) => i.orderItemId === l.order_item_id)
          .reduce((sum, i) => sum + unitsOf(i.quantity), 0),
    }));
    record.receivedNet = record.receivedNet.plus(value.net);
    record.receivedTax = record.receivedTax.plus(value.tax);
    record.status = statusAfterReceipt(record.lines);
    if (record.status === 'received') record.receivedAt = new Date();
    await this.returns.save(record);
    if (record.status === 'received') await this.orders.markFulfilled(record.id);
  }
}
