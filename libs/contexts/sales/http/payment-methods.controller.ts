import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { AccountsService } from '../application/accounts.service';
import {
  CreatePaymentMethodDto,
  PaymentMethodResponse,
  SetDefaultPaymentMethodDto,
} from './payment-method.dto';

@ApiTags('Payment methods')
@ApiResource('payment_method')
@Controller('accounts/:id/payment-methods')
export class PaymentMethodsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post()
  @RequireScopes('payments:write')
  @ApiOperation({
    summary: 'Add a payment method to an account',
    description:
      'The first method of an account becomes its default. Emits payment.method.created (and payment.method.default_changed when it takes the default).',
  })
  @ApiResponse({ status: 201, type: PaymentMethodResponse })
  create(@Param('id') id: string, @Body() body: CreatePaymentMethodDto) {
    return this.accounts.paymentMethods.create(id, { ...body });
  }

  @Get()
  @RequireScopes('payments:read')
  @ApiOperation({
    summary: 'List the payment methods of an account',
    description: 'Newest first, cursor-paginated.',
  })
  list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    return this.accounts.paymentMethods.list(id, query, req.originalUrl.split('?')[0]);
  }

  @Get(':pm_id')
  @RequireScopes('payments:read')
  @ApiOperation({ summary: 'Retrieve a payment method' })
  @ApiResponse({ status: 200, type: PaymentMethodResponse })
  retrieve(@Param('id') id: string, @Param('pm_id') pmId: string, @Query() _query: RetrieveQueryDto) {
    return this.accounts.paymentMethods.retrieve(id, pmId);
  }

  @Patch(':pm_id')
  @RequireScopes('payments:write')
  @ApiOperation({
    summary: 'Make a payment method the account default',
    description:
      'Body is_default, which must be true. Emits payment.method.default_changed when the default moves.',
  })
  @ApiResponse({ status: 200, type: PaymentMethodResponse })
  setDefault(
    @Param('id') id: string,
    @Param('pm_id') pmId: string,
    @Body() body: SetDefaultPaymentMethodDto,
  ) {
    return this.accounts.paymentMethods.update(id, pmId, { ...body });
  }

  @Delete(':pm_id')
  @RequireScopes('payments:write')
  @ApiOperation({
    summary: 'Remove a payment method',
    description: 'Deleting the default promotes the most recent other method. Emits payment.method.deleted.',
  })
  delete(@Param('id') id: string, @Param('pm_id') pmId: string) {
    return this.accounts.paymentMethods.delete(id, pmId);
  }
}
