import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { ClearableField, RequiredEnum } from '#platform/http/dto-fields';
import { PostalAddressDto } from '#platform/reference-lists/postal-address.dto';
import { ReferenceFieldsDto, ReferenceResponseBase } from '#platform/reference-lists/reference-list.dto';

export const LOCATION_TYPES = ['warehouse', 'store', 'virtual'] as const;
export class CreateLocationDto extends ReferenceFieldsDto {
  @RequiredEnum(LOCATION_TYPES, { example: 'warehouse' }) type: string;

  @ClearableField({ type: PostalAddressDto }, ValidateNested(), Type(() => PostalAddressDto))
  address?: PostalAddressDto | null;
}
export class UpdateLocationDto extends PartialType(CreateLocationDto) {}
export class LocationResponse extends ReferenceResponseBase {
  @ApiProperty({ example: 'location' }) object: string;
  @ApiProperty({ enum: LOCATION_TYPES }) type: string;
  @ApiProperty({ type: PostalAddressDto, nullable: true }) address: PostalAddressDto | null;
}
