import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { PaymentsService } from '../application/payments.service';
import { CreateRefundDto, PaymentListQueryDto, PaymentResponse, RefundResponse } from './order.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Payments')
@ApiResource('payment')
@Controller('payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @Get()
  @RequireScopes('payments:read')
  @ApiOperation({
    summary: 'List payments',
    description:
      'Newest first; filters order_id, account_id, status. Failed attempts are listed with status failed.',
  })
  list(@Query() query: PaymentListQueryDto, @Req() req: Request) {
    return this.payments.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('payments:read')
  @ApiOperation({ summary: 'Retrieve a payment' })
  @ApiResponse({ status: 200, type: PaymentResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.payments.retrieve(id);
  }

  @Post(':id/refunds')
  @ApiResource('refund')
  @RequireScopes('payments:write')
  @ApiOperation({
    summary: 'Refund a payment',
    description:
      'Whole (default) or partial. Posts REFUND (debit receivables, credit cash): the invoice is due again by the amount. Emits payment.refunded or payment.partially_refunded.',
  })
  @ApiResponse({ status: 201, type: RefundResponse })
  refund(@Param('id') id: string, @Body() body: CreateRefundDto) {
    return this.payments.refund(id, body);
  }

  @Get(':id/refunds')
  @ApiResource('refund')
  @RequireScopes('payments:read')
  @ApiOperation({ summary: "List a payment's refunds", description: 'Newest first.' })
  listRefunds(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    return this.payments.listRefunds(id, query, path(req));
  }
}
