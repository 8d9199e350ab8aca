import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { anyScope } from '#platform/auth/scopes';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { PurchaseOrderReceivingService } from '../application/purchase-order-receiving.service';
import { CreateOrderDto, EmptyBodyDto, OrderListQueryDto, OrderResponse } from './order.dto';

const READ = anyScope('orders:read', 'purchasing:read');
const WRITE = anyScope('orders:write', 'purchasing:write');

/** Purchase orders under their own path: SPEC.md's purchasing scopes open them as well as the orders scopes. */
@ApiTags('Purchase orders')
@ApiResource('order')
@Controller('purchase-orders')
export class PurchaseOrdersController {
  constructor(private readonly purchaseOrders: PurchaseOrderReceivingService) {}

  @Route('POST', '', {
    scopes: WRITE,
    summary: 'Create a purchase order',
    description:
      'A draft order document of type purchase_order (as POST /orders). orders:write or purchasing:write.',
    returns: OrderResponse,
  })
  create(@Body() body: CreateOrderDto) {
    return this.purchaseOrders.create(body);
  }

  @Route('GET', '', {
    scopes: READ,
    summary: 'List purchase orders',
    description: 'GET /orders?document_type=purchase_order; orders:read or purchasing:read.',
  })
  list(@Query() query: OrderListQueryDto, @Req() req: Request) {
    return this.purchaseOrders.list(query, requestPath(req));
  }

  @Route('GET', ':id', {
    scopes: READ,
    summary: 'Retrieve a purchase order',
    description: '404 for any other document type.',
    returns: OrderResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.purchaseOrders.retrieve(id);
  }

  @Route('POST', ':id/confirm', {
    scopes: WRITE,
    summary: 'Confirm (issue) a purchase order',
    description: 'draft → confirmed; its lines count as on_order in inventory until received.',
    code: 200,
    returns: OrderResponse,
  })
  confirm(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.purchaseOrders.confirm(id);
  }

  @Route('POST', ':id/cancel', {
    scopes: WRITE,
    summary: 'Cancel a purchase order',
    description: 'Its open quantity leaves on_order.',
    code: 200,
    returns: OrderResponse,
  })
  cancel(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.purchaseOrders.cancel(id);
  }
}
