import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { FixedAssetsService } from '../application/fixed-assets.service';
import {
  AssetEventResponse,
  CreateFixedAssetDto,
  DepreciateDto,
  FixedAssetResponse,
  ImpairmentDto,
  ImpairmentHistoryResponse,
  RevaluationDto,
} from './accounting.dto';
import { FixedAssetDepreciationResponse } from './fixed-asset-depreciation.dto';

@ApiTags('Fixed assets')
@Controller('fixed_assets')
export class FixedAssetsController {
  constructor(private readonly assets: FixedAssetsService) {}

  @Post()
  @RequireScopes('assets:write')
  @ApiOperation({ summary: 'Register a fixed asset (straight-line)' })
  @ApiResponse({ status: 201, type: FixedAssetResponse })
  create(@Body() body: CreateFixedAssetDto) {
    return this.assets.create(body);
  }

  @Get()
  @RequireScopes('assets:read')
  @ApiOperation({ summary: 'List fixed assets' })
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.assets.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('assets:read')
  @ApiOperation({ summary: 'Retrieve a fixed asset' })
  @ApiResponse({ status: 200, type: FixedAssetResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.assets.retrieve(id);
  }

  @Post(':id/depreciate')
  @HttpCode(200)
  @RequireScopes('assets:write')
  @ApiOperation({
    summary: 'Post depreciation through a date',
    description: 'A DEPRECIATION entry for the whole months not yet depreciated.',
  })
  @ApiResponse({ status: 200, type: FixedAssetDepreciationResponse })
  depreciate(@Param('id') id: string, @Body() body: DepreciateDto) {
    return this.assets.depreciate(id, body.through_date);
  }

  @Post(':id/impairments')
  @RequireScopes('assets:write')
  @ApiOperation({
    summary: 'Record an impairment',
    description: 'Posts an IMPAIRMENT entry; the amount may not exceed the net book value.',
  })
  @ApiResponse({ status: 201, type: AssetEventResponse })
  impair(@Param('id') id: string, @Body() body: ImpairmentDto) {
    return this.assets.impair(id, body);
  }

  @Post(':id/recoveries')
  @RequireScopes('assets:write')
  @ApiOperation({
    summary: 'Record an impairment recovery',
    description: 'Capped by max_recoverable (422 amount_exceeds_limit, param amount).',
  })
  @ApiResponse({ status: 201, type: AssetEventResponse })
  recover(@Param('id') id: string, @Body() body: ImpairmentDto) {
    return this.assets.recover(id, body);
  }

  @Post(':id/revaluations')
  @RequireScopes('assets:write')
  @ApiOperation({
    summary: 'Revalue a fixed asset to a fair value',
    description: 'Posts the difference to the net book value.',
  })
  @ApiResponse({ status: 201, type: AssetEventResponse })
  revalue(@Param('id') id: string, @Body() body: RevaluationDto) {
    return this.assets.revalue(id, body);
  }

  @Get(':id/impairment_history')
  @RequireScopes('assets:read')
  @ApiOperation({
    summary: 'Impairment history',
    description: 'Events by event_date desc then created_at desc, total and summary.',
  })
  @ApiResponse({ status: 200, type: ImpairmentHistoryResponse })
  history(@Param('id') id: string) {
    return this.assets.impairmentHistory(id);
  }
}
