import { Injectable } from '@nestjs/common';
import { BodyImporter, outcomes } from '#platform/imports/import-registry';
import { TagsService } from '../application/tags.service';
import { CreateTagDto } from './tag.dto';

/**
 * Bulk import of tags (`resource: "tags"`): validated as POST /tags, written through TagsService:
 * new records with createMany (one multi-row INSERT, one setting.tag.created each), known ones
 * with update.
 */
@Injectable()
export class TagsImporter extends BodyImporter<CreateTagDto> {
  constructor(private readonly tags: TagsService) {
    super('tags', CreateTagDto);
  }

  upsert(input: CreateTagDto, existingId: string | null) {
    return existingId ? this.tags.update(existingId, input) : this.tags.create(input);
  }

  async createMany(inputs: CreateTagDto[]) {
    return outcomes(await this.tags.createMany(inputs));
  }
}
