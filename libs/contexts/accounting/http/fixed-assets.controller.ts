import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { FixedAssetsService } from '../application/fixed-assets.service';
import {
  AssetEventResponse,
  CreateFixedAssetDto,
  DepreciateDto,
  FixedAssetResponse,
  ImpairmentDto,
  ImpairmentHistoryResponse,
  RevaluationDto,
} from './fixed-asset.dto';
import { FixedAssetDepreciationResponse } from './fixed-asset-depreciation.dto';

@ApiTags('Fixed assets')
@Controller('fixed_assets')
export class FixedAssetsController {
  constructor(private readonly assets: FixedAssetsService) {}

  @Route('POST', '', {
    scopes: 'assets:write',
    summary: 'Register a fixed asset (straight-line)',
    returns: FixedAssetResponse,
  })
  create(@Body() body: CreateFixedAssetDto) {
    return this.assets.create(body);
  }

  @Route('GET', '', { scopes: 'assets:read', summary: 'List fixed assets' })
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.assets.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'assets:read',
    summary: 'Retrieve a fixed asset',
    returns: FixedAssetResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.assets.retrieve(id);
  }

  @Route('POST', ':id/depreciate', {
    scopes: 'assets:write',
    summary: 'Post depreciation through a date',
    description: 'A DEPRECIATION entry for the whole months not yet depreciated.',
    code: 200,
    returns: FixedAssetDepreciationResponse,
  })
  depreciate(@Param('id') id: string, @Body() body: DepreciateDto) {
    return this.assets.depreciate(id, body.through_date);
  }

  @Route('POST', ':id/impairments', {
    scopes: 'assets:write',
    summary: 'Record an impairment',
    description: 'Posts an IMPAIRMENT entry; the amount may not exceed the net book value.',
    returns: AssetEventResponse,
  })
  impair(@Param('id') id: string, @Body() body: ImpairmentDto) {
    return this.assets.impair(id, body);
  }

  @Route('POST', ':id/recoveries', {
    scopes: 'assets:write',
    summary: 'Record an impairment recovery',
    description: 'Capped by max_recoverable (422 amount_exceeds_limit, param amount).',
    returns: AssetEventResponse,
  })
  recover(@Param('id') id: string, @Body() body: ImpairmentDto) {
    return this.assets.recover(id, body);
  }

  @Route('POST', ':id/revaluations', {
    scopes: 'assets:write',
    summary: 'Revalue a fixed asset to a fair value',
    description: 'Posts the difference to the net book value.',
    returns: AssetEventResponse,
  })
  revalue(@Param('id') id: string, @Body() body: RevaluationDto) {
    return this.assets.revalue(id, body);
  }

  @Route('GET', ':id/impairment_history', {
    scopes: 'assets:read',
    summary: 'Impairment history',
    description: 'Events by event_date desc then created_at desc, total and summary.',
    returns: ImpairmentHistoryResponse,
  })
  history(@Param('id') id: string) {
    return this.assets.impairmentHistory(id);
  }
}
