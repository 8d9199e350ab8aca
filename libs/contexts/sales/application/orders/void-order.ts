import { Injectable } from '@nestjs/common';
import { AccountingSettingsService, LedgerPostingService } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import {
  amountDueOf,
  isInvoiceType,
  isPostedInvoice,
  OrderStatus,
  orderTransition,
} from '../../domain/order';
import { OrderRepository } from '../../infrastructure/order.repository';
import { OrderCommitmentsRegistry } from '../order-commitments.port';
import { OrderChanges, stateOf } from '../order-changes.service';
import { OrderResource } from '../order.presenter';
import { RevenueRecognition } from '../revenue-recognition.service';
import { invoiceEntryLines } from './invoice-order';

/**
 * Void a confirmed order: `POST /orders/{id}/void`. A confirmed document with nothing paid and no
 * credit memo becomes voided and owes nothing; the stock commitments of a sales or purchase
 * order are released; an issued invoice gives its billed units back under the recognition rule
 * and its entry is reversed (ORDER_CANCELLATION, dated by the entity's business day). Emits
 * order.voided (and invoice.voided).
 */
@Injectable()
export class VoidOrder {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly commitments: OrderCommitmentsRegistry,
    private readonly revenue: RevenueRecognition,
    private readonly ledger: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
    private readonly changes: OrderChanges,
    private readonly events: EventPublisher,
  ) {}

  void(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const order = await this.orders.getForUpdate(id);
      const previous = order.orderStatus as OrderStatus;
      order.orderStatus = orderTransition('void', stateOf(order));
      order.voidedAt = new Date();
      order.amountDue = amountDueOf('voided', order.total, order.amountPaid, order.amountCredited);

      const resource = await this.changes.presentOne(await this.orders.save(order));
      await this.commitments.orderChanged(order);

      if (isPostedInvoice(order.documentType, previous)) {
        const lines = invoiceEntryLines(await this.revenue.invoiceVoided(order), 'Invoice voided');
        if (lines.length > 0)
          await this.ledger.post({
            source_type: 'ORDER_CANCELLATION',
            source_id: order.id,
            source_module: 'sales',
            entry_date: await this.settings.currentBusinessDay(),
            description: `Void of invoice ${order.id}`,
            lines,
          });
      }

      await this.changes.publish('order.voided', resource, { order_status: previous });
      if (isInvoiceType(order.documentType)) await this.events.publish('invoice.voided', resource);
      return resource;
    });
  }
}
