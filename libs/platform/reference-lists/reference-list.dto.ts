import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { RequiredText } from '../http/dto-fields';

export const REFERENCE_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$/;

/** Fields every reference list's create body has. */
export class ReferenceFieldsDto {
  @RequiredText(200, { example: 'Main warehouse', maxLength: 200 }) name: string;

  @ApiProperty({
    example: 'MAIN',
    description: 'Unique per entity and mode; letters, digits, `_`, `.`, `-` (1..50).',
  })
  @IsString()
  @Matches(REFERENCE_CODE_PATTERN, { message: 'code must be 1..50 letters, digits, _ . -' })
  code: string;
}

/** Fields every reference list's representation has. */
export class ReferenceResponseBase {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() code: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
