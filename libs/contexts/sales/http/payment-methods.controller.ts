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
@Controller('accounts')
/**
 * An account's payment methods at `accounts/{id}/payment-methods`: thin handlers over the account's
 * `paymentMethods` child service (an object the accounts service builds, not an injectable class).
 */
export class PaymentMethodsController {
  private readonly methods: AccountsService['paymentMethods'];

  constructor(accounts: AccountsService) {
    this.methods = accounts.paymentMethods;
  }

  @Route('POST', ':id/payment-methods', {
    scopes: 'payments:write',
    summary: 'Add a payment method to an account',
    description:
      'The first method of an account becomes its default. Emits payment.method.created (and, when it takes the default, payment.method.default_changed, and payment.method.updated for the method that held it).',
    returns: PaymentMethodResponse,
  })
  create(@Param('id') id: string, @Body() body: CreatePaymentMethodDto) {
    return this.methods.create(id, { ...body });
  }

  @Route('GET', ':id/payment-methods', {
    scopes: 'payments:read',
    summary: 'List the payment methods of an account',
    description: 'Newest first, cursor-paginated.',
  })
  list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    return this.methods.list(id, query, requestPath(req));
  }

  @Route('GET', ':id/payment-methods/:pm_id', {
    scopes: 'payments:read',
    summary: 'Retrieve a payment method',
    returns: PaymentMethodResponse,
  })
  retrieve(@Param('id') id: string, @Param('pm_id') pmId: string, @Query() _query: RetrieveQueryDto) {
    return this.methods.retrieve(id, pmId);
  }

  @Route('PATCH', ':id/payment-methods/:pm_id', {
    scopes: 'payments:write',
    summary: 'Make a payment method the account default',
    description:
      'Body is_default, which must be true. When the default moves, emits payment.method.default_changed for this method and payment.method.updated for the method that held it.',
    returns: PaymentMethodResponse,
  })
  setDefault(
    @Param('id') id: string,
    @Param('pm_id') pmId: string,
    @Body() body: SetDefaultPaymentMethodDto,
  ) {
    return this.methods.update(id, pmId, { ...body });
  }

  @Route('DELETE', ':id/payment-methods/:pm_id', {
    scopes: 'payments:write',
    summary: 'Remove a payment method',
    description: 'Deleting the default promotes the most recent other method. Emits payment.method.deleted.',
  })
  delete(@Param('id') id: string, @Param('pm_id') pmId: string) {
    return this.methods.delete(id, pmId);
  }
}
