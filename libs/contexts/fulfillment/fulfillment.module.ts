import { BullModule } from '@nestjs/bullmq';
import { Module, Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../platform/config/app-config';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { AccountingModule } from '../accounting';
import { CatalogModule } from '../catalog';
import { InventoryModule } from '../inventory';
import { SalesModule } from '../sales';
import { CARRIER_GATEWAY, CarrierGateway } from './application/carrier.port';
import { FulfillmentPostings } from './application/fulfillment-postings.service';
import { FulfillmentSeedContributor } from './application/fulfillment-seed.contributor';
import { LabelsService } from './application/labels.service';
import { OrderReader } from './application/order-facts';
import { PackageShipping } from './application/package-shipping.service';
import { PackageViews } from './application/package-views.service';
import { PackagesService } from './application/packages.service';
import { ReturnsService } from './application/returns.service';
import { RevenueRecognitionRegistration } from './application/revenue-recognition.registration';
import { SHIPMENT_NOTIFIER } from './application/shipment-notifier.port';
import {
  ShipmentNotificationDelivery,
  ShipmentNotifications,
} from './application/shipment-notifications.service';
import { PackagesController } from './http/packages.controller';
import { ReturnsController } from './http/returns.controller';
import { FulfillmentSettingsController } from './http/fulfillment-settings.controller';
import { FulfillmentSettingsService } from './application/fulfillment-settings.service';
import { EasyPostCarrier } from './infrastructure/easypost-carrier';
import { FULFILLMENT_RECORDS } from './infrastructure/fulfillment.entities';
import {
  FulfillmentSettingsRepository,
  PackageItemRepository,
  PackageLabelRepository,
  PackageRepository,
  ReturnReceiptRepository,
  ShipmentNotificationRepository,
  ShippingRateRepository,
} from './infrastructure/fulfillment.repositories';
import { SandboxCarrier } from './infrastructure/sandbox-carrier';
import { SandboxNotifier } from './infrastructure/sandbox-notifier';
import {
  ShipmentNotificationProcessor,
  ShipmentNotificationSweepScheduler,
} from './worker/shipment-notification.processor';

const REPOSITORIES = [
  FulfillmentSettingsRepository,
  PackageRepository,
  PackageItemRepository,
  ShippingRateRepository,
  PackageLabelRepository,
  ShipmentNotificationRepository,
  ReturnReceiptRepository,
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

const SERVICES = [PackagesService, LabelsService, ReturnsService, FulfillmentSettingsService];

/**
 * Fulfillment core: packages and items, rates and labels through the carrier port, insurance,
 * shipping (stock through inventory, postings through accounting, orders through sales) and
 * shipment notifications. Exports application services only.
 */
@Module({
  imports: [
    CatalogModule,
    SalesModule,
    AccountingModule,
    InventoryModule,
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
    ShipmentNotifications,
    carrierProvider,
    FulfillmentSeedContributor,
    RevenueRecognitionRegistration,
  ],
  exports: SERVICES,
})
export class FulfillmentModule {}

/** Fulfillment's routes. */
@Module({
  imports: [FulfillmentModule],
  controllers: [PackagesController, ReturnsController, FulfillmentSettingsController],
})
export class FulfillmentHttpModule {}

/** The worker side (dispatcher app): delivers queued shipment notifications through the notifier and sweeps for lost jobs. */
@Module({
  imports: [
    TypeOrmModule.forFeature(FULFILLMENT_RECORDS),
    BullModule.registerQueue({ name: QUEUE_NAMES.fulfillment }),
  ],
  providers: [
    ShipmentNotificationRepository,
    ShipmentNotificationDelivery,
    ShipmentNotifications,
    { provide: SHIPMENT_NOTIFIER, useClass: SandboxNotifier },
    ShipmentNotificationProcessor,
    ShipmentNotificationSweepScheduler,
  ],
})
export class FulfillmentWorkerModule {}
