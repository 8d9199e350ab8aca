import { Injectable, OnModuleInit } from '@nestjs/common';
import { ImportRegistry, validateAs } from '#platform/imports/import-registry';
import { TagsService } from '../application/tags.service';
import { CreateTagDto } from './tag.dto';

/** Bulk import of tags (`resource: "tags"`): validated as POST /tags, written through TagsService. */
@Injectable()
export class TagsImporter implements OnModuleInit {
  constructor(
    private readonly registry: ImportRegistry,
    private readonly tags: TagsService,
  ) {}

  onModuleInit(): void {
    this.registry.register<CreateTagDto>({
      resource: 'tags',
      validate: (record) => validateAs(CreateTagDto, record),
      upsert: (input, existingId) =>
        existingId ? this.tags.update(existingId, input) : this.tags.create(input),
    });
  }
}
