import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { isInvoiceType, orderTransition } from '../../domain/order';
import { SalesError } from '../../domain/sales-error';
import { OrderLineRepository } from '../../infrastructure/order-line.repository';
import { OrderRepository } from '../../infrastructure/order.repository';
import { OrderCommitmentsRegistry } from '../order-commitments.port';
import { OrderChanges, stateOf } from '../order-changes.service';
import { OrderResource } from '../order.presenter';
import { InvoiceOrder } from './invoice-order';

/**
 * Confirm a draft: `POST /orders/{id}/confirm` (and `/purchase-orders/{id}/confirm`). A draft
 * quote, sales order, return or purchase order with lines becomes confirmed; the stock
 * commitments of a sales or purchase order follow (allocated and on-order units, in this
 * transaction). Emits order.confirmed (and its purchasing companion). Confirming an invoice or a
 * late-fee invoice issues it: InvoiceOrder, in the same transaction.
 */
@Injectable()
export class ConfirmOrder {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly lines: OrderLineRepository,
    private readonly commitments: OrderCommitmentsRegistry,
    private readonly changes: OrderChanges,
    private readonly invoicing: InvoiceOrder,
  ) {}

  confirm(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const order = await this.orders.getForUpdate(id);
      if (isInvoiceType(order.documentType)) return this.invoicing.issue(order);

      order.orderStatus = orderTransition('confirm', stateOf(order));
      if ((await this.lines.ofOrder(order.id)).length === 0)
        throw new SalesError('invalid_state', {
          param: 'lines',
          hint: `An order without lines cannot be confirmed (order_status 'draft').`,
        });
      order.confirmedAt = new Date();

      const resource = await this.changes.presentOne(await this.orders.save(order));
      await this.commitments.orderChanged(order);
      await this.changes.publish('order.confirmed', resource, { order_status: 'draft' });
      return resource;
    });
  }
}
