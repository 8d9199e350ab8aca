import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { CatalogSeedContributor } from './application/catalog-seed.contributor';
import { ChannelListingsService } from './application/channel-listings.service';
import { ListingConnectors } from './application/listing-connector.port';
import { ProductCategoriesService } from './application/product-categories.service';
import { ProductFactsService } from './application/product-facts.service';
import { ProductVariantsService } from './application/product-variants.service';
import { ProductsService } from './application/products.service';
import { TagsService } from './application/tags.service';
import { ProductsImporter } from './http/products.importer';
import { TagsImporter } from './http/tags.importer';
import { ChannelListingRepository } from './infrastructure/channel-listing.repository';
import { ProductCategoryRepository } from './infrastructure/product-category.repository';
import { ProductRepository } from './infrastructure/product.repository';
import { ProductVariantRepository } from './infrastructure/product-variant.repository';
import { ChannelListingRecord } from './infrastructure/channel-listing.entity';
import { ProductCategoryRecord } from './infrastructure/product-category.entity';
import { ProductRecord, ProductVariantRecord } from './infrastructure/product.entity';
import { TagAssignmentRepository } from './infrastructure/tag-assignment.repository';
import { TagAssignmentRecord, TagRecord } from './infrastructure/tag.entity';
import { TagRepository } from './infrastructure/tag.repository';

const RECORDS = [
  TagRecord,
  TagAssignmentRecord,
  ProductRecord,
  ProductVariantRecord,
  ProductCategoryRecord,
  ChannelListingRecord,
];
const REPOSITORIES = [
  TagRepository,
  TagAssignmentRepository,
  ProductRepository,
  ProductVariantRepository,
  ProductCategoryRepository,
  ChannelListingRepository,
];
const SERVICES = [
  TagsService,
  ProductsService,
  ProductVariantsService,
  ProductCategoriesService,
  ChannelListingsService,
  ProductFactsService,
  ListingConnectors,
];

/**
 * Catalog core: products, variants, categories, tags and channel listings (whose storefront
 * pushes go through the `catalog` queue), with the bulk importers of tags and products and the
 * QA seed fixtures. Exports application services only.
 */
@Module({
  imports: [TypeOrmModule.forFeature(RECORDS), BullModule.registerQueue({ name: QUEUE_NAMES.catalog })],
  providers: [...REPOSITORIES, ...SERVICES, CatalogSeedContributor, TagsImporter, ProductsImporter],
  exports: SERVICES,
})
export class CatalogCoreModule {}
