import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CrossFieldRules, ONE_CURSOR } from '../cross-field-rules';
import { IsId } from '../id.validator';

export const toBoolean = ({ value }: { value: unknown }) => {
  if (value === 'true' || value === true || value === '1') return true;
  if (value === 'false' || value === false || value === '0') return false;
  return value;
};

const toArray = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** Query of a single-resource GET: only `expand[]`. */
export class RetrieveQueryDto {
  @ApiPropertyOptional({
    name: 'expand[]',
    type: [String],
    description: 'Dotted paths of id fields to replace with objects (depth <= 4).',
  })
  @IsOptional()
  @Transform(toArray)
  @IsArray()
  @IsString({ each: true })
  expand?: string[];
}

/** The cursor parameters every list accepts (docs/reference/conventions.md); one cursor at a time. */
@CrossFieldRules(ONE_CURSOR)
export class ListQueryDto extends RetrieveQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Cursor: the id after which the page starts (exclusive).',
  })
  @IsOptional()
  @IsId()
  starting_after?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Cursor: the id before which the page ends (exclusive).',
  })
  @IsOptional()
  @IsId()
  ending_before?: string;

  @ApiPropertyOptional({ description: 'Adds total_count to the list.' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  include_count?: boolean;
}
