import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { TAG_COLOR_PATTERN, TAG_NAME_MAX } from '../domain/tag';

export class CreateTagDto {
  @ApiProperty({ example: 'Wholesale', maxLength: TAG_NAME_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(TAG_NAME_MAX)
  name: string;

  @ApiPropertyOptional({ example: '#1f6feb', nullable: true, pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Matches(TAG_COLOR_PATTERN, { message: 'color must be #RRGGBB' })
  color?: string | null;
}

export class UpdateTagDto {
  @ApiPropertyOptional({ maxLength: TAG_NAME_MAX })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(TAG_NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ nullable: true, pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Matches(TAG_COLOR_PATTERN, { message: 'color must be #RRGGBB' })
  color?: string | null;
}

export class TagResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'tag' }) object: string;
  @ApiProperty({ example: 'Wholesale' }) name: string;
  @ApiProperty({ nullable: true, type: String, example: '#1f6feb' }) color: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
