import { BullModule } from '@nestjs/bullmq';
import { Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '#platform/config/app-config';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { AccountingCoreModule } from '#contexts/accounting';
import { CatalogCoreModule } from '#contexts/catalog';
import { InventoryCoreModule } from '#contexts/inventory';
import { SalesCoreModule } from '#contexts/sales';
import { CARRIER_GATEWAY, CarrierGateway } from './application/carrier.port';
import { FulfillmentPostings } from './application/fulfillment-postings.service';
import { FulfillmentSeedContributor } from './application/fulfillment-seed.contributor';
import { LabelsService } from './application/labels.service';
import { OrderReader } from './application/order-facts';
import { PackageShipping } from './application/package-shipping.service';
import { PackageViews } from './application/package-views.service';
import { PackagesService } from './application/packages.service';
import { ReceiveReturn } from './application/returns/receive-return';
import { RefundReturn } from './application/returns/refund-return';
import { Returns } from './application/returns/returns';
import { SHIPMENT_NOTIFIER } from './application/shipment-notifier.port';
import { ShipmentNotificationDelivery } from './application/shipment-notification-delivery.service';
import { ShipmentNotifications } from './application/shipment-notifications.service';
import { FulfillmentSettingsService } from './application/fulfillment-settings.service';
import { EasyPostCarrier } from './infrastructure/easypost-carrier';
import { FULFILLMENT_RECORDS } from './infrastructure/fulfillment.entities';
import { FulfillmentSettingsRepository } from './infrastructure/fulfillment-settings.repository';
import { PackageItemRepository } from './infrastructure/package-item.repository';
import { PackageLabelRepository } from './infrastructure/package-label.repository';
import { PackageRepository } from './infrastructure/package.repository';
import { ReturnAuthorizationRepository } from './infrastructure/return-authorization.repository';
import { ReturnReceiptRepository } from './infrastructure/return-receipt.repository';
import { ShipmentNotificationRepository } from './infrastructure/shipment-notification.repository';
import { ShippingRateRepository } from './infrastructure/shipping-rate.repository';
import { SandboxCarrier } from './infrastructure/sandbox-carrier';
import { SandboxNotifier } from './infrastructure/sandbox-notifier';
import { NewPackageWriter } from './infrastructure/new-package.writer';
import { PackingReads } from './infrastructure/packing-reads';

const REPOSITORIES = [
  FulfillmentSettingsRepository,
  PackageRepository,
  PackageItemRepository,
  ShippingRateRepository,
  PackageLabelRepository,
  ShipmentNotificationRepository,
  ReturnReceiptRepository,
  ReturnAuthorizationRepository,
  NewPackageWriter,
  PackingReads,
];

/** The configured label provider: the sandbox carrier unless CARRIER_PROVIDER=easypost. */
const carrierProvider: Provider = {
  provide: CARRIER_GATEWAY,
  inject: [AppConfig],
  useFactory: (config: AppConfig): CarrierGateway => {
    if (config.CARRIER_PROVIDER !== 'easypost') return new SandboxCarrier();
    if (!config.EASYPOST_API_KEY) throw new Error('CARRIER_PROVIDER=easypost needs EASYPOST_API_KEY');
    return new EasyPostCarrier(config.EASYPOST_API_KEY, config.EASYPOST_BASE_URL);
  },
};

const SERVICES = [
  PackagesService,
  LabelsService,
  Returns,
  ReceiveReturn,
  RefundReturn,
  FulfillmentSettingsService,
  ShipmentNotifications,
  ShipmentNotificationDelivery,
];

/**
 * Fulfillment core: packages and items, rates and labels through the carrier port, insurance,
 * shipping (stock through inventory, postings through accounting, orders through sales) and
 * shipment notifications (queued on `fulfillment`, delivered through the notifier port).
 * Exports application services only.
 */
@Module({
  imports: [
    CatalogCoreModule,
    SalesCoreModule,
    AccountingCoreModule,
    InventoryCoreModule,
    TypeOrmModule.forFeature(FULFILLMENT_RECORDS),
    BullModule.registerQueue({ name: QUEUE_NAMES.fulfillment }),
  ],
  providers: [
    ...REPOSITORIES,
    ...SERVICES,
    PackageViews,
    OrderReader,
    PackageShipping,
    FulfillmentPostings,
    carrierProvider,
    { provide: SHIPMENT_NOTIFIER, useClass: SandboxNotifier },
    FulfillmentSeedContributor,
  ],
  exports: SERVICES,
})
export class FulfillmentCoreModule {}
