import { Injectable } from '@nestjs/common';
import { ServiceImporter } from '#platform/imports/import-registry';
import { TagsService } from '../application/tags.service';
import { CreateTagDto } from './tag.dto';

/**
 * Bulk import of tags (`resource: "tags"`): validated as POST /tags, written through TagsService:
 * new records with createMany (one multi-row INSERT, one setting.tag.created each), known ones
 * with update.
 */
@Injectable()
export class TagsImporter extends ServiceImporter<CreateTagDto> {
  constructor(tags: TagsService) {
    super('tags', CreateTagDto, tags);
  }
}
