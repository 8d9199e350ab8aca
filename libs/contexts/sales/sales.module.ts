import { Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventPublisher } from '../../platform/events/event-publisher';
import { ResourceRegistry } from '../../platform/http/expand/expand-registry';
import { TransactionHost } from '../../platform/persistence/transaction-host';
import { AccountsService } from './application/accounts.service';
import { PricingPoliciesService } from './application/pricing-policies.service';
import { ReferenceListService } from './application/reference-list.service';
import { REFERENCE_LISTS } from './application/reference-lists';
import { SalesSeed } from './application/sales-seed';
import { referenceListToken } from './application/tokens';
import { ACCOUNT_CHILD_CONTROLLERS } from './http/account-children.controller';
import { AccountsController } from './http/accounts.controller';
import { AccountsImporter } from './http/accounts.importer';
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
 * Sales context: customer accounts (addresses, contacts, payment methods), pricing policies
 * and the reference lists. Other contexts use AccountsService, PricingPoliciesService and the
 * reference-list services (tokens in application/tokens.ts).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
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
    SalesSeed,
    AccountsImporter,
  ],
  exports: [
    AccountsService,
    PricingPoliciesService,
    ...REFERENCE_LISTS.map((d) => referenceListToken(d.object)),
  ],
})
export class SalesModule {}
