import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { TagsService } from '../application/tags.service';
import { CreateTagDto, TagResponse, UpdateTagDto } from './tag.dto';

@ApiTags('Tags')
@ApiResource('tag')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Route('POST', '', { scopes: 'tags:write', summary: 'Create a tag', returns: TagResponse })
  create(@Body() body: CreateTagDto) {
    return this.tags.create(body);
  }

  @Route('GET', '', {
    scopes: 'tags:read',
    summary: 'List tags',
    description: 'Newest first, cursor-paginated.',
  })
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.tags.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', { scopes: 'tags:read', summary: 'Retrieve a tag', returns: TagResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.tags.retrieve(id);
  }

  @Route('PATCH', ':id', { scopes: 'tags:write', summary: 'Update a tag', returns: TagResponse })
  update(@Param('id') id: string, @Body() body: UpdateTagDto) {
    return this.tags.update(id, body);
  }

  @Route('DELETE', ':id', {
    scopes: 'tags:write',
    summary: 'Delete a tag',
    description: 'Permanent: the tag is detached from every resource.',
  })
  delete(@Param('id') id: string) {
    return this.tags.delete(id);
  }
}
