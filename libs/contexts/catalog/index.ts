/** The catalog context's public surface: the only file other contexts and apps import. */
export { CatalogCoreModule } from './catalog-core.module';
export { CatalogHttpModule } from './catalog-http.module';
export { CatalogWorkerModule } from './catalog-worker.module';
export * from './application/products.service';
export * from './application/product-facts.service';
export * from './application/tags.service';
export { ChannelListingsService } from './application/channel-listings.service';
export * from './application/listing-connector.port';
export * from './catalog.events';
export * from './catalog.scopes';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export { ProductRepository } from './infrastructure/product.repository';
export { ProductVariantRepository } from './infrastructure/product-variant.repository';
export { TagAssignmentRepository } from './infrastructure/tag-assignment.repository';
export { TagRepository } from './infrastructure/tag.repository';
export { ChannelListingSyncProcessor } from './worker/channel-listing-sync.processor';
