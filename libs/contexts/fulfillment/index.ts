/** The fulfillment context's public surface: the only file other contexts and apps import. */
export { FulfillmentCoreModule } from './fulfillment-core.module';
export { FulfillmentHttpModule } from './fulfillment-http.module';
export { FulfillmentWorkerModule } from './fulfillment-worker.module';
export { PackagesService } from './application/packages.service';
export { CreatePackage } from './application/packages/create-package';
export { ShipPackage } from './application/packages/ship-package';
export { VoidPackage } from './application/packages/void-package';
export { LabelsService } from './application/labels.service';
export { Returns } from './application/returns/returns';
export { ReceiveReturn } from './application/returns/receive-return';
export { RefundReturn } from './application/returns/refund-return';
export * from './fulfillment.events';
export * from './fulfillment.scopes';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export { FulfillmentSettingsRepository } from './infrastructure/fulfillment-settings.repository';
export { CARRIER_GATEWAY } from './application/carrier.port';
export type { CarrierGateway } from './application/carrier.port';
export { renderLabel } from './infrastructure/labels/render-label';
export { PNG_HEIGHT, PNG_LAYOUT, PNG_SIGNATURE, PNG_WIDTH } from './infrastructure/labels/png-label';
