import { EmptyBodyDto } from '#platform/http/empty-body.dto';
import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { actionsOf, requestPath, StandardRoutes } from '#platform/http/standard-routes';
import { OrderLines } from '../application/order-lines.service';
import { OrderTags } from '../application/order-tags.service';
import { OrdersService } from '../application/orders.service';
import { CancelOrder } from '../application/orders/cancel-order';
import { ConfirmOrder } from '../application/orders/confirm-order';
import { VoidOrder } from '../application/orders/void-order';
import { PaymentsService } from '../application/payments.service';
import {
  CreateOrderDto,
  OrderLineDto,
  OrderListQueryDto,
  OrderResponse,
  TagRefDto,
  UpdateOrderDto,
  UpdateOrderLineDto,
} from './order.dto';
import { CreatePaymentDto, PaymentResponse } from './payment.dto';

@ApiTags('Orders')
@ApiResource('order')
@Controller('orders')
@StandardRoutes({
  service: OrdersService,
  scope: 'orders',
  model: OrderResponse,
  create: [
    CreateOrderDto,
    'Create an order document',
    {
      description:
        'A draft quote, sales order, invoice, return, purchase order or late-fee invoice. Lines are priced from the product list price and the applicable pricing policy unless unit_price is sent; at most 1,000 lines. Emits order.created (and invoice.created).',
    },
  ],
  list: [
    OrderListQueryDto,
    'List orders',
    {
      description:
        'Quotes, sales orders and invoices by default; document_type switches to one type. Newest first (sort=created_at_asc reverses). expand[]=account, expand[]=lines.product.',
    },
  ],
  retrieve: ['Retrieve an order'],
  update: [
    UpdateOrderDto,
    'Update an order',
    {
      description:
        'notes and metadata any time before cancel/void; lines (replaced) and account_id while editable. A change to the lines of a confirmed order sent to the customer revises it (order.revised).',
    },
  ],
  delete: [
    'Delete a draft order',
    {
      description:
        'Drafts of any document type only; a confirmed (or later) order is 409 invalid_state: cancel or void it instead. Its lines and tags go with it. Emits order.deleted.',
    },
  ],
  actions: {
    ...actionsOf(OrderLines, {
      addLine: [
        'Add a line',
        {
          path: 'lines',
          input: OrderLineDto,
          code: 201,
          description:
            'Adds a line after the last one. An order holds at most 1,000 lines (400 parameter_invalid on lines). Emits order.line.added; returns the order with all its lines.',
        },
      ],
      updateLine: [
        'Update a line',
        {
          method: 'PATCH',
          path: 'lines/:line_id',
          input: UpdateOrderLineDto,
          description:
            'Keeps the line price unless unit_price or product_id changes. Emits order.line.updated; returns the order.',
        },
      ],
      removeLine: [
        'Remove a line',
        {
          method: 'DELETE',
          path: 'lines/:line_id',
          description: 'Emits order.line.removed; returns the order.',
        },
      ],
    }),
    ...actionsOf(ConfirmOrder, {
      confirm: [
        'Confirm a draft',
        {
          body: EmptyBodyDto,
          description:
            'draft → confirmed. An invoice is issued: posted to the ledger (INVOICE: debit receivables, credit revenue and tax). Emits order.confirmed (and invoice.finalized).',
        },
      ],
    }),
    ...actionsOf(CancelOrder, {
      cancel: [
        'Cancel an order',
        {
          body: EmptyBodyDto,
          description:
            'draft (any type) or confirmed (not invoices), nothing paid → cancelled. Emits order.cancelled.',
        },
      ],
    }),
    ...actionsOf(VoidOrder, {
      void: [
        'Void a confirmed order',
        {
          body: EmptyBodyDto,
          description:
            'confirmed, nothing paid and no credit memo (amount_credited 0) → voided; an issued invoice is reversed in the ledger (ORDER_CANCELLATION). Emits order.voided (and invoice.voided).',
        },
      ],
    }),
    close: [
      'Close a confirmed or fulfilled order',
      { body: EmptyBodyDto, description: 'Emits order.updated.' },
    ],
    convert: [
      'Convert a quote to a sales order, or a sales order to an invoice',
      {
        body: EmptyBodyDto,
        description:
          'Returns the NEW draft document (source_order_id points back). A quote closes; a sales order keeps its status. Once per document. Emits order.created and order.converted.',
      },
    ],
    send: [
      'Record that the document was sent to the customer',
      {
        body: EmptyBodyDto,
        description:
          'Sets sent_to_customer_at; later line changes of a confirmed order revise it. Emits order.updated.',
      },
    ],
    acknowledgeRevision: [
      'Store the customer acknowledgment of a revision',
      {
        handler: 'acknowledge',
        path: 'customer-acknowledge-revision',
        body: EmptyBodyDto,
        description:
          'Stores the acknowledged total and time; 409 invalid_state without a pending revision. Emits order.revision_acknowledged.',
      },
    ],
    ...actionsOf(OrderTags, {
      addTag: [
        'Attach a tag',
        {
          path: 'tags',
          input: TagRefDto,
          description: 'Idempotent; emits order.updated when newly attached.',
        },
      ],
      removeTag: [
        'Detach a tag',
        {
          method: 'DELETE',
          path: 'tags/:tag_id',
          description: '404 when not attached; emits order.updated.',
        },
      ],
    }),
  },
})
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentsService,
  ) {}

  @Route('POST', ':id/payments', {
    scopes: ['orders:write', 'payments:write'],
    summary: 'Pay an invoice',
    description:
      "Needs orders:write AND payments:write. Card payments go through the payment processor (sandbox: 4242424242424242 approves, 4000000000000002 declines → 422 card_declined, payment.failed). Posts PAYMENT (debit cash, credit receivables). method customer_credit pays from the account's credit_balance instead (default amount: as much of the amount due as the balance covers; above the balance or the amount due is 422 amount_exceeds_limit): posts CREDIT_APPLIED (debit customer credit, credit receivables) and an invoice_payment credit transaction, emits account.updated. Emits payment.succeeded and invoice.paid / invoice.partially_paid.",
    returns: PaymentResponse,
  })
  @ApiResource('payment')
  @ApiTags('Payments')
  pay(@Param('id') id: string, @Body() body: CreatePaymentDto) {
    return this.payments.payOrder(id, body);
  }

  @Route('GET', ':id/payments', {
    scopes: ['orders:read', 'payments:read'],
    summary: "List an order's payments",
    description: 'Newest first.',
  })
  @ApiResource('payment')
  @ApiTags('Payments')
  async listPayments(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    await this.orders.retrieve(id);
    return this.payments.list({ ...query, order_id: id }, requestPath(req));
  }
}
