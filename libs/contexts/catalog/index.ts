/** The catalog context's public surface: the only file other contexts and apps import. */
export * from './catalog.module';
export * from './application/products.service';
export * from './application/product-facts.service';
export * from './application/tags.service';
