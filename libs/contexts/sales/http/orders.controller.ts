import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { OrdersService } from '../application/orders.service';
import { PaymentsService } from '../application/payments.service';
import {
  CreateOrderDto,
  CreatePaymentDto,
  EmptyBodyDto,
  OrderLineDto,
  OrderListQueryDto,
  OrderResponse,
  PaymentResponse,
  TagRefDto,
  UpdateOrderDto,
  UpdateOrderLineDto,
} from './order.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Orders')
@ApiResource('order')
@Controller('orders')
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentsService,
  ) {}

  @Post()
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Create an order document',
    description:
      'A draft quote, sales order, invoice, return, purchase order or late-fee invoice. Lines are priced from the product list price and the applicable pricing policy unless unit_price is sent. Emits order.created (and invoice.created).',
  })
  @ApiResponse({ status: 201, type: OrderResponse })
  create(@Body() body: CreateOrderDto) {
    return this.orders.create(body);
  }

  @Get()
  @RequireScopes('orders:read')
  @ApiOperation({
    summary: 'List orders',
    description:
      'Quotes, sales orders and invoices by default; document_type switches to one type. Newest first (sort=created_at_asc reverses). expand[]=account, expand[]=lines.product.',
  })
  list(@Query() query: OrderListQueryDto, @Req() req: Request) {
    return this.orders.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('orders:read')
  @ApiOperation({ summary: 'Retrieve an order' })
  @ApiResponse({ status: 200, type: OrderResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.orders.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Update an order',
    description:
      'notes and metadata any time before cancel/void; lines (replaced) and account_id while editable. A change to the lines of a confirmed order sent to the customer revises it (order.revised).',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  update(@Param('id') id: string, @Body() body: UpdateOrderDto) {
    return this.orders.update(id, body);
  }

  @Post(':id/lines')
  @RequireScopes('orders:write')
  @ApiOperation({ summary: 'Add a line', description: 'Emits order.line.added; returns the order.' })
  @ApiResponse({ status: 201, type: OrderResponse })
  addLine(@Param('id') id: string, @Body() body: OrderLineDto) {
    return this.orders.addLine(id, body);
  }

  @Patch(':id/lines/:line_id')
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Update a line',
    description:
      'Keeps the line price unless unit_price or product_id changes. Emits order.line.updated; returns the order.',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  updateLine(@Param('id') id: string, @Param('line_id') lineId: string, @Body() body: UpdateOrderLineDto) {
    return this.orders.updateLine(id, lineId, body);
  }

  @Delete(':id/lines/:line_id')
  @RequireScopes('orders:write')
  @ApiOperation({ summary: 'Remove a line', description: 'Emits order.line.removed; returns the order.' })
  @ApiResponse({ status: 200, type: OrderResponse })
  removeLine(@Param('id') id: string, @Param('line_id') lineId: string) {
    return this.orders.removeLine(id, lineId);
  }

  @Post(':id/confirm')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Confirm a draft',
    description:
      'draft → confirmed. An invoice is issued: posted to the ledger (INVOICE: debit receivables, credit revenue and tax). Emits order.confirmed (and invoice.finalized).',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  confirm(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.orders.confirm(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Cancel an order',
    description:
      'draft (any type) or confirmed (not invoices), nothing paid → cancelled. Emits order.cancelled.',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  cancel(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.orders.cancel(id);
  }

  @Post(':id/void')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Void a confirmed order',
    description:
      'confirmed, nothing paid → voided; an issued invoice is reversed in the ledger (ORDER_CANCELLATION). Emits order.voided (and invoice.voided).',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  void(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.orders.void(id);
  }

  @Post(':id/close')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({ summary: 'Close a confirmed or fulfilled order', description: 'Emits order.updated.' })
  @ApiResponse({ status: 200, type: OrderResponse })
  close(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.orders.close(id);
  }

  @Post(':id/convert')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Convert a quote to a sales order, or a sales order to an invoice',
    description:
      'Returns the NEW draft document (source_order_id points back). A quote closes; a sales order keeps its status. Once per document. Emits order.created and order.converted.',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  convert(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.orders.convert(id);
  }

  @Post(':id/send')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Record that the document was sent to the customer',
    description:
      'Sets sent_to_customer_at; later line changes of a confirmed order revise it. Emits order.updated.',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  send(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.orders.send(id);
  }

  @Post(':id/customer-acknowledge-revision')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Store the customer acknowledgment of a revision',
    description:
      'Stores the acknowledged total and time; 409 invalid_state without a pending revision. Emits order.revision_acknowledged.',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  acknowledge(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.orders.acknowledgeRevision(id);
  }

  @Post(':id/tags')
  @HttpCode(200)
  @RequireScopes('orders:write')
  @ApiOperation({
    summary: 'Attach a tag',
    description: 'Idempotent; emits order.updated when newly attached.',
  })
  @ApiResponse({ status: 200, type: OrderResponse })
  addTag(@Param('id') id: string, @Body() body: TagRefDto) {
    return this.orders.addTag(id, body.tag_id);
  }

  @Delete(':id/tags/:tag_id')
  @RequireScopes('orders:write')
  @ApiOperation({ summary: 'Detach a tag', description: '404 when not attached; emits order.updated.' })
  @ApiResponse({ status: 200, type: OrderResponse })
  removeTag(@Param('id') id: string, @Param('tag_id') tagId: string) {
    return this.orders.removeTag(id, tagId);
  }

  @Post(':id/payments')
  @ApiResource('payment')
  @RequireScopes('orders:write', 'payments:write')
  @ApiTags('Payments')
  @ApiOperation({
    summary: 'Pay an invoice',
    description:
      'Needs orders:write AND payments:write. Card payments go through the payment processor (sandbox: 4242424242424242 approves, 4000000000000002 declines → 422 card_declined, payment.failed). Posts PAYMENT (debit cash, credit receivables). Emits payment.succeeded and invoice.paid / invoice.partially_paid.',
  })
  @ApiResponse({ status: 201, type: PaymentResponse })
  pay(@Param('id') id: string, @Body() body: CreatePaymentDto) {
    return this.payments.payOrder(id, body);
  }

  @Get(':id/payments')
  @ApiResource('payment')
  @RequireScopes('orders:read', 'payments:read')
  @ApiTags('Payments')
  @ApiOperation({ summary: "List an order's payments", description: 'Newest first.' })
  async listPayments(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    await this.orders.retrieve(id);
    return this.payments.list({ ...query, order_id: id }, path(req));
  }
}
