import { PostalAddressDto } from '#platform/reference-lists/postal-address.dto';
import { PartialType } from '@nestjs/swagger';
import { AccountChildResponse } from './account-child.dto';
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

export class AddressResponse extends AccountChildResponse(
  CreateAddressDto,
  'account_address',
  'is_default',
) {}
