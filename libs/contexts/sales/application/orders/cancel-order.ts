import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { amountDueOf, orderTransition } from '../../domain/order';
import { OrderRepository } from '../../infrastructure/order.repository';
import { OrderCommitmentsRegistry } from '../order-commitments.port';
import { OrderChanges, stateOf } from '../order-changes.service';
import { OrderResource } from '../order.presenter';

/**
 * Cancel an order: `POST /orders/{id}/cancel` (and `/purchase-orders/{id}/cancel`). A draft of
 * any type, or a confirmed document other than an invoice with nothing paid, becomes cancelled
 * and owes nothing; the stock commitments of a sales or purchase order are released in this
 * transaction. Nothing was posted for it, so nothing is reversed. Emits order.cancelled (and its
 * purchasing companion).
 */
@Injectable()
export class CancelOrder {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly commitments: OrderCommitmentsRegistry,
    private readonly changes: OrderChanges,
  ) {}

  cancel(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const order = await this.orders.getForUpdate(id);
      const previous = order.orderStatus;
      order.orderStatus = orderTransition('cancel', stateOf(order));
      order.cancelledAt = new Date();
      order.amountDue = amountDueOf('cancelled', order.total, order.amountPaid, order.amountCredited);

      const resource = await this.changes.presentOne(await this.orders.save(order));
      await this.commitments.orderChanged(order);
      await this.changes.publish('order.cancelled', resource, { order_status: previous });
      return resource;
    });
  }
}
