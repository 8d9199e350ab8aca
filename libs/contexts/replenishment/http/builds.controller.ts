import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope } from '../../../platform/http/list/paginate';
import { BuildsService } from '../application/builds.service';
import { BuildResponse, CreateBuildDto } from './build.dto';
import { toBuildResource } from './build.presenter';

@ApiTags('Inventory')
@Controller('inventory/builds')
export class BuildsController {
  constructor(private readonly builds: BuildsService) {}

  @Post()
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Build kits',
    description:
      'Draws the components (build_consumption) and adds the kits (build_output) at the components’ cost, with a MANUFACTURING journal entry, atomically. status draft only records the build; 422 insufficient_stock names the short component in param.',
  })
  @ApiResponse({ status: 201, type: BuildResponse })
  async create(@Body() body: CreateBuildDto) {
    return toBuildResource(await this.builds.create(body));
  }

  @Get()
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'List builds' })
  @ApiListResponse(BuildResponse)
  async list(@Query() query: ListQueryDto, @Req() req: Request) {
    const page = await this.builds.list(query);
    return listEnvelope(page.rows.map(toBuildResource), page, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Retrieve a build' })
  @ApiResponse({ status: 200, type: BuildResponse })
  async retrieve(@Param('id') id: string, @Query() _q: RetrieveQueryDto) {
    return toBuildResource(await this.builds.retrieve(id));
  }

  @Post(':id/post')
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({ summary: 'Post a draft build' })
  @ApiResponse({ status: 200, type: BuildResponse })
  async post(@Param('id') id: string) {
    return toBuildResource(await this.builds.post(id));
  }

  @Post(':id/void')
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Void a draft build',
    description: 'Posted builds are final (409 invalid_state).',
  })
  @ApiResponse({ status: 200, type: BuildResponse })
  async void(@Param('id') id: string) {
    return toBuildResource(await this.builds.void(id));
  }
}
