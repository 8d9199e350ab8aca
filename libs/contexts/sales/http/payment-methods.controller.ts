import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { AccountsService } from '../application/accounts.service';
import {
  CreatePaymentMethodDto,
  PaymentMethodResponse,
  SetDefaultPaymentMethodDto,
} from './payment-method.dto';

@ApiTags('Payment methods')
@ApiResource('payment_method')
@Controller('accounts')
@StandardRoutes({
  service: 'methods',
  scope: 'payments',
  model: PaymentMethodResponse,
  path: ':id/payment-methods',
  id: 'pm_id',
  create: [
    CreatePaymentMethodDto,
    'Add a payment method to an account',
    {
      description:
        'The first method of an account becomes its default. Emits payment.method.created (and, when it takes the default, payment.method.default_changed, and payment.method.updated for the method that held it).',
    },
  ],
  list: [
    ListQueryDto,
    'List the payment methods of an account',
    { description: 'Newest first, cursor-paginated.' },
  ],
  retrieve: ['Retrieve a payment method'],
  update: [
    SetDefaultPaymentMethodDto,
    'Make a payment method the account default',
    {
      handler: 'setDefault',
      description:
        'Body is_default, which must be true. When the default moves, emits payment.method.default_changed for this method and payment.method.updated for the method that held it.',
    },
  ],
  delete: [
    'Remove a payment method',
    {
      description:
        'Deleting the default promotes the most recent other method. Emits payment.method.deleted.',
    },
  ],
})
/** An account's payment methods: the account's `paymentMethods` child service, at `accounts/{id}/payment-methods`. */
export class PaymentMethodsController {
  private readonly methods: AccountsService['paymentMethods'];

  constructor(accounts: AccountsService) {
    this.methods = accounts.paymentMethods;
  }
}
