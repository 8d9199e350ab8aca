import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TagsService } from './application/tags.service';
import { TagsController } from './http/tags.controller';
import { TagsImporter } from './http/tags.importer';
import { TagAssignmentRecord, TagRecord } from './infrastructure/tag.entity';
import { TagRepository } from './infrastructure/tag.repository';

/** Catalog context: products, tags and channel listings. */
@Module({
  imports: [TypeOrmModule.forFeature([TagRecord, TagAssignmentRecord])],
  controllers: [TagsController],
  providers: [TagRepository, TagsService, TagsImporter],
  exports: [TagsService],
})
export class CatalogModule {}
