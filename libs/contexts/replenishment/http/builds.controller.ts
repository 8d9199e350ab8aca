import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { BuildsService } from '../application/builds.service';
import { BuildResponse, CreateBuildDto } from './build.dto';
import { toBuildResource } from './build.presenter';

@ApiTags('Inventory')
@Controller('inventory/builds')
export class BuildsController {
  constructor(private readonly builds: BuildsService) {}

  @Route('POST', '', {
    scopes: 'inventory:write',
    summary: 'Build kits',
    description:
      'Draws the components (build_consumption) and adds the kits (build_output) at the components’ cost, with a MANUFACTURING journal entry, atomically. status draft only records the build; 422 insufficient_stock names the short component in param.',
    returns: BuildResponse,
  })
  async create(@Body() body: CreateBuildDto) {
    return toBuildResource(await this.builds.create(body));
  }

  @Route('GET', '', { scopes: 'inventory:read', summary: 'List builds', list: BuildResponse })
  async list(@Query() query: ListQueryDto, @Req() req: Request) {
    const page = await this.builds.list(query);
    return listEnvelope(page.rows.map(toBuildResource), page, requestPath(req));
  }

  @Route('GET', ':id', { scopes: 'inventory:read', summary: 'Retrieve a build', returns: BuildResponse })
  async retrieve(@Param('id') id: string, @Query() _q: RetrieveQueryDto) {
    return toBuildResource(await this.builds.retrieve(id));
  }

  @Route('POST', ':id/post', {
    scopes: 'inventory:write',
    summary: 'Post a draft build',
    code: 200,
    returns: BuildResponse,
  })
  async post(@Param('id') id: string) {
    return toBuildResource(await this.builds.post(id));
  }

  @Route('POST', ':id/void', {
    scopes: 'inventory:write',
    summary: 'Void a draft build',
    description: 'Posted builds are final (409 invalid_state).',
    code: 200,
    returns: BuildResponse,
  })
  async void(@Param('id') id: string) {
    return toBuildResource(await this.builds.void(id));
  }
}
