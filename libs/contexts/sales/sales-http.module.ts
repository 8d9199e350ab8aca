import { Module } from '@nestjs/common';
import { ACCOUNT_CHILD_CONTROLLERS } from './http/account-children.controller';
import { AccountsController } from './http/accounts.controller';
import { CreditTransactionsController } from './http/credit-transactions.controller';
import { OrdersController } from './http/orders.controller';
import { PaymentMethodsController } from './http/payment-methods.controller';
import { PaymentsController } from './http/payments.controller';
import { PricingPoliciesController } from './http/pricing-policies.controller';
import { PurchaseOrdersController } from './http/purchase-orders.controller';
import { REFERENCE_LIST_CONTROLLERS } from './http/reference-lists.controller';
import { TestHelpersController } from './http/test-helpers.controller';
import { SalesCoreModule } from './sales-core.module';

/** Sales' routes. */
@Module({
  imports: [SalesCoreModule],
  controllers: [
    AccountsController,
    ...ACCOUNT_CHILD_CONTROLLERS,
    CreditTransactionsController,
    PaymentMethodsController,
    PricingPoliciesController,
    ...REFERENCE_LIST_CONTROLLERS,
    OrdersController,
    PaymentsController,
    PurchaseOrdersController,
    TestHelpersController,
  ],
})
export class SalesHttpModule {}
