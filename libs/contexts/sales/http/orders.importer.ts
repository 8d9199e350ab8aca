import { Injectable, OnModuleInit } from '@nestjs/common';
import { ImportRegistry, outcomes, validateAs } from '#platform/imports/import-registry';
import { OrderResource } from '../application/order.presenter';
import { OrdersService } from '../application/orders.service';
import { ConfirmOrder } from '../application/orders/confirm-order';
import { orderImportStatus, OrderImportStatus, sameImportedOrder } from '../domain/order-import';
import { invalidParam } from '#platform/errors/domain-error';
import { SalesError } from '../domain/sales-error';
import { CreateOrderDto } from './order.dto';

interface OrderImport {
  status: OrderImportStatus;
  order: CreateOrderDto;
}

/**
 * Bulk import of order documents (`resource: "orders"`): each record is a POST /orders body
 * (validated with CreateOrderDto) plus an optional `status` (`draft`, the default, or
 * `confirmed`), written through OrdersService (same account, currency and pricing rules, events
 * `order.created`/`invoice.created`): a batch's new drafts together (OrdersService.createMany),
 * the others one at a time. With `confirmed` the order is then confirmed
 * through ConfirmOrder (`order.confirmed`; an invoice is issued: `invoice.finalized` and
 * its INVOICE journal entry). A known external id whose order is still a draft is updated through
 * OrdersService.update (account_id, notes, metadata merged, lines replaced when given; nothing
 * when the content is the same) and confirmed when asked; an order past draft is a no-op when the record carries the same content
 * (sameImportedOrder) and a row error `invalid_state` otherwise.
 */
@Injectable()
export class OrdersImporter implements OnModuleInit {
  constructor(
    private readonly registry: ImportRegistry,
    private readonly orders: OrdersService,
    private readonly confirmOrder: ConfirmOrder,
  ) {}

  onModuleInit(): void {
    this.registry.register<OrderImport>({
      resource: 'orders',
      schema: CreateOrderDto,
      validate: async (record) => {
        const { status, ...body } = record;
        const order = await validateAs(CreateOrderDto, body);
        return { status: orderImportStatus(status), order };
      },
      upsert: (input, existingId) => (existingId ? this.reimport(input, existingId) : this.create(input)),
      // New drafts are created together; an order to confirm is created and confirmed on its own.
      createsInBulk: (input) => input.status === 'draft',
      createMany: async (inputs) => outcomes(await this.orders.createMany(inputs.map((i) => i.order))),
    });
  }

  private async create({ status, order }: OrderImport): Promise<{ id: string }> {
    const created = await this.orders.create(order);
    return status === 'confirmed' ? this.confirmOrder.confirm(created.id) : created;
  }

  private async reimport({ status, order }: OrderImport, id: string): Promise<{ id: string }> {
    const current = await this.orders.retrieve(id);
    if (current.order_status !== 'draft') {
      if (sameImportedOrder(current, order)) return { id };
      throw new SalesError('invalid_state', {
        hint: `Order ${id} was imported before and its order_status is '${current.order_status}'; only a draft can change, so a re-import must carry the same content.`,
        details: { order_status: current.order_status },
      });
    }
    if (!sameImportedOrder(current, order)) await this.update(id, order, current);
    return status === 'confirmed' ? this.confirmOrder.confirm(id) : { id };
  }

  /** Updates a draft with what OrdersService.update can change; the document type and currency cannot. */
  private async update(id: string, order: CreateOrderDto, current: OrderResource): Promise<void> {
    const documentType = order.document_type ?? 'sales_order';
    if (documentType !== current.document_type) {
      throw invalidParam(
        'document_type',
        `The imported order ${id} is a ${current.document_type}; the document type of an order does not change.`,
      );
    }
    if (order.currency !== undefined && order.currency.toUpperCase() !== current.currency) {
      throw invalidParam(
        'currency',
        `The imported order ${id} is in ${current.currency}; its currency does not change.`,
      );
    }
    if (order.account_id === null && current.account_id !== null) {
      throw invalidParam(
        'account_id',
        `The imported order ${id} has an account; account_id cannot become null.`,
      );
    }
    await this.orders.update(id, {
      account_id: order.account_id ?? undefined,
      lines: order.lines,
      notes: order.notes,
      metadata: order.metadata,
    });
  }
}
