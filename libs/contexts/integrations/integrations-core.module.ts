import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountingCoreModule } from '#contexts/accounting';
import { CatalogCoreModule } from '#contexts/catalog';
import { SalesCoreModule } from '#contexts/sales';
import { references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { ConnectorAdapters } from './application/connector-adapters';
import { toIntegrationResource } from './application/integration.presenter';
import { IntegrationsSeedContributor } from './application/integrations-seed.contributor';
import { IntegrationsService } from './application/integrations.service';
import { IntegrationListingConnector } from './application/integration-listing-connector';
import { ImportStorefrontOrder } from './application/import-storefront-order';
import { OrderImportService } from './application/order-import.service';
import {
  IntegrationImportRecord,
  IntegrationRecord,
  IntegrationRunRecord,
} from './infrastructure/integration.entity';
import {
  IntegrationImportRepository,
  IntegrationRepository,
  IntegrationRunRepository,
} from './infrastructure/integration.repository';

const SERVICES = [IntegrationsService, OrderImportService];

/**
 * Integrations core: connector configurations (credentials sealed with SECRETS_KEY), the
 * adapters behind the connector port (sandbox, Shopify), catalog's listing connector, and order
 * and payout imports into sales and the ledger. Exports application services only.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([IntegrationRecord, IntegrationRunRecord, IntegrationImportRecord]),
    BullModule.registerQueue({ name: QUEUE_NAMES.integrations }),
    CatalogCoreModule,
    SalesCoreModule,
    AccountingCoreModule,
  ],
  providers: [
    IntegrationRepository,
    IntegrationRunRepository,
    IntegrationImportRepository,
    ConnectorAdapters,
    IntegrationListingConnector,
    IntegrationsSeedContributor,
    ImportStorefrontOrder,
    ...SERVICES,
  ],
  exports: SERVICES,
})
export class IntegrationsCoreModule implements OnModuleInit {
  constructor(
    private readonly resources: ResourceRegistry,
    private readonly integrations: IntegrationRepository,
  ) {}

  onModuleInit(): void {
    this.resources.registerRecords('integration', this.integrations, toIntegrationResource, references({}));
  }
}
