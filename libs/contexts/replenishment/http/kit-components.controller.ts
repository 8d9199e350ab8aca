import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope } from '../../../platform/http/list/paginate';
import { KitComponentsService } from '../application/kit-components.service';
import { CreateKitComponentDto, KitComponentResponse, UpdateKitComponentDto } from './kit-component.dto';
import { toKitComponentResource } from './kit-component.presenter';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Kit components')
@Controller('products')
export class KitComponentsController {
  constructor(private readonly components: KitComponentsService) {}

  @Post(':id/components')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Add a component to a kit',
    description: 'Only products of type kit have components (409 invalid_state otherwise); cycles are 400.',
  })
  @ApiResponse({ status: 201, type: KitComponentResponse })
  async create(@Param('id') id: string, @Body() body: CreateKitComponentDto) {
    return toKitComponentResource(await this.components.add(id, body));
  }

  @Get(':id/components')
  @RequireScopes('products:read')
  @ApiOperation({ summary: "List a kit's components" })
  @ApiListResponse(KitComponentResponse)
  @ApiResponse({ status: 409, description: 'The product is not a kit (invalid_state).' })
  async list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    const page = await this.components.list(id, query);
    return listEnvelope(page.rows.map(toKitComponentResource), page, path(req));
  }

  @Get(':id/components/:component_id')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Retrieve a kit component' })
  @ApiResponse({ status: 200, type: KitComponentResponse })
  async retrieve(
    @Param('id') id: string,
    @Param('component_id') componentId: string,
    @Query() _q: RetrieveQueryDto,
  ) {
    return toKitComponentResource(await this.components.retrieve(id, componentId));
  }

  @Patch(':id/components/:component_id')
  @RequireScopes('products:write')
  @ApiOperation({ summary: "Change a component's quantity per kit" })
  @ApiResponse({ status: 200, type: KitComponentResponse })
  async update(
    @Param('id') id: string,
    @Param('component_id') componentId: string,
    @Body() body: UpdateKitComponentDto,
  ) {
    return toKitComponentResource(await this.components.update(id, componentId, body));
  }

  @Delete(':id/components/:component_id')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Remove a component from a kit' })
  remove(@Param('id') id: string, @Param('component_id') componentId: string) {
    return this.components.remove(id, componentId);
  }
}
