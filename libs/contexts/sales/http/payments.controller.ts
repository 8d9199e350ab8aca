import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath, StandardRoutes } from '#platform/http/standard-routes';
import { PaymentsService } from '../application/payments.service';
import { CreateRefundDto, PaymentListQueryDto, PaymentResponse, RefundResponse } from './payment.dto';

@ApiTags('Payments')
@ApiResource('payment')
@Controller('payments')
@StandardRoutes({
  service: 'payments',
  scope: 'payments',
  model: PaymentResponse,
  list: [
    PaymentListQueryDto,
    'List payments',
    {
      description:
        'Newest first; filters order_id, account_id, status. Failed attempts are listed with status failed.',
    },
  ],
  retrieve: ['Retrieve a payment'],
  actions: {
    refund: [
      'Refund a payment',
      {
        path: 'refunds',
        input: CreateRefundDto,
        description:
          'Whole (default) or partial. Posts REFUND (debit receivables, credit cash): the invoice is due again by the amount. Emits payment.refunded or payment.partially_refunded.',
        code: 201,
        returns: RefundResponse,
        decorators: [ApiResource('refund')],
      },
    ],
  },
})
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @Route('GET', ':id/refunds', {
    scopes: 'payments:read',
    summary: "List a payment's refunds",
    description: 'Newest first.',
  })
  @ApiResource('refund')
  listRefunds(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    return this.payments.listRefunds(id, query, requestPath(req));
  }
}
