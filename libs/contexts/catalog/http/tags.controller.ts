import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { TagsService } from '../application/tags.service';
import { CreateTagDto, TagResponse, UpdateTagDto } from './tag.dto';

@ApiTags('Tags')
@ApiResource('tag')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Post()
  @RequireScopes('tags:write')
  @ApiOperation({ summary: 'Create a tag' })
  @ApiResponse({ status: 201, type: TagResponse })
  create(@Body() body: CreateTagDto) {
    return this.tags.create(body);
  }

  @Get()
  @RequireScopes('tags:read')
  @ApiOperation({ summary: 'List tags', description: 'Newest first, cursor-paginated.' })
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.tags.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('tags:read')
  @ApiOperation({ summary: 'Retrieve a tag' })
  @ApiResponse({ status: 200, type: TagResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.tags.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('tags:write')
  @ApiOperation({ summary: 'Update a tag' })
  @ApiResponse({ status: 200, type: TagResponse })
  update(@Param('id') id: string, @Body() body: UpdateTagDto) {
    return this.tags.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('tags:write')
  @ApiOperation({
    summary: 'Delete a tag',
    description: 'Permanent: the tag is detached from every resource.',
  })
  delete(@Param('id') id: string) {
    return this.tags.delete(id);
  }
}
