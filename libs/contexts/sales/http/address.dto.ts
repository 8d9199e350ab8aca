import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { COUNTRY_PATTERN } from '../domain/account';
import { OptionalNullable } from './validation';

/** A postal address (locations embed one; account addresses add type and is_default). */
export class PostalAddressDto {
  @ApiProperty({ example: '1 Market St' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  line1: string;

  @ApiPropertyOptional({ nullable: true, example: 'Suite 400' })
  @OptionalNullable()
  @IsString()
  @MaxLength(200)
  line2?: string | null;

  @ApiProperty({ example: 'San Francisco' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  city: string;

  @ApiPropertyOptional({ nullable: true, example: 'CA' })
  @OptionalNullable()
  @IsString()
  @MaxLength(100)
  region?: string | null;

  @ApiPropertyOptional({ nullable: true, example: '94105' })
  @OptionalNullable()
  @IsString()
  @MaxLength(20)
  postal_code?: string | null;

  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2, stored upper-case.' })
  @IsString()
  @Matches(COUNTRY_PATTERN, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country: string;
}
