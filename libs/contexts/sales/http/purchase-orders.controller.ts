import { EmptyBodyDto } from '#platform/http/empty-body.dto';
import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { anyScope } from '#platform/auth/scopes';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
import { PurchaseOrderReceivingService } from '../application/purchase-order-receiving.service';
import { CreatePurchaseOrderDto, OrderResponse, PurchaseOrderListQueryDto } from './order.dto';

const READ = anyScope('orders:read', 'purchasing:read');
const WRITE = anyScope('orders:write', 'purchasing:write');

/** Purchase orders under their own path: the purchasing scopes open them as well as the orders scopes. */
@ApiTags('Purchase orders')
@ApiResource('order')
@Controller('purchase-orders')
@StandardRoutes({
  service: PurchaseOrderReceivingService,
  scope: { read: READ, write: WRITE },
  model: OrderResponse,
  create: [
    CreatePurchaseOrderDto,
    'Create a purchase order',
    {
      description:
        'A draft order document of type purchase_order (as POST /orders). orders:write or purchasing:write.',
    },
  ],
  list: [
    PurchaseOrderListQueryDto,
    'List purchase orders',
    {
      description:
        'As GET /orders?document_type=purchase_order; document_type, if sent, must be purchase_order. orders:read or purchasing:read.',
    },
  ],
  retrieve: ['Retrieve a purchase order', { description: '404 for any other document type.' }],
  actions: {
    confirm: [
      'Confirm (issue) a purchase order',
      {
        body: EmptyBodyDto,
        description: 'draft → confirmed; its lines count as on_order in inventory until received.',
      },
    ],
    cancel: [
      'Cancel a purchase order',
      { body: EmptyBodyDto, description: 'Its open quantity leaves on_order.' },
    ],
  },
})
export class PurchaseOrdersController {}
