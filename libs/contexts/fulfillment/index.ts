/** The fulfillment context's public surface: the only file other contexts and apps import. */
export { FulfillmentModule, FulfillmentHttpModule, FulfillmentWorkerModule } from './fulfillment.module';
export { PackagesService } from './application/packages.service';
export { LabelsService } from './application/labels.service';
export { ReturnsService } from './application/returns.service';
