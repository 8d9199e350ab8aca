/** The replenishment context's public surface: the only file other contexts and apps import. */
export { ReplenishmentCoreModule, ReplenishmentModule } from './replenishment.module';
export { ProductVendorsService } from './application/product-vendors.service';
export { KitComponentsService } from './application/kit-components.service';
