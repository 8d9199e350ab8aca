import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { TAG_COLOR_PATTERN, TAG_NAME_MAX } from '../domain/tag';
import { NullableField, OptionalNonEmptyText, RequiredText } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

export class CreateTagDto {
  @RequiredText(TAG_NAME_MAX, { example: 'Wholesale', maxLength: TAG_NAME_MAX }) name: string;

  @NullableField(
    { example: '#1f6feb', pattern: '^#[0-9a-fA-F]{6}$' },
    IsString(),
    Matches(TAG_COLOR_PATTERN, { message: 'color must be #RRGGBB' }),
  )
  color?: string | null;
}

export class UpdateTagDto {
  @OptionalNonEmptyText(TAG_NAME_MAX, { maxLength: TAG_NAME_MAX }) name?: string;

  @NullableField(
    { pattern: '^#[0-9a-fA-F]{6}$' },
    IsString(),
    Matches(TAG_COLOR_PATTERN, { message: 'color must be #RRGGBB' }),
  )
  color?: string | null;
}

@ResourceResponse('tag')
export class TagResponse {
  @ApiProperty({ example: 'Wholesale' }) name: string;
  @ApiProperty({ nullable: true, type: String, example: '#1f6feb' }) color: string | null;
}
