import { Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventPublisher } from '../../platform/events/event-publisher';
import { ResourceRegistry } from '../../platform/http/expand/expand-registry';
import { TransactionHost } from '../../platform/persistence/transaction-host';
import { AccountingModule } from '../accounting';
import { CatalogModule } from '../catalog';
import { KitLines } from './application/kit-lines';
import { OrderLineFactsService } from './application/order-line-facts.service';
import { OrderLinePricing } from './application/order-line-pricing.service';
import { OrderPostings } from './application/order-postings.service';
import { OrdersService } from './application/orders.service';
import { RecognizedRevenueGateway } from './application/recognized-revenue.port';
import { OrderLineFactsRepository } from './infrastructure/order-line-facts.repository';
import { OrderCommitmentsGateway } from './application/order-commitments.port';
import { PurchaseOrderReceivingService } from './application/purchase-order-receiving.service';
import { PurchaseOrdersController } from './http/purchase-orders.controller';
import { PaymentsService } from './application/payments.service';
import { PAYMENT_PROCESSOR } from './application/ports/payment-processor.port';
import { SalesReceivables } from './application/sales-receivables';
import { OrdersController } from './http/orders.controller';
import { PaymentsController } from './http/payments.controller';
import { ORDER_RECORDS } from './infrastructure/order.entity';
import {
  CustomerCreditRepository,
  OrderLineRepository,
  OrderRepository,
  PaymentApplicationRepository,
  PaymentRepository,
  RefundRepository,
} from './infrastructure/order.repositories';
import { SandboxPaymentProcessor } from './infrastructure/sandbox-payment-processor';
import { AccountsService } from './application/accounts.service';
import { PricingPoliciesService } from './application/pricing-policies.service';
import { ReferenceListService } from './application/reference-list.service';
import { REFERENCE_LISTS } from './application/reference-lists';
import { SalesSeed } from './application/sales-seed';
import { referenceListToken } from './application/tokens';
import { ACCOUNT_CHILD_CONTROLLERS } from './http/account-children.controller';
import { AccountsController } from './http/accounts.controller';
import { AccountsImporter } from './http/accounts.importer';
import { OrdersImporter } from './http/orders.importer';
import { PaymentMethodsController } from './http/payment-methods.controller';
import { PricingPoliciesController } from './http/pricing-policies.controller';
import { REFERENCE_LIST_CONTROLLERS } from './http/reference-lists.controller';
import {
  AccountAddressRecord,
  AccountContactRecord,
  AccountRecord,
  PaymentMethodRecord,
} from './infrastructure/account.entity';
import { PricingPolicyRecord } from './infrastructure/pricing-policy.entity';
import {
  LocationRecord,
  PaymentTermRecord,
  PricingLevelRecord,
  SalesChannelRecord,
  UnitOfMeasureRecord,
} from './infrastructure/reference-list.entity';
import {
  AccountRepository,
  AddressRepository,
  ContactRepository,
  PaymentMethodRepository,
  PricingPolicyRepository,
} from './infrastructure/sales.repositories';

const referenceListProviders = REFERENCE_LISTS.map((definition): Provider => ({
  provide: referenceListToken(definition.object),
  useFactory: (tx: TransactionHost, events: EventPublisher, resources: ResourceRegistry) =>
    new ReferenceListService(definition as never, tx, events, resources),
  inject: [TransactionHost, EventPublisher, ResourceRegistry],
}));

/**
 * Sales context: customer accounts (addresses, contacts, payment methods), pricing policies,
 * reference lists, order documents and payments. Other contexts use AccountsService,
 * PricingPoliciesService, OrdersService (assertReadyForFulfillment, markFulfilled),
 * PaymentsService and the reference-list services (tokens in application/tokens.ts); accounting
 * reaches invoices through the ReceivablesPort this module registers.
 */
@Module({
  imports: [
    CatalogModule,
    AccountingModule,
    TypeOrmModule.forFeature([
      ...ORDER_RECORDS,
      AccountRecord,
      AccountAddressRecord,
      AccountContactRecord,
      PaymentMethodRecord,
      PricingPolicyRecord,
      LocationRecord,
      PaymentTermRecord,
      UnitOfMeasureRecord,
      SalesChannelRecord,
      PricingLevelRecord,
    ]),
  ],
  controllers: [
    AccountsController,
    ...ACCOUNT_CHILD_CONTROLLERS,
    PaymentMethodsController,
    PricingPoliciesController,
    ...REFERENCE_LIST_CONTROLLERS,
    OrdersController,
    PaymentsController,
    PurchaseOrdersController,
  ],
  providers: [
    ...referenceListProviders,
    AccountRepository,
    AddressRepository,
    ContactRepository,
    PaymentMethodRepository,
    PricingPolicyRepository,
    AccountsService,
    PricingPoliciesService,
    OrderRepository,
    OrderLineRepository,
    PaymentRepository,
    PaymentApplicationRepository,
    RefundRepository,
    CustomerCreditRepository,
    OrdersService,
    OrderPostings,
    OrderLinePricing,
    PaymentsService,
    OrderCommitmentsGateway,
    RecognizedRevenueGateway,
    PurchaseOrderReceivingService,
    SalesReceivables,
    OrderLineFactsRepository,
    OrderLineFactsService,
    KitLines,
    { provide: PAYMENT_PROCESSOR, useClass: SandboxPaymentProcessor },
    SalesSeed,
    AccountsImporter,
    OrdersImporter,
  ],
  exports: [
    AccountsService,
    PricingPoliciesService,
    OrdersService,
    PaymentsService,
    OrderLineFactsService,
    KitLines,
    OrderCommitmentsGateway,
    RecognizedRevenueGateway,
    PurchaseOrderReceivingService,
    ...REFERENCE_LISTS.map((d) => referenceListToken(d.object)),
  ],
})
export class SalesModule {}
