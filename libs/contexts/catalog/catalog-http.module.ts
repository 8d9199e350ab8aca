import { Module } from '@nestjs/common';
import { CatalogCoreModule } from './catalog-core.module';
import { ChannelListingsController } from './http/channel-listings.controller';
import { ProductCategoriesController } from './http/product-categories.controller';
import { ProductsController } from './http/products.controller';
import { TagsController } from './http/tags.controller';

/** Catalog's routes. */
@Module({
  imports: [CatalogCoreModule],
  controllers: [TagsController, ProductsController, ProductCategoriesController, ChannelListingsController],
})
export class CatalogHttpModule {}
