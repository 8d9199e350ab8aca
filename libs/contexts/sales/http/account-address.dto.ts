import { PostalAddressDto } from './address.dto';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OmittableField } from './validation';
import { RequiredEnum } from '#platform/http/dto-fields';

export const ADDRESS_TYPES = ['billing', 'shipping'] as const;

/** An account address: a postal address with its type and whether it is the default of that type. */
export class CreateAddressDto extends PostalAddressDto {
  @RequiredEnum(ADDRESS_TYPES) type: string;

  @OmittableField(
    {
      description: 'Default address of its type; the first address of a type is the default automatically.',
    },
    IsBoolean(),
  )
  is_default?: boolean;
}

export class UpdateAddressDto extends PartialType(CreateAddressDto) {}

export class AddressResponse extends CreateAddressDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'account_address' }) object: string;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() declare is_default: boolean;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
