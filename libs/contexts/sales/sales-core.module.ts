import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { referenceListProvider, referenceListToken } from '#platform/reference-lists/reference-list.service';
import { AccountingCoreModule } from '#contexts/accounting';
import { CatalogCoreModule } from '#contexts/catalog';
import { KitLines } from './application/kit-lines';
import { OrderLineFactsService } from './application/order-line-facts.service';
import { OrderLinePricing } from './application/order-line-pricing.service';
import { CancelOrder } from './application/orders/cancel-order';
import { ConfirmOrder } from './application/orders/confirm-order';
import { InvoiceOrder } from './application/orders/invoice-order';
import { VoidOrder } from './application/orders/void-order';
import { SalesOrders } from './application/sales-orders';
import { OrderChanges } from './application/order-changes.service';
import { OrderLines } from './application/order-lines.service';
import { OrderTags } from './application/order-tags.service';
import { OrdersService } from './application/orders.service';
import { CollectionsService } from './application/collections.service';
import { RevenueRecognition } from './application/revenue-recognition.service';
import {
  OrderLineRevenueRecord,
  RevenueRecognitionRecord,
} from './infrastructure/revenue-recognition.entity';
import {
  OrderLineRevenueRepository,
  RevenueRecognitionRepository,
} from './infrastructure/revenue-recognition.repository';
import { OrderLineFactsRepository } from './infrastructure/order-line-facts.repository';
import { OrderCommitmentsRegistry } from './application/order-commitments.port';
import { PurchaseOrderReceivingService } from './application/purchase-order-receiving.service';
import { PaymentsService } from './application/payments.service';
import { CreditMemos } from './application/credit-memos';
import { PaymentRefunds } from './application/payment-refunds';
import { PAYMENT_PROCESSOR } from './application/ports/payment-processor.port';
import { SalesReceivables } from './application/sales-receivables';
import { ORDER_RECORDS } from './infrastructure/order.entity';
import { CustomerCreditRepository } from './infrastructure/customer-credit.repository';
import { OrderLineRepository } from './infrastructure/order-line.repository';
import { OrderRepository } from './infrastructure/order.repository';
import { PaymentApplicationRepository } from './infrastructure/payment-application.repository';
import { PaymentRepository } from './infrastructure/payment.repository';
import { RefundRepository } from './infrastructure/refund.repository';
import { SandboxPaymentProcessor } from './infrastructure/sandbox-payment-processor';
import { AccountsService } from './application/accounts.service';
import { CustomerCreditsService } from './application/customer-credits.service';
import { PricingPoliciesService } from './application/pricing-policies.service';
import { REFERENCE_LISTS } from './application/reference-lists';
import { SalesSeed } from './application/sales-seed';
import { AccountsImporter } from './http/accounts.importer';
import { OrdersImporter } from './http/orders.importer';
import {
  AccountAddressRecord,
  AccountContactRecord,
  AccountRecord,
  PaymentMethodRecord,
} from './infrastructure/account.entity';
import { PricingPolicyRecord } from './infrastructure/pricing-policy.entity';
import {
  PaymentTermRecord,
  PricingLevelRecord,
  SalesChannelRecord,
  UnitOfMeasureRecord,
} from './infrastructure/reference-list.entity';
import { AccountRepository } from './infrastructure/account.repository';
import { AddressRepository } from './infrastructure/address.repository';
import { ContactRepository } from './infrastructure/contact.repository';
import { PaymentMethodRepository } from './infrastructure/payment-method.repository';
import { PricingPolicyRepository } from './infrastructure/pricing-policy.repository';

const referenceListProviders = REFERENCE_LISTS.map((definition) =>
  referenceListProvider(definition as never),
);

/**
 * Sales core: customer accounts (addresses, contacts, payment methods), pricing policies,
 * reference lists, order documents and payments, with the bulk importers of accounts and orders
 * and the QA seed fixtures. Exports application services only: other contexts use
 * AccountsService, PricingPoliciesService, SalesOrders (order documents), PaymentsService and the
 * reference-list services (tokens in application/tokens.ts); accounting reaches invoices through
 * the ReceivablesPort this module registers. OrdersService and the order use cases are exported
 * for sales' own HTTP module.
 */
@Module({
  imports: [
    CatalogCoreModule,
    AccountingCoreModule,
    TypeOrmModule.forFeature([
      ...ORDER_RECORDS,
      OrderLineRevenueRecord,
      RevenueRecognitionRecord,
      AccountRecord,
      AccountAddressRecord,
      AccountContactRecord,
      PaymentMethodRecord,
      PricingPolicyRecord,
      PaymentTermRecord,
      UnitOfMeasureRecord,
      SalesChannelRecord,
      PricingLevelRecord,
    ]),
  ],
  providers: [
    ...referenceListProviders,
    AccountRepository,
    AddressRepository,
    ContactRepository,
    PaymentMethodRepository,
    PricingPolicyRepository,
    AccountsService,
    CustomerCreditsService,
    PricingPoliciesService,
    OrderRepository,
    OrderLineRepository,
    PaymentRepository,
    PaymentApplicationRepository,
    RefundRepository,
    CustomerCreditRepository,
    OrdersService,
    CollectionsService,
    OrderChanges,
    OrderLines,
    OrderTags,
    ConfirmOrder,
    InvoiceOrder,
    CancelOrder,
    VoidOrder,
    SalesOrders,
    OrderLinePricing,
    PaymentsService,
    CreditMemos,
    PaymentRefunds,
    OrderCommitmentsRegistry,
    RevenueRecognition,
    OrderLineRevenueRepository,
    RevenueRecognitionRepository,
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
    CustomerCreditsService,
    PricingPoliciesService,
    OrdersService,
    ConfirmOrder,
    CancelOrder,
    VoidOrder,
    SalesOrders,
    CollectionsService,
    OrderLines,
    OrderTags,
    PaymentsService,
    CreditMemos,
    OrderLineFactsService,
    KitLines,
    OrderCommitmentsRegistry,
    RevenueRecognition,
    PurchaseOrderReceivingService,
    ...REFERENCE_LISTS.map((d) => referenceListToken(d.object)),
  ],
})
export class SalesCoreModule {}
