import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { StandardRoutes } from '#platform/http/standard-routes';
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
@StandardRoutes({
  service: 'assets',
  scope: 'assets',
  model: FixedAssetResponse,
  create: [CreateFixedAssetDto, 'Register a fixed asset (straight-line)'],
  list: [ListQueryDto, 'List fixed assets'],
  retrieve: ['Retrieve a fixed asset'],
  actionsAfter: 'depreciate',
  actions: {
    impair: [
      'Record an impairment',
      {
        path: 'impairments',
        input: ImpairmentDto,
        description: 'Posts an IMPAIRMENT entry; the amount may not exceed the net book value.',
        returns: AssetEventResponse,
        code: 201,
      },
    ],
    recover: [
      'Record an impairment recovery',
      {
        path: 'recoveries',
        input: ImpairmentDto,
        description: 'Capped by max_recoverable (422 amount_exceeds_limit, param amount).',
        returns: AssetEventResponse,
        code: 201,
      },
    ],
    revalue: [
      'Revalue a fixed asset to a fair value',
      {
        path: 'revaluations',
        input: RevaluationDto,
        description: 'Posts the difference to the net book value.',
        returns: AssetEventResponse,
        code: 201,
      },
    ],
  },
})
export class FixedAssetsController {
  constructor(private readonly assets: FixedAssetsService) {}

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
