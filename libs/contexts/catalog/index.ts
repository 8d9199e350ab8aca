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
