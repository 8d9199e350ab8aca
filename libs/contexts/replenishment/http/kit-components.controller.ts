import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { KitComponentsService } from '../application/kit-components.service';
import { CreateKitComponentDto, KitComponentResponse, UpdateKitComponentDto } from './kit-component.dto';
import { toKitComponentResource } from './kit-component.presenter';

@ApiTags('Kit components')
@Controller('products')
export class KitComponentsController {
  constructor(private readonly components: KitComponentsService) {}

  @Route('POST', ':id/components', {
    scopes: 'products:write',
    summary: 'Add a component to a kit',
    description: 'Only products of type kit have components (409 invalid_state otherwise); cycles are 400.',
    returns: KitComponentResponse,
  })
  async create(@Param('id') id: string, @Body() body: CreateKitComponentDto) {
    return toKitComponentResource(await this.components.add(id, body));
  }

  @Route('GET', ':id/components', {
    scopes: 'products:read',
    summary: "List a kit's components",
    response: { status: 409, description: 'The product is not a kit (invalid_state).' },
    list: KitComponentResponse,
  })
  async list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    const page = await this.components.list(id, query);
    return listEnvelope(page.rows.map(toKitComponentResource), page, requestPath(req));
  }

  @Route('GET', ':id/components/:component_id', {
    scopes: 'products:read',
    summary: 'Retrieve a kit component',
    returns: KitComponentResponse,
  })
  async retrieve(
    @Param('id') id: string,
    @Param('component_id') componentId: string,
    @Query() _q: RetrieveQueryDto,
  ) {
    return toKitComponentResource(await this.components.retrieve(id, componentId));
  }

  @Route('PATCH', ':id/components/:component_id', {
    scopes: 'products:write',
    summary: "Change a component's quantity per kit",
    returns: KitComponentResponse,
  })
  async update(
    @Param('id') id: string,
    @Param('component_id') componentId: string,
    @Body() body: UpdateKitComponentDto,
  ) {
    return toKitComponentResource(await this.components.update(id, componentId, body));
  }

  @Route('DELETE', ':id/components/:component_id', {
    scopes: 'products:write',
    summary: 'Remove a component from a kit',
  })
  remove(@Param('id') id: string, @Param('component_id') componentId: string) {
    return this.components.remove(id, componentId);
  }
}
