import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Equals, IsBoolean, IsString, Matches, ValidateNested } from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import {
  ExpiryMonthField,
  ExpiryYearField,
  MetadataField,
  MetadataProperty,
  OmittableField,
} from './validation';
import { ClearableField, RequiredEnum } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

export const PAYMENT_METHOD_TYPES = ['card', 'bank_account', 'other'] as const;
export const CARD_BRANDS = [
  'visa',
  'mastercard',
  'amex',
  'discover',
  'jcb',
  'diners',
  'unionpay',
  'other',
] as const;

@CrossFieldRules({
  kind: 'not_past',
  field: 'exp_year',
  unit: 'month',
  month: 'exp_month',
  param: 'exp_year',
  sentence: 'exp_year and exp_month name the current month (UTC) or a later one: an expired card is refused.',
})
export class CardDto {
  @RequiredEnum(CARD_BRANDS, { example: 'visa' }) brand: string;

  @ApiProperty({
    example: '4242',
    pattern: '^[0-9]{4}$',
    description: 'Last four digits only; full card numbers are never accepted.',
  })
  @IsString()
  @Matches(/^[0-9]{4}$/, { message: 'last4 must be 4 digits' })
  last4: string;

  @ExpiryMonthField({ example: 12, minimum: 1, maximum: 12 }) exp_month: number;

  @ExpiryYearField({ example: 2030, minimum: 2000, maximum: 2100 }) exp_year: number;
}

export class BankAccountDto {
  @ClearableField({ example: 'First Bank' }, IsString(), MaxChars(100)) bank_name?: string | null;

  @ApiProperty({ example: '6789', pattern: '^[0-9]{4}$' })
  @IsString()
  @Matches(/^[0-9]{4}$/, { message: 'last4 must be 4 digits' })
  last4: string;
}

/** The object of a payment method's type: required with that type, refused with the others. */
const others = (type: string) => PAYMENT_METHOD_TYPES.filter((t) => t !== type);

@CrossFieldRules(
  {
    kind: 'when',
    field: 'type',
    is: ['card'],
    requires: ['card'],
    param: 'card',
    sentence: 'A card payment method needs card.',
  },
  {
    kind: 'when',
    field: 'type',
    is: others('card'),
    forbids: ['card'],
    param: 'card',
    sentence: "card is only accepted with type 'card'.",
  },
  {
    kind: 'when',
    field: 'type',
    is: ['bank_account'],
    requires: ['bank_account'],
    param: 'bank_account',
    sentence: 'A bank_account payment method needs bank_account.',
  },
  {
    kind: 'when',
    field: 'type',
    is: others('bank_account'),
    forbids: ['bank_account'],
    param: 'bank_account',
    sentence: "bank_account is only accepted with type 'bank_account'.",
  },
)
export class CreatePaymentMethodDto {
  @RequiredEnum(PAYMENT_METHOD_TYPES) type: string;

  @OmittableField(
    { type: CardDto, description: 'Required with type card, refused otherwise.' },
    ValidateNested(),
    Type(() => CardDto),
  )
  card?: CardDto;

  @OmittableField(
    {
      type: BankAccountDto,
      description: 'Required with type bank_account, refused otherwise.',
    },
    ValidateNested(),
    Type(() => BankAccountDto),
  )
  bank_account?: BankAccountDto;

  @ClearableField({ example: 'Net 30 cheque' }, IsString(), MaxChars(200)) description?: string | null;

  @ClearableField({ example: 'Jane Doe' }, IsString(), MaxChars(200)) billing_name?: string | null;

  @OmittableField(
    {
      description: 'true makes it the account default; the first method is the default regardless.',
    },
    IsBoolean(),
  )
  is_default?: boolean;

  @MetadataField() metadata?: Record<string, unknown>;
}

export class SetDefaultPaymentMethodDto {
  @ApiProperty({ enum: [true], description: 'Must be true: makes this method the account default.' })
  @IsBoolean()
  @Equals(true, { message: 'is_default must be true (make another method the default instead)' })
  is_default: boolean;
}

@ResourceResponse('payment_method')
export class PaymentMethodResponse {
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES }) type: string;
  @ApiProperty({ type: CardDto, nullable: true }) card: CardDto | null;
  @ApiProperty({ type: BankAccountDto, nullable: true }) bank_account: BankAccountDto | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ nullable: true, type: String }) billing_name: string | null;
  @ApiProperty() is_default: boolean;
  @MetadataProperty() metadata: Record<string, string>;
}
