import { ApiProperty } from '@nestjs/swagger';
import { FixedAssetResponse } from './fixed-asset.dto';

/** The answer of POST /fixed_assets/{id}/depreciate: the run and the asset after it. */
export class FixedAssetDepreciationResponse {
  @ApiProperty({ enum: ['fixed_asset_depreciation'], example: 'fixed_asset_depreciation' }) object: string;
  @ApiProperty({ type: FixedAssetResponse }) fixed_asset: FixedAssetResponse;
  @ApiProperty({
    type: 'integer',
    example: 3,
    description: 'Whole months depreciated by this run (0: nothing was due).',
  })
  months: number;
  @ApiProperty({ example: 1250, description: 'Depreciation posted by this run.' }) amount: number;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The DEPRECIATION journal entry; null when nothing was due.',
  })
  journal_entry_id: string | null;
}
