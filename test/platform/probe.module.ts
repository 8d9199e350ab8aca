import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { RequireScopes } from '#platform/auth/decorators';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';

/** What the probe routes serve; the tests set it. */
export const probeState = {
  /** Tag ids the widgets reference, in turn. */
  tagIds: [] as string[],
  /** The node every widget references. */
  nodeId: '',
};

export class ProbeLineDto {
  @IsInt()
  @Min(1)
  quantity: number;

  @IsOptional()
  @IsString()
  note?: string;
}

export class ProbeOrderDto {
  @IsString()
  reference: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ProbeLineDto)
  items: ProbeLineDto[];
}

/**
 * Test-only routes that exercise the shared pipeline: a list of 100 widgets whose fields
 * expand[] can follow (`tag`, and `node.next...`), and routes that fail on our side.
 */
/** Test-only: outside the API description. */
@ApiExcludeController()
@Controller('probe')
export class ProbeController {
  @Get('widgets')
  @RequireScopes('tags:read')
  @ApiResource('probe_widget')
  widgets(@Query() _query: ListQueryDto) {
    const data = Array.from({ length: 100 }, (_, i) => ({
      id: `widget_${i}`,
      object: 'probe_widget',
      tag: probeState.tagIds[i % probeState.tagIds.length],
      node: probeState.nodeId,
    }));
    return { object: 'list', data, has_more: false, url: '/v1/probe/widgets' };
  }

  @Get('widgets/:id')
  @RequireScopes('tags:read')
  @ApiResource('probe_widget')
  widget(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return { id, object: 'probe_widget', tag: probeState.tagIds[0], node: probeState.nodeId };
  }

  @Post('orders')
  @RequireScopes('tags:write')
  order(@Body() body: ProbeOrderDto) {
    return { object: 'probe_order', ...body };
  }

  @Get('boom')
  @RequireScopes('tags:read')
  boom() {
    throw new Error('SELECT secret FROM api_keys WHERE key_hash = $1');
  }

  @Post('boom')
  @RequireScopes('tags:write')
  boomPost() {
    throw new Error('SELECT secret FROM api_keys WHERE key_hash = $1');
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
