import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
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
  service: FixedAssetsService,
  scope: 'assets',
  model: FixedAssetResponse,
  create: [CreateFixedAssetDto, 'Register a fixed asset (straight-line)'],
  list: [ListQueryDto, 'List fixed assets'],
  retrieve: ['Retrieve a fixed asset'],
  actions: {
    depreciate: [
      'Post depreciation through a date',
      {
        input: DepreciateDto,
        description: 'A DEPRECIATION entry for the whole months not yet depreciated.',
        returns: FixedAssetDepreciationResponse,
      },
    ],
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
    impairmentHistory: [
      'Impairment history',
      {
        handler: 'history',
        method: 'GET',
        path: 'impairment_history',
        description: 'Events by event_date desc then created_at desc, total and summary.',
        returns: ImpairmentHistoryResponse,
      },
    ],
  },
})
export class FixedAssetsController {}
