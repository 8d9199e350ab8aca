import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { MaxChars } from '../http/text-length';
import { ClearableField, RequiredText } from '../http/dto-fields';
import { COUNTRY_PATTERN } from './postal-address';

/** A postal address (locations embed one; account addresses add type and is_default). */
export class PostalAddressDto {
  @RequiredText(200, { example: '1 Market St' }) line1: string;

  @ClearableField({ example: 'Suite 400' }, IsString(), MaxChars(200)) line2?: string | null;

  @RequiredText(100, { example: 'San Francisco' }) city: string;

  @ClearableField({ example: 'CA' }, IsString(), MaxChars(100)) region?: string | null;

  @ClearableField({ example: '94105' }, IsString(), MaxChars(20)) postal_code?: string | null;

  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2, stored upper-case.' })
  @IsString()
  @Matches(COUNTRY_PATTERN, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country: string;
}
