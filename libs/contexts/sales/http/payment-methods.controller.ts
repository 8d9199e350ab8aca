import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
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

  @Route('POST', '', {
    scopes: 'payments:write',
    summary: 'Add a payment method to an account',
    description:
      'The first method of an account becomes its default. Emits payment.method.created (and payment.method.default_changed when it takes the default).',
    returns: PaymentMethodResponse,
  })
  create(@Param('id') id: string, @Body() body: CreatePaymentMethodDto) {
    return this.accounts.paymentMethods.create(id, { ...body });
  }

  @Route('GET', '', {
    scopes: 'payments:read',
    summary: 'List the payment methods of an account',
    description: 'Newest first, cursor-paginated.',
  })
  list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    return this.accounts.paymentMethods.list(id, query, requestPath(req));
  }

  @Route('GET', ':pm_id', {
    scopes: 'payments:read',
    summary: 'Retrieve a payment method',
    returns: PaymentMethodResponse,
  })
  retrieve(@Param('id') id: string, @Param('pm_id') pmId: string, @Query() _query: RetrieveQueryDto) {
    return this.accounts.paymentMethods.retrieve(id, pmId);
  }

  @Route('PATCH', ':pm_id', {
    scopes: 'payments:write',
    summary: 'Make a payment method the account default',
    description:
      'Body is_default, which must be true. Emits payment.method.default_changed when the default moves.',
    returns: PaymentMethodResponse,
  })
  setDefault(
    @Param('id') id: string,
    @Param('pm_id') pmId: string,
    @Body() body: SetDefaultPaymentMethodDto,
  ) {
    return this.accounts.paymentMethods.update(id, pmId, { ...body });
  }

  @Route('DELETE', ':pm_id', {
    scopes: 'payments:write',
    summary: 'Remove a payment method',
    description: 'Deleting the default promotes the most recent other method. Emits payment.method.deleted.',
  })
  delete(@Param('id') id: string, @Param('pm_id') pmId: string) {
    return this.accounts.paymentMethods.delete(id, pmId);
  }
}
