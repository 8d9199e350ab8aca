import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { TagsService } from '../application/tags.service';
import { CreateTagDto, TagResponse, UpdateTagDto } from './tag.dto';

@ApiTags('Tags')
@ApiResource('tag')
@Controller('tags')
@StandardRoutes({
  service: TagsService,
  scope: 'tags',
  model: TagResponse,
  create: [CreateTagDto, 'Create a tag'],
  list: [ListQueryDto, 'List tags', { description: 'Newest first, cursor-paginated.' }],
  retrieve: ['Retrieve a tag'],
  update: [UpdateTagDto, 'Update a tag'],
  delete: ['Delete a tag', { description: 'Permanent: the tag is detached from every resource.' }],
})
export class TagsController {}
