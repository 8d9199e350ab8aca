import { Injectable } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { SalesOrders } from '#contexts/sales';
import { FulfillmentError } from '../../domain/fulfillment-error';
import {
  assertReturnable,
  returnTransition,
  AuthorizedLine,
  returnableUnits,
} from '../../domain/return-authorization';
import { ReturnAuthorizationRecord } from '../../infrastructure/fulfillment.entities';
import { PackageItemRepository } from '../../infrastructure/package-item.repository';
import { PackageRepository } from '../../infrastructure/package.repository';
import { ReturnAuthorizationRepository } from '../../infrastructure/return-authorization.repository';
import { SHIPPED_STATUSES } from '../package-shipping.service';
import { ReturnReceiptRepository } from '../../infrastructure/return-receipt.repository';
import { ReturnResource, toReceiptResource, toReturnResource } from './return.presenter';
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

/**
 * Returns as their own resource, their life cycle and reads: a return authorises shipped units
 * of one sales order to come back (never more than shipped less what its other returns hold),
 * is cancelled while nothing came back, and lists its receipts. Receiving goods (ReceiveReturn)
 * and refunding them (RefundReturn) are use cases of their own. Each return has a return
 * document (an order of document_type `return`, same id) that carries its lines at the order's
 * prices.
 */
@Injectable()
export class Returns extends ResourceReads<ReturnAuthorizationRecord, ReturnResource, ReturnListQuery> {
  constructor(
    private readonly tx: TransactionHost,
    private readonly returns: ReturnAuthorizationRepository,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly orders: SalesOrders,
    private readonly receiptRecords: ReturnReceiptRepository,
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
          pendingRefund: null,
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
      record.status = returnTransition('cancel', record.status, record.id);
      record.cancelledAt = new Date();
      const saved = await this.returns.save(record);
      await this.orders.cancel(record.id);
      const resource = toReturnResource(saved);
      await this.events.publish('return.cancelled', resource);
      return resource;
    });
  }

  /**
   * The receipts of a return, oldest first (one page); 404 naming a return when there is no
   * return document with that id (one made without an authorisation has its receipts too).
   */
  async receipts(returnId: string) {
    const ret = await this.orders.findWithLines(returnId);
    if (!ret || ret.document_type !== 'return')
      throw new FulfillmentError('not_found', {
        hint: `No return with id '${returnId}' exists for this entity and mode.`,
      });
    const rows = await this.receiptRecords.ofReturn(ret.id);
    const statuses = new Map(
      (await this.packages.findByIds(rows.map((r) => r.packageId))).map((p) => [p.id, p.status]),
    );
    return {
      object: 'list' as const,
      data: rows.map((r) => toReceiptResource(r, statuses.get(r.packageId) ?? 'returned')),
      has_more: false,
      url: `/v1/returns/${ret.id}/receipts`,
    };
  }
}
