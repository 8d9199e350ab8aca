import { PartialType } from '@nestjs/swagger';
import { AccountChildResponse } from './account-child.dto';
import { IsBoolean, IsEmail, IsString } from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import { OmittableField } from './validation';
import { ClearableField, RequiredText } from '#platform/http/dto-fields';

export class CreateContactDto {
  @RequiredText(200, { example: 'Jane Doe' }) name: string;

  @ClearableField({ example: 'jane@acme.example' }, IsEmail(), MaxChars(254)) email?: string | null;

  @ClearableField({}, IsString(), MaxChars(40)) phone?: string | null;

  @ClearableField({ example: 'accounts payable' }, IsString(), MaxChars(100)) role?: string | null;

  @OmittableField(
    { description: 'Primary contact; the first contact is primary automatically.' },
    IsBoolean(),
  )
  is_primary?: boolean;
}

export class UpdateContactDto extends PartialType(CreateContactDto) {}

export class ContactResponse extends AccountChildResponse(
  CreateContactDto,
  'account_contact',
  'is_primary',
) {}
