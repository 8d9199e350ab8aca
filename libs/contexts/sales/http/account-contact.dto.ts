import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsString, MaxLength } from 'class-validator';
import { ClearableField, OmittableField } from './validation';
import { RequiredText } from '#platform/http/dto-fields';

export class CreateContactDto {
  @RequiredText(200, { example: 'Jane Doe' }) name: string;

  @ClearableField({ example: 'jane@acme.example' }, IsEmail(), MaxLength(254)) email?: string | null;

  @ClearableField({}, IsString(), MaxLength(40)) phone?: string | null;

  @ClearableField({ example: 'accounts payable' }, IsString(), MaxLength(100)) role?: string | null;

  @OmittableField(
    { description: 'Primary contact; the first contact is primary automatically.' },
    IsBoolean(),
  )
  is_primary?: boolean;
}

export class UpdateContactDto extends PartialType(CreateContactDto) {}

export class ContactResponse extends CreateContactDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'account_contact' }) object: string;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() declare is_primary: boolean;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
