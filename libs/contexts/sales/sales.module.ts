import { Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventPublisher } from '../../platform/events/event-publisher';
import { ResourceRegistry } from '../../platform/http/expand/expand-registry';
import { TransactionHost } from '../../platform/persistence/transaction-host';
import { ReferenceListService } from './application/reference-list.service';
import { REFERENCE_LISTS } from './application/reference-lists';
import { LocationRecord, PaymentTermRecord, PricingLevelRecord, SalesChannelRecord, UnitOfMeasureRecord } from './infrastructure/reference-list.entity';
import { REFERENCE_LIST_CONTROLLERS, referenceListToken } from './http/reference-lists.controller';

const referenceListProviders: Provider[] = REFERENCE_LISTS.map((definition) => ({
  provide: referenceListToken(definition.object),
  useFactory: (tx: TransactionHost, events: EventPublisher, resources: ResourceRegistry) =>
    new ReferenceListService(definition as never, tx, events, resources),
  inject: [TransactionHost, EventPublisher, ResourceRegistry],
}));

/** Sales context: accounts, payment methods, pricing policies and the reference lists. */
@Module({
  imports: [TypeOrmModule.forFeature([LocationRecord, PaymentTermRecord, UnitOfMeasureRecord, SalesChannelRecord, PricingLevelRecord])],
  controllers: [...REFERENCE_LIST_CONTROLLERS],
  providers: [...referenceListProviders],
  exports: [...referenceListProviders.map((p) => (p as { provide: string }).provide)],
})
export class SalesModule {}
