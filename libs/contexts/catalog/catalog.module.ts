import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { CatalogSeedContributor } from './application/catalog-seed.contributor';
import { ChannelListingsService } from './application/channel-listings.service';
import { ProductCategoriesService } from './application/product-categories.service';
import { ProductFactsService } from './application/product-facts.service';
import { ProductsService } from './application/products.service';
import { TagsService } from './application/tags.service';
import { ChannelListingsController } from './http/channel-listings.controller';
import { ProductCategoriesController } from './http/product-categories.controller';
import { ProductsController } from './http/products.controller';
import { TagsController } from './http/tags.controller';
import { ProductsImporter } from './http/products.importer';
import { TagsImporter } from './http/tags.importer';
import {
  ChannelListingRepository,
  ProductCategoryRepository,
  ProductRepository,
  ProductVariantRepository,
} from './infrastructure/catalog.repositories';
import { ChannelListingSyncProcessor } from './infrastructure/channel-listing-sync.processor';
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
  ProductCategoriesService,
  ChannelListingsService,
  ProductFactsService,
];

/** Catalog context: products, variants, categories, tags and channel listings. */
@Module({
  imports: [TypeOrmModule.forFeature(RECORDS), BullModule.registerQueue({ name: QUEUE_NAMES.catalog })],
  controllers: [TagsController, ProductsController, ProductCategoriesController, ChannelListingsController],
  providers: [...REPOSITORIES, ...SERVICES, CatalogSeedContributor, TagsImporter, ProductsImporter],
  exports: [TagsService, ProductsService, ProductFactsService],
})
export class CatalogModule {}

/** The catalog's queue worker (listing syncs), run by the dispatcher app; no HTTP routes. */
@Module({
  imports: [TypeOrmModule.forFeature(RECORDS), BullModule.registerQueue({ name: QUEUE_NAMES.catalog })],
  providers: [...REPOSITORIES, ...SERVICES, ChannelListingSyncProcessor],
})
export class CatalogWorkerModule {}
